"""The sweep panel: chunk the explored directory under a grid of settings, compare, pick one.

The grid is every combination of the listed max sizes, overlaps, context modes and
strategies (as ``chunk-explorer sweep`` and ``eval`` take them); fields left at one
value keep the explorer's.

The sweep itself is :func:`explorer.engine.measure.sweep.sweep` (the engine behind
``chunk-explorer sweep``), run in a thread worker; it reports progress per file.
Enter applies the highlighted setting to the explorer, ``s`` also writes it to the
project's settings file: the screen posts ``SettingChosen`` and the app does both;
``a`` does the same with the setting the retrieval panel recommends. The retrieval
panel (:mod:`.retrieval`) evaluates the measured settings with the query sources listed in
its own field.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.style import Style
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import DataTable, Header, Input, Label, ProgressBar, Static

from explorer.display import grid_label
from explorer.engine.measure.per_setting import varied_fields
from explorer.engine.measure.sweep import DEFAULT_MAX_SIZES, SweepResult, distinct_settings, settings_grid
from explorer.engine.options import ChunkOptions, option_values
from explorer.terminal_text import visible
from explorer.workspace.sweep import sweep_paths

from ..app_messages import SettingChosen
from ..app_state import explorer_state
from ..jobs import LatestJob
from ..widgets.footer import KeyFooter
from .chart import TABLE_COLUMNS, sweep_chart, table_cells
from .messages import SweepFailed, SweepFinished, SweepProgressed
from .retrieval import RetrievalPanel

LABEL = Style(dim=True)


def parse_choices(text: str, choices: tuple[str, ...], what: str) -> list[str]:
    """``"none, full"`` -> ["none", "full"]; ValueError naming the valid choices otherwise."""
    parts = [p for p in text.replace(",", " ").split() if p]
    wrong = [p for p in parts if p not in choices]
    if not parts or wrong:
        raise ValueError(f"{what}: {', '.join(wrong) or 'nothing'} is not one of {', '.join(choices)}")
    return list(dict.fromkeys(parts))


#: The grid's fields: (ChunkOptions field, input id, label), slowest-varying first.
GRID_FIELDS = (
    ("strategy", "sweep-strategy", "strategy"),
    ("context_mode", "sweep-context", "context"),
    ("max_size", "sweep-sizes", "max sizes"),
    ("overlap_lines", "sweep-overlap", "overlap"),
)


class SweepScreen(Screen):
    """Settings measured over the whole directory, side by side."""

    #: Worker processes for the sweep (None: every core). Tests use 1 (no process pool).
    jobs: int | None = None

    BINDINGS = [
        Binding("r", "run", "Run", id="sweep.run",
                tooltip="Run the sweep over every combination of the listed sizes, overlaps, contexts and strategies"),
        Binding("enter", "apply", "Use", id="sweep.apply", tooltip="Use the highlighted setting in the explorer"),
        Binding("s", "save", "Save", id="sweep.save",
                tooltip="Use the highlighted setting and write it to the project's settings file"),
        Binding("a", "save_recommended", "Save advice", id="sweep.save_recommended",
                tooltip="Use the setting the retrieval evaluation recommends and write it to the settings file"),
        Binding("v", "queries", "Queries", id="sweep.queries",
                tooltip="The retrieval evaluation query by query (the target's rank under each setting)"),
        Binding("escape", "leave", "Explorer", id="sweep.leave", tooltip="Back to the explorer"),
    ]

    DEFAULT_CSS = """
    SweepScreen {
        #sweep-controls { height: 3; padding: 0 1; }
        #sweep-controls Label { padding: 1 1 0 0; }
        #sweep-sizes { width: 1fr; min-width: 24; }
        #sweep-overlap { width: 9; }
        #sweep-context { width: 14; }
        #sweep-strategy { width: 11; }
        #sweep-progress { margin: 1 0 0 1; width: 12; }
        #sweep-table { height: auto; max-height: 50%; }
        #sweep-chart { height: auto; padding: 0 1; }
        #sweep-status { height: auto; padding: 0 1; color: $text-muted; }
        #sweep-table, #sweep-chart {
            border: round $panel-lighten-2;
            border-title-color: $text-muted;
            border-title-style: bold;
        }
        #sweep-table:focus { border: round $accent; }
    }
    """

    def __init__(self, root: str):
        super().__init__()
        self.root = root
        self.result: SweepResult | None = None
        self.sweeping = LatestJob[SweepResult](self, "sweep", SweepFinished, SweepFailed)

    def compose(self) -> ComposeResult:
        options = self.options
        sizes = DEFAULT_MAX_SIZES.get(options.size_unit, DEFAULT_MAX_SIZES["nws"])
        yield Header(icon="▦")
        values = {"max_size": ",".join(map(str, sizes)), "overlap_lines": str(options.overlap_lines),
                  "context_mode": options.context_mode, "strategy": options.strategy}
        with Horizontal(id="sweep-controls"):
            for name, input_id, label in GRID_FIELDS:
                yield Label(f"{label} ({options.size_unit}):" if name == "max_size" else f"{label}:")
                yield Input(values[name], id=input_id, tooltip="Comma-separated: every combination is swept")
            yield ProgressBar(id="sweep-progress", show_eta=False)
        with VerticalScroll():
            yield DataTable(id="sweep-table", cursor_type="row", zebra_stripes=True)
            yield Static(id="sweep-chart")
            yield RetrievalPanel(id="sweep-retrieval")
            yield Static(id="sweep-status")
        yield KeyFooter()

    @property
    def options(self) -> ChunkOptions:
        return explorer_state(self).options

    def on_mount(self) -> None:
        self.title = "Sweep"
        self.sub_title = visible(self.root)
        table = self.query_one(DataTable)
        table.border_title = "Settings (enter: use · s: save to the settings file)"
        for name in TABLE_COLUMNS:
            table.add_column(name, key=name)
        self.query_one("#sweep-chart").border_title = "Trade-offs"
        self.watch(self.app, "options", self._mark_current, init=False)
        self.action_run()

    # -- running ---------------------------------------------------------------------------
    def action_run(self) -> None:
        try:
            grid = settings_grid(self.options, self.grid())
        except ValueError as error:
            self.notify(str(error), title="Cannot sweep", severity="error", markup=False)
            return
        settings, merged = distinct_settings(grid)
        if merged:  # as the CLI says it: grid points that cannot differ are left out, visibly
            varied = varied_fields(grid)
            self.notify("\n".join(f"Left out {grid_label(point.options, varied)}: the same chunks as "
                                  f"{grid_label(settings[point.same_as], varied)}; {point.why}." for point in merged),
                        title="Sweep", markup=False, timeout=10)
        progress = self.query_one("#sweep-progress", ProgressBar)
        progress.update(total=None, progress=0)
        self._status(f"Sweeping {len(settings)} settings over {self.root} …")
        self.query_one(RetrievalPanel).reset()
        root, walk, jobs = self.root, explorer_state(self).walk_options, self.jobs

        def run(cancelled: Callable[[], bool]) -> SweepResult:
            return sweep_paths(root, settings, walk=walk, jobs=jobs, on_progress=self._progressed_in_worker,
                               should_stop=cancelled)

        self.sweeping.start(run, "sweep the explored directory")

    def grid(self) -> dict[str, list[object]]:
        """The values listed per field (ValueError for a bad one)."""
        def read(input_id: str) -> str:
            return self.query_one(f"#{input_id}", Input).value

        # Each value checked by the options' one rule, in the CLI's words (`--max-size 0` there).
        return {name: option_values(name, read(input_id)) for name, input_id, _ in GRID_FIELDS}

    def _progressed_in_worker(self, done: int, total: int | None, _: object) -> None:
        self.post_message(SweepProgressed(done, total or 0))

    @on(DataTable.RowSelected)
    def _row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_apply()

    @on(Input.Submitted, "#sweep-controls Input")
    def _sizes_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_run()

    @on(SweepProgressed)
    def _progressed(self, message: SweepProgressed) -> None:
        self.query_one("#sweep-progress", ProgressBar).update(total=max(1, message.total), progress=message.done)

    @on(SweepFinished)
    def _finished(self, message: SweepFinished) -> None:
        if not self.sweeping.is_current(message.generation):
            return
        result = self.result = message.result
        table = self.query_one(DataTable)
        table.clear()
        current = self.options
        for setting in result.settings:
            marker = "*" if setting.options == current else ""
            table.add_row(*table_cells(setting, marker, result.varied), key=str(setting.index))
        self.query_one("#sweep-chart", Static).update(sweep_chart(result))
        progress = self.query_one("#sweep-progress", ProgressBar)
        progress.update(total=max(1, result.files), progress=result.files)
        skipped = f", {len(result.skipped)} skipped" if result.skipped else ""
        failed = f", {len(result.failed)} failed" if result.failed else ""
        unit = result.settings[0].options.size_unit if result.settings else ""
        took = f" in {result.seconds:.1f} s" if explorer_state(self).show_timings else ""
        self._status(
            f"{result.files:,} files ({result.bytes / 1e6:.1f} MB){skipped}{failed}{took} · "
            f"sizes in {unit} · * = the setting in use · index = {result.embedding_dim}-d float32 vectors + text"
        )
        table.focus()
        self._evaluate_retrieval(result)

    @on(SweepFailed)
    def _failed(self, message: SweepFailed) -> None:
        if self.sweeping.is_current(message.generation):
            self._status(f"The sweep failed: {message.reason}")
            self.notify(message.reason, title="Sweep failed", severity="error", markup=False)

    def _status(self, text: str) -> None:
        self.query_one("#sweep-status", Static).update(Text(text, style=LABEL))

    # -- choosing -----------------------------------------------------------------------------
    @property
    def chosen(self) -> ChunkOptions | None:
        """The options of the highlighted row."""
        table = self.query_one(DataTable)
        if self.result is None or not self.result.settings or table.row_count == 0:
            return None
        row = max(0, min(table.cursor_row, len(self.result.settings) - 1))
        return self.result.settings[row].options

    def action_apply(self) -> None:
        if isinstance(self.focused, Input):
            return  # enter in the sizes field runs the sweep instead
        options = self.chosen
        if options is None:
            return
        self.post_message(SettingChosen(options))
        self.notify(f"Using {grid_label(options, self.result.varied if self.result else [])}", timeout=3,
                    markup=False)

    def action_save(self) -> None:
        options = self.chosen
        if options is None:
            self.notify("Run the sweep first", severity="warning", markup=False)
            return
        self.post_message(SettingChosen(options, save=True))

    def _mark_current(self, _options: ChunkOptions | None = None) -> None:
        if self.result is None:
            return
        table = self.query_one(DataTable)
        current = self.options
        for setting in self.result.settings:
            label = f"{setting.index + 1}{'*' if setting.options == current else ''}"
            table.update_cell(str(setting.index), "#", label)

    # -- retrieval (see retrieval.py) ----------------------------------------------------------
    def _evaluate_retrieval(self, result: SweepResult) -> None:
        settings = [setting.options for setting in result.settings]
        if not settings:
            return
        current = settings.index(self.options) if self.options in settings else None
        self.query_one(RetrievalPanel).evaluate(self.root, settings, reference=current or 0, current=current,
                                                walk=explorer_state(self).walk_options, jobs=self.jobs)

    def action_save_recommended(self) -> None:
        options = self.query_one(RetrievalPanel).recommended
        if options is None:
            self.notify("No recommendation yet: the retrieval evaluation has not finished or found no queries",
                        severity="warning", markup=False)
            return
        self.post_message(SettingChosen(options, save=True))

    def action_queries(self) -> None:
        from ..queries.screen import QueriesScreen

        run = self.query_one(RetrievalPanel).run
        if run is None:
            self.notify("The retrieval evaluation has not finished yet", severity="warning")
            return
        self.app.push_screen(QueriesScreen(self.root, run=run))

    def action_leave(self) -> None:
        self.dismiss()
