"""The sweep's table rows and bar chart, as rich renderables for the panel."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.console import Group
from rich.style import Style
from rich.table import Table
from rich.text import Text

from explorer.display import bar, format_num, format_pct, human_bytes
from explorer.engine.options import ChunkOptions
from explorer.engine.sweep import SettingResult, SweepResult

#: Headers of the table columns (the cells are right-aligned). "cut too big": definitions
#: larger than the max size, in pieces (what a small size costs); "split (fit)": those that
#: fit in one chunk but no chunk holds (should stay 0).
TABLE_COLUMNS = ("#", "setting", "chunks", "median", "p95", "tiny%", "over%", "cut too big", "split (fit)",
                 "doc split%", "index")

#: How the varied fields read in a setting's label (the max size reads as the bare number).
_LABELS = {"overlap_lines": "overlap {}", "context_mode": "context {}", "strategy": "{}", "size_unit": "{}"}


def setting_label(options: ChunkOptions, varied: Sequence[str]) -> str:
    """``1,000 · overlap 5 · lines``: the max size, then the other fields that vary in the sweep."""
    parts = [f"{options.max_size:,}"]
    for name in varied:
        if name != "max_size":
            parts.append(_LABELS.get(name, name + " {}").format(getattr(options, name)))
    return " · ".join(parts)

BAR_WIDTH = 12


def table_cells(setting: SettingResult, marker: str = "", varied: Sequence[str] = ()) -> list[Text]:
    g = setting.summary.overall
    sizes = g.size_stats()
    cells = [
        f"{setting.index + 1}{marker}", setting_label(setting.options, varied), f"{g.chunks:,}",
        format_num(sizes["median"]), format_num(sizes["p95"]), format_pct(g.tiny_pct), format_pct(g.over_pct),
        f"{setting.cut_too_big:,} ({format_pct(setting.cut_too_big_pct)}%)",
        f"{setting.split_definitions:,} ({format_pct(g.split_any_pct)}%)", format_pct(g.doc_split_pct),
        human_bytes(setting.index_bytes),
    ]
    return [Text(cell, justify="right") for cell in cells]


#: What the chart shows per setting: (title, value, formatted, colour).
CHART_MEASURES: tuple[tuple[str, Callable[[SettingResult], float], Callable[[float], str], str], ...] = (
    ("chunks", lambda s: s.chunks, lambda v: f"{v:,.0f}", "#70d6ff"),
    ("index size", lambda s: s.index_bytes, human_bytes, "#ff70a6"),
    ("tiny%", lambda s: s.summary.overall.tiny_pct or 0.0, lambda v: f"{format_pct(v)}%", "#ffd670"),
    ("cut too big%", lambda s: s.cut_too_big_pct or 0.0, lambda v: f"{format_pct(v)}%", "#ff9770"),
    ("split defs%", lambda s: s.summary.overall.split_any_pct or 0.0, lambda v: f"{format_pct(v)}%", "#ff5f5f"),
)


def sweep_chart(result: SweepResult) -> Group:
    """One row per setting, one bar per measure. Counts are scaled to their largest
    value; the percentages share one scale of at least 0-10%, so small ones stay small."""
    table = Table(box=None, pad_edge=False, header_style="bold")
    table.add_column("setting", justify="right")
    for title, _, _, _ in CHART_MEASURES:
        table.add_column(title)
    peaks = [max((get(s) for s in result.settings), default=0) for _, get, _, _ in CHART_MEASURES]
    percent_scale = max(10.0, *peaks[2:])
    peaks[2:] = [percent_scale] * (len(peaks) - 2)
    for setting in result.settings:
        cells = [Text(setting_label(setting.options, result.varied))]
        for (_, get, shown, colour), peak in zip(CHART_MEASURES, peaks):
            value = get(setting)
            cell = Text(bar(value, peak, BAR_WIDTH), style=Style(color=colour))
            cell.append(f" {shown(value)}")
            cells.append(cell)
        table.add_row(*cells)
    note = Text(f"chunks and index size: scaled to the largest; the percentages: on 0-{percent_scale:.0f}%",
                style=Style(dim=True))
    return Group(table, Text(""), note)
