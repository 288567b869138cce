"""The sweep's table rows and bar chart, as rich renderables for the panel."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.console import Group
from rich.style import Style
from rich.table import Table
from rich.text import Text

from explorer.display import SWEEP_COLUMNS, SWEEP_NOTES, bar, format_pct, grid_label, human_bytes
from explorer.engine.measure.sweep import SettingResult, SweepResult

from ..widgets.fits import FitsWidth

#: Headers of the table columns (the cells are right-aligned): the CLI's sweep table, with
#: the varied fields in one "setting" column (the grid may vary any of them).
TABLE_COLUMNS = ("#", "setting", *(column.header for column in SWEEP_COLUMNS))

BAR_WIDTH = 12
#: The narrowest bar drawn: below it the chart is cut on the right, not wrapped.
MIN_BAR = 3


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


def sweep_chart(result: SweepResult) -> FitsWidth:
    """One row per setting, one bar per measure, as wide as the pane allows. Counts are
    scaled to their largest value; the percentages share one scale of at least 0-10%, so
    small ones stay small."""
    return FitsWidth(lambda width: _chart(result, width))


def _chart(result: SweepResult, width: int) -> Group:
    peaks = [max((get(s) for s in result.settings), default=0) for _, get, _, _ in CHART_MEASURES]
    percent_scale = max(10.0, *peaks[2:])
    peaks[2:] = [percent_scale] * (len(peaks) - 2)
    labels = [grid_label(setting.options, result.varied) for setting in result.settings]
    values = [[shown(get(setting)) for _, get, shown, _ in CHART_MEASURES] for setting in result.settings]
    # Room for the bars: the width less the labels, the values and the gaps between columns.
    label_width = max([len("setting"), *map(len, labels)])
    value_widths = [max([0, *(len(row[k]) for row in values)]) + 1 for k in range(len(CHART_MEASURES))]
    fixed = label_width + sum(value_widths) + 2 * len(CHART_MEASURES)
    bar_width = max(MIN_BAR, min(BAR_WIDTH, (width - fixed) // len(CHART_MEASURES)))
    table = Table(box=None, pad_edge=False, header_style="bold")
    table.add_column("setting", justify="right", no_wrap=True)
    for title, _, _, _ in CHART_MEASURES:
        table.add_column(title, no_wrap=True, overflow="crop")
    for setting, label, row in zip(result.settings, labels, values):
        cells = [Text(label)]
        for (_, get, _, colour), peak, value in zip(CHART_MEASURES, peaks, row):
            cell = Text(bar(get(setting), peak, bar_width), style=Style(color=colour))
            cell.append(f" {value}")
            cells.append(cell)
        table.add_row(*cells)
    note = Text(f"chunks and index size: scaled to the largest; the percentages: on 0-{percent_scale:.0f}%",
                style=Style(dim=True))
    return Group(table, Text(""), note, *(Text(line, style=Style(dim=True)) for line in SWEEP_NOTES))
