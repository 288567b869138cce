"""What ``sweep`` prints: the table of settings (with retrieval columns after
``--retrieval``), the bar chart, and the run's closing lines on stderr."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ..display import SWEEP_COLUMNS, SWEEP_NOTES, axis_cells, bar, format_pct, human_bytes, plural, sweep_heading
from ..engine.measure.sweep import SettingResult, SweepResult
from ..engine.retrieval import HEADLINE_METRICS, EvalResult
from ..engine.retrieval.recommend import DISAGREEMENT
from ..terminal_text import visible
from .report import left_out_lines

if TYPE_CHECKING:  # rich is imported when there is something to print
    from rich.console import Console


def run_summary(result: SweepResult, settings: int) -> list[str]:
    """The closing lines on stderr: what was swept, then what was left out."""
    work = sum(s.chunk_seconds for s in result.settings)
    lines = [
        f"Swept {plural(result.files, 'file')} ({result.bytes / 1e6:.1f} MB) x {plural(settings, 'setting')} "
        f"in {result.seconds:.1f} s ({plural(result.jobs, 'job')}; worker time: parsing {result.parse_seconds:.1f} s, "
        f"chunking and measuring {work:.1f} s)."
    ]
    return lines + left_out_lines(result.skipped, result.failed, listed_in="--json")


def retrieval_summary(retrieval: EvalResult) -> list[str]:
    """The closing lines of ``--retrieval`` on stderr: the queries, the warnings (the sources'
    disagreement is printed under the recommendation), and the history's screening."""
    warnings = "".join(f" Warning: {w}" for w in retrieval.warnings if not w.startswith(DISAGREEMENT))
    lines = [f"Retrieval: {plural(len(retrieval.queries), 'query', 'queries')} from {retrieval.query_source}, BM25, "
             f"in {retrieval.seconds:.1f} s." + warnings]
    if retrieval.history is not None:
        lines += retrieval.history.lines()
    return [visible(line) for line in lines]


#: The retrieval columns a sweep table has room for: the first headline measures.
RETRIEVAL_COLUMNS = HEADLINE_METRICS[:2]


def retrieval_columns(retrieval: EvalResult) -> list[tuple[str, list[str]]]:
    """The first headline measures per setting, in %, with intervals; ★ marks the best."""
    columns = []
    for name in RETRIEVAL_COLUMNS:
        best = retrieval.best(name)
        cells = []
        for i, setting in enumerate(retrieval.settings):
            m = setting.metrics[name]
            cells.append(f"{100 * m.value:.1f} [{100 * m.low:.1f}–{100 * m.high:.1f}]" + (" ★" if i == best else "  "))
        columns.append((name, cells))
    return columns


def print_retrieval_legend(console: Console, retrieval: EvalResult) -> None:
    """What the retrieval columns hold, and where the full evaluation is."""
    console.print(f"{', '.join(RETRIEVAL_COLUMNS)}: % with 95% intervals, ★ the best (BM25, "
                  f"{len(retrieval.queries):,} queries from {retrieval.query_source}; `chunk-explorer eval` shows "
                  "every measure and the differences)", style="dim", markup=False)


def print_table(console: Console, result: SweepResult, current: int | None,
                extra_columns: list[tuple[str, list[str]]] | None = None) -> None:
    from rich.table import Table
    from rich.text import Text

    console.print(Text(sweep_heading(result), style="bold"))
    table = Table(box=None, header_style="bold", pad_edge=False)
    headers, axis_rows = axis_cells(result.varied, [s.options for s in result.settings])
    table.add_column("#", justify="right")
    for header in [*headers, *(c.header for c in SWEEP_COLUMNS), *(h for h, _ in extra_columns or ())]:
        table.add_column(header, justify="right")
    for setting, axis in zip(result.settings, axis_rows):
        mark = "*" if setting.index == current else ""
        cells = [f"{setting.index + 1}{mark}", *axis, *(c.cell(setting) for c in SWEEP_COLUMNS)]
        cells += [column[setting.index] for _, column in extra_columns or ()]
        table.add_row(*(Text(c) for c in cells), style="bold" if mark else "")
    console.print(table)
    for note in SWEEP_NOTES:
        console.print(Text(note, style="dim"))
    if current is not None:
        console.print(Text("* the settings in effect now (settings file and flags)", style="dim"))


def print_chart(console: Console, result: SweepResult) -> None:
    """One row per setting: bars for chunks, index size, tiny% and split%. Counts are
    scaled to their column's largest value; the two percentages share one scale (at
    least 0-10%), so a fraction of a percent stays a sliver. Figures are printed beside."""
    from rich.table import Table
    from rich.text import Text

    measures: tuple[tuple[str, Callable[[SettingResult], float], Callable[[float], str], str], ...] = (
        ("chunks", lambda s: s.chunks, lambda v: f"{v:,}", "cyan"),
        ("index size", lambda s: s.index_bytes, human_bytes, "magenta"),
        ("tiny%", lambda s: s.summary.overall.tiny_pct or 0.0, format_pct, "yellow"),
        ("split%", lambda s: s.summary.overall.split_any_pct or 0.0, format_pct, "red"),
    )
    headers, axis_rows = axis_cells(result.varied, [s.options for s in result.settings])
    label_width = max(len(" ".join(r)) for r in axis_rows) + 5
    width = max(6, min(24, ((console.width or 80) - label_width) // len(measures) - 10))
    table = Table(box=None, header_style="bold", pad_edge=False)
    table.add_column("#", justify="right")
    table.add_column(" ".join(headers), justify="right")
    for name, _, _, _ in measures:
        table.add_column(name)
    peaks = [max(get(s) for s in result.settings) for _, get, _, _ in measures]
    percent_scale = max(10.0, *peaks[2:])
    peaks[2:] = [percent_scale] * (len(peaks) - 2)
    for setting, axis in zip(result.settings, axis_rows):
        cells = []
        for (_, get, fmt, color), peak in zip(measures, peaks):
            value = get(setting)
            cell = Text(bar(value, peak, width), style=color)
            cell.append(f" {fmt(value)}")
            cells.append(cell)
        table.add_row(Text(str(setting.index + 1)), Text(" ".join(axis)), *cells)
    console.print()
    console.print(table)
    console.print(Text(f"chunks and index size: bars scaled to the largest; tiny% and split%: bars on 0-{format_pct(percent_scale)}%",
                       style="dim"))

