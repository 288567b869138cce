"""The sweep's table rows and bar chart, as rich renderables for the panel."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.console import Group
from rich.style import Style
from rich.table import Table
from rich.text import Text

from explorer.display import SWEEP_COLUMNS, bar, format_pct, grid_label, human_bytes
from explorer.engine.measure.sweep import SettingResult, SweepResult

#: Headers of the table columns (the cells are right-aligned): the CLI's sweep table, with
#: the varied fields in one "setting" column (the grid may vary any of them).
TABLE_COLUMNS = ("#", "setting", *(column.header for column in SWEEP_COLUMNS))

BAR_WIDTH = 12


def table_cells(setting: SettingResult, marker: str = "", varied: Sequence[str] = ()) -> list[Text]:
    cells = [f"{setting.index + 1}{marker}", grid_label(setting.options, varied),
             *(column.cell(setting) for column in SWEEP_COLUMNS)]
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
        cells = [Text(grid_label(setting.options, result.varied))]
        for (_, get, shown, colour), peak in zip(CHART_MEASURES, peaks):
            value = get(setting)
            cell = Text(bar(value, peak, BAR_WIDTH), style=Style(color=colour))
            cell.append(f" {shown(value)}")
            cells.append(cell)
        table.add_row(*cells)
    note = Text(f"chunks and index size: scaled to the largest; the percentages: on 0-{percent_scale:.0f}%",
                style=Style(dim=True))
    return Group(table, Text(""), note)
