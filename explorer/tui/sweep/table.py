"""The sweep's settings table: one row per setting, the row under the cursor is the one
``enter`` uses and ``s`` saves (the keys are the table's, so they work only where the
cursor is shown).

Its columns are the CLI's sweep columns (:data:`explorer.display.SWEEP_COLUMNS`), after
the setting and, once retrieval is evaluated, the measure the advice is about. Each
column is as wide as its widest cell; when they do not all fit, the least useful are
left out first (``KEEP_ORDER``), so the setting and what decides it always show.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.message import Message
from textual.widgets import DataTable

from explorer.display import SWEEP_COLUMNS, grid_label
from explorer.engine.measure.sweep import SettingResult, SweepResult

from ..queries.model import RetrievalRun
from .whiskers import comparison_mark

#: The column of the setting in use and of the recommended one.
IN_USE, RECOMMENDED = "*", "★"
#: Columns in the order shown: the setting, the advice's measure, then the CLI's columns.
SHOW_ORDER = ("#", "setting", "advice", *(column.header for column in SWEEP_COLUMNS))
#: Columns in the order they are kept when the table is too narrow for all of them.
KEEP_ORDER = ("#", "setting", "advice", "chunks", "index", "cut too big", "tiny%", "median", "split (fit)",
              "max", "over%", "p95", "min", "doc_split%")
#: Cells of padding DataTable puts around each column.
PADDING = 2


@dataclass(frozen=True, slots=True)
class Column:
    key: str
    header: str
    cells: list[Text]

    @property
    def width(self) -> int:
        return max([len(self.header), *(cell.cell_len for cell in self.cells)]) + PADDING


def number_cell(setting: SettingResult, current: object, recommended: int | None) -> Text:
    mark = (IN_USE if setting.options == current else "") + (RECOMMENDED if setting.index == recommended else "")
    return Text(f"{setting.index + 1}{mark}", justify="right")


def advice_cells(result: SweepResult, run: RetrievalRun) -> tuple[str, list[Text]]:
    """The advice's measure per setting (``48.8 ▲``: the mean in %, and the comparison with
    the reference), and the column's header."""
    recommendation = run.recommendation
    measure = recommendation.measure if recommendation is not None else "recall@5"
    evaluated = {setting.index: setting for setting in run.settings}
    reference = run.settings[run.result.reference].index if run.settings else -1
    cells = []
    for setting in result.settings:
        scored = evaluated.get(setting.index)
        if scored is None:
            cells.append(Text("-", justify="right"))
            continue
        mark, style = comparison_mark(scored, measure, scored.index == reference)
        cell = Text(f"{100 * scored.metrics[measure].value:.1f} ", justify="right")
        cell.append(f"{mark:>3}", style)
        cells.append(cell)
    return measure, cells


def columns_of(result: SweepResult, run: RetrievalRun | None, current: object) -> dict[str, Column]:
    recommended = None
    if run is not None and run.recommendation is not None:
        recommended = run.settings[run.recommendation.setting].index
    columns = {
        "#": Column("#", "#", [number_cell(s, current, recommended) for s in result.settings]),
        "setting": Column("setting", "setting",
                          [Text(grid_label(s.options, result.varied), justify="right") for s in result.settings]),
    }
    if run is not None and run.result.queries:
        header, cells = advice_cells(result, run)
        columns["advice"] = Column("advice", header, cells)
    for column in SWEEP_COLUMNS:
        columns[column.header] = Column(column.header, column.header,
                                        [Text(column.cell(s), justify="right") for s in result.settings])
    return columns


def fitting(columns: dict[str, Column], width: int) -> list[str]:
    """The keys of the columns shown in ``width`` cells, in the order shown."""
    kept: list[str] = []
    used = 0
    for key in KEEP_ORDER:
        column = columns.get(key)
        if column is None:
            continue
        if kept and used + column.width > width and key not in ("#", "setting"):
            break
        kept.append(key)
        used += column.width
    return [key for key in SHOW_ORDER if key in kept]


class SweepTable(DataTable):
    """Settings, one per row; the cursor row is the one the keys act on."""

    BINDING_GROUP_TITLE = "Settings"
    BINDINGS = [
        Binding("enter", "use", "Use", id="sweep.use", tooltip="Use the highlighted setting in the explorer"),
        Binding("s", "save", "Save", id="sweep.save",
                tooltip="Use the highlighted setting and write it to the project's settings file"),
        Binding("down,j", "cursor_down", "Down", show=False, id="sweep.down", tooltip="Move to the next setting"),
        Binding("up,k", "cursor_up", "Up", show=False, id="sweep.up", tooltip="Move to the previous setting"),
        Binding("home,g", "first_row", "First", show=False, id="sweep.first", tooltip="Go to the first setting"),
        Binding("end,G", "last_row", "Last", show=False, id="sweep.last", tooltip="Go to the last setting"),
    ]

    def __init__(self, *, id: str | None = None):
        super().__init__(id=id, cursor_type="row", zebra_stripes=True)
        self.result: SweepResult | None = None
        self.run: RetrievalRun | None = None
        self.current: object = None
        self.shown: list[str] = []

    # -- state in ------------------------------------------------------------------------------
    def show(self, result: SweepResult | None, run: RetrievalRun | None, current: object) -> None:
        """Rows for ``result``, the advice's column from ``run``; ``current``: the options in use.
        The cursor stays on its row."""
        self.result, self.run, self.current = result, run, current
        self._fill()

    def on_resize(self, event: events.Resize) -> None:
        if self.result is not None and self._fitting() != self.shown:
            self._fill()

    def _width(self) -> int:
        return max(20, self.scrollable_content_region.width or self.size.width)

    def _fitting(self) -> list[str]:
        if self.result is None:
            return []
        return fitting(columns_of(self.result, self.run, self.current), self._width())

    def _fill(self) -> None:
        row = self.cursor_row
        self.clear(columns=True)
        result = self.result
        if result is None:
            self.shown = []
            return
        columns = columns_of(result, self.run, self.current)
        self.shown = fitting(columns, self._width())
        # Widths given, not left to DataTable: it sizes auto columns when idle and then repaints
        # only the rows it sees change, leaving the others drawn at the old widths.
        for key in self.shown:
            self.add_column(Text(columns[key].header, justify="right", style=Style(bold=True)), key=key,
                            width=columns[key].width - PADDING)
        for k, setting in enumerate(result.settings):
            self.add_row(*(columns[key].cells[k] for key in self.shown), key=str(setting.index))
        if result.settings:
            self.move_cursor(row=max(0, min(row, len(result.settings) - 1)), animate=False)

    # -- the row the keys act on -------------------------------------------------------------
    @property
    def highlighted(self) -> SettingResult | None:
        result = self.result
        if result is None or not result.settings or self.row_count == 0:
            return None
        return result.settings[max(0, min(self.cursor_row, len(result.settings) - 1))]

    def highlight(self, index: int) -> None:
        """Put the cursor on the setting numbered ``index`` (its position in the sweep)."""
        if self.result is not None and 0 <= index < len(self.result.settings):
            self.move_cursor(row=index)

    def action_first_row(self) -> None:
        self.highlight(0)

    def action_last_row(self) -> None:
        if self.result is not None:
            self.highlight(len(self.result.settings) - 1)

    def action_use(self) -> None:
        self.post_message(self.Chosen(self, save=False))

    def action_save(self) -> None:
        self.post_message(self.Chosen(self, save=True))

    @dataclass
    class Chosen(Message):
        """The user chose the highlighted setting: to use it, and perhaps to save it."""

        table: SweepTable
        save: bool
