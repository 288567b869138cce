"""What ``eval`` prints: the table of settings (value, interval and paired difference
per measure), the per-source table, ast against lines where they differ, the chart, and
the run's closing lines on stderr."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..display import axis_cells, bar, evaluation_heading, evaluation_legend, plural, skipped_lines
from ..engine.retrieval import HEADLINE_METRICS, EvalResult
from ..engine.retrieval.recommend import DISAGREEMENT
from ..terminal_text import visible

if TYPE_CHECKING:  # rich is imported when there is something to print
    from rich.console import Console

    from ..engine.batch.skips import SkipRecord


def run_summary(result: EvalResult, settings: int, skipped: Sequence[SkipRecord]) -> list[str]:
    """The closing lines on stderr: what was evaluated and how long it took, the queries
    dropped, the embedding work, what was skipped, warnings and failures."""
    retrieval = sum(s.seconds.get("retrieve", 0.0) + s.seconds.get("score", 0.0) for s in result.settings)
    lines = [
        f"Evaluated {plural(len(result.settings), 'setting')} of {settings} on {plural(result.files, 'file')} "
        f"({result.bytes / 1e6:.1f} MB), {plural(len(result.queries), 'query', 'queries')} in {result.seconds:.1f} s "
        f"(chunking {result.chunk_seconds:.1f} s on {plural(result.jobs, 'job')}; retrieval and scoring "
        f"{retrieval:.1f} s)."
    ]
    if result.history is not None:
        lines += [visible(line) for line in result.history.lines()]
    if result.query_source == "docs":
        lines.append(f"Masked {plural(result.masked_docs, 'doc')}; dropped "
                     f"{plural(result.dropped_duplicates, 'query', 'queries')} whose text occurs twice.")
    notes = [s.notes for s in result.settings if s.notes]
    if notes:
        embedded = sum(n.get("embedded", 0) for n in notes)
        cached = sum(n.get("cached", 0) for n in notes)
        lines.append(f"Embedded {plural(embedded, 'text')}, {cached:,} from the cache.")
        for s in result.settings:
            if "over_window" in s.notes:
                how = (f"counted with {s.options.tokenizer}" if s.options.tokenizer
                       else "at least; estimated from words and symbols")
                lines.append(f"  #{s.index + 1}: {s.notes['over_window']:,} of {s.chunks:,} chunks longer than "
                             f"--embed-max-tokens ({how})")
    lines += skipped_lines(skipped, more="all in --json")
    lines += [f"Warning: {visible(w)}" for w in result.warnings
              if not w.startswith(DISAGREEMENT)]  # printed under the recommendation
    for path, message in result.failed[:20]:
        lines.append(f"  failed: {visible(path)}: {visible(message)}")
    return lines


def _points(value: float) -> str:
    return f"{100 * value:.1f}"


def _signed(value: float) -> str:
    return f"{100 * value:+.1f}"


_CELL_WIDTH = 20
#: The chart's measures: as many of the headline measures as fit its bars.
CHART_METRICS = HEADLINE_METRICS[:4]
CHART_COLORS = ("cyan", "magenta", "yellow", "green")


def print_table(console: Console, result: EvalResult, current: int | None) -> None:
    """One row per setting; each measure's cell holds three lines: the value (★ the best),
    its interval, and the paired difference against the reference (dim when not separated)."""
    from rich.table import Table
    from rich.text import Text

    ref = result.settings[result.reference]
    console.print(Text(evaluation_heading(result), style="bold"))
    console.print(Text(f"In each cell: the value in % (★ the best), its 95% bootstrap interval, and the paired "
                       f"difference against #{ref.index + 1} in points, dim when its interval includes 0 "
                       "(not a real difference).", style="dim"))
    headers, axis_rows = axis_cells(result.varied, [s.options for s in result.settings])
    axis_width = sum(max(len(h), *(len(r[i]) for r in axis_rows)) + 2 for i, h in enumerate(headers)) + 14
    room = max(2, ((console.width or 180) - axis_width) // _CELL_WIDTH)
    metrics = list(HEADLINE_METRICS[:room])  # on a narrow terminal the last give way
    table = Table(box=None, header_style="bold", pad_edge=False)
    table.add_column("#", justify="right")
    for header in headers:
        table.add_column(header, justify="right")
    table.add_column("chunks", justify="right")
    for name in metrics:
        table.add_column(name, justify="right", no_wrap=True)
    best = {name: result.best(name) for name in metrics}
    for position, (setting, axis) in enumerate(zip(result.settings, axis_rows)):
        marks = ("r" if position == result.reference else "") + ("*" if setting.index == current else "")
        cells: list[Text] = []
        for name in metrics:
            m, d = setting.metrics[name], setting.delta[name]
            is_best = best[name] == position
            cell = Text(f"{_points(m.value)}{' ★' if is_best else '  '}\n", style="bold" if is_best else "")
            cell.append(f"{_points(m.low)}–{_points(m.high)}  \n", style="")
            if position == result.reference:
                cell.append("reference  ", style="dim")
            else:
                cell.append(f"{_signed(d.value)} ({_signed(d.low)}…{_signed(d.high)})  ",
                            style=("green" if d.value > 0 else "red") if d.separated else "dim")
            cells.append(cell)
        table.add_row(Text(f"{setting.index + 1}{marks}"), *(Text(a) for a in axis), Text(f"{setting.chunks:,}"),
                      *cells)
        if position < len(result.settings) - 1:
            table.add_row()
    console.print(table)
    legend = evaluation_legend(result, current)
    hidden = [name for name in HEADLINE_METRICS if name not in metrics]
    if hidden:
        legend += f"; {', '.join(hidden)} in a wider terminal or with --json"
    console.print(Text(legend, style="dim"))


def print_sources(console: Console, result: EvalResult) -> None:
    """With several query sources: each source's first two headline measures per setting,
    and the paired difference against the reference (dim when not separated)."""
    from rich.table import Table
    from rich.text import Text

    reports = result.by_source()
    if len(reports) < 2 and "," not in result.query_source:
        return
    names = HEADLINE_METRICS[:2]
    table = Table(box=None, header_style="bold", pad_edge=False, title_justify="left")
    table.add_column("#", justify="right")
    for source, report in reports.items():
        for name in names:
            table.add_column(f"{source} ({report.queries:,})\n{name}", justify="right")
    for position, setting in enumerate(result.settings):
        cells = [Text(f"{setting.index + 1}")]
        for report in reports.values():
            for name in names:
                m, d = report.metrics[position][name], report.delta[position][name]
                cell = Text(f"{_points(m.value)} ")
                if position == result.reference:
                    cell.append("ref", style="dim")
                else:
                    cell.append(f"{_signed(d.value)}", style=("green" if d.value > 0 else "red") if d.separated else "dim")
                cells.append(cell)
        table.add_row(*cells)
    console.print()
    console.print(Text("Per query source (queries in brackets): value in %, then the difference against the "
                       "reference in points, dim when not separated", style="dim"))
    console.print(table)


def print_cut_comparisons(console: Console, result: EvalResult) -> None:
    """ast against lines on the definitions that lines cuts and ast keeps whole: where
    the strategies actually differ (over all queries the difference is diluted)."""
    from rich.text import Text

    for comparison in result.cut_comparisons():
        ast, lines = result.settings[comparison.setting], result.settings[comparison.reference]
        parts = []
        for name in ("recall@5", "recall@budget", "iou@5"):
            d = comparison.delta[name]
            verdict = "" if d.separated else ", not separated"
            parts.append(f"{name} {_signed(d.value)} ({_signed(d.low)}…{_signed(d.high)}{verdict})")
        console.print(Text(
            f"On the {plural(len(comparison.queries), 'definition')} that #{lines.index + 1} (lines) cuts and "
            f"#{ast.index + 1} (ast) keeps whole, ast - lines: " + "; ".join(parts), style="cyan"))


def print_chart(console: Console, result: EvalResult) -> None:
    """Bars on a 0-100% scale per measure, with the interval drawn around each bar's end."""
    from rich.table import Table
    from rich.text import Text

    measures = tuple(zip(CHART_METRICS, CHART_COLORS))
    headers, axis_rows = axis_cells(result.varied, [s.options for s in result.settings])
    label_width = max(len(" ".join(r)) for r in axis_rows) + 5
    width = max(8, min(30, ((console.width or 100) - label_width) // len(measures) - 8))
    table = Table(box=None, header_style="bold", pad_edge=False)
    table.add_column("#", justify="right")
    table.add_column(" ".join(headers), justify="right")
    peaks = {name: max(s.metrics[name].high for s in result.settings) or 1.0 for name, _ in measures}
    for name, _ in measures:
        table.add_column(f"{name} (0–{_points(peaks[name])}%)")
    for setting, axis in zip(result.settings, axis_rows):
        cells = []
        for name, color in measures:
            m = setting.metrics[name]
            cell = Text(bar(m.value, peaks[name], width), style=color)
            low = round(m.low / peaks[name] * width)
            high = round(m.high / peaks[name] * width)
            whisker = "".join("─" if low <= i <= high else " " for i in range(width + 1))
            cell.append_text(Text(f" {_points(m.value)}", style="bold"))
            cells.append(Text("\n").join([cell, Text(whisker, style="dim")]))
        table.add_row(Text(str(setting.index + 1)), Text(" ".join(axis)), *cells)
    console.print()
    console.print(table)
    console.print(Text("bars: the value; the line under each: its 95% interval on the same scale", style="dim"))
