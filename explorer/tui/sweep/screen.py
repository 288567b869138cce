"""The sweep panel: chunk the explored directory under a grid of settings, compare, pick one.

The grid is every combination of the listed max sizes, overlaps, context modes and
strategies (as ``chunk-explorer sweep`` and ``eval`` take them); fields left at one
value keep the explorer's. Retrieval is evaluated with the queries of the listed
sources (as ``eval --queries`` takes them: docs, calls, types, ...).

The sweep itself is :func:`explorer.engine.measure.sweep.sweep` (the engine behind
``chunk-explorer sweep``), run in a thread worker; it reports progress per file.

One focus stop per thing the user acts on: the fields (a field takes what is typed;
enter runs, escape leaves it), the settings table (its cursor row is the one ``enter``
uses and ``s`` saves) and the details (the trade-offs and retrieval charts, to scroll).
The advice line above the footer is always on screen and follows every change; ``a``
uses and saves the setting it names. The screen posts ``SettingChosen`` and the app
does the rest; every notice names the setting.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.style import Style
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Header, Input, Label, ProgressBar, Static

from explorer.display import grid_label
from explorer.engine.measure.per_setting import varied_fields
from explorer.engine.measure.sweep import DEFAULT_MAX_SIZES, SweepResult, distinct_settings, settings_grid
from explorer.engine.options import ChunkOptions, option_values
from explorer.terminal_text import visible
from explorer.workspace.results_cache import ResultsCache
from explorer.workspace.sweep import sweep_paths

from ..app_messages import QuerySourcesChosen, SettingChosen
from ..app_state import explorer_state
from ..jobs import LatestJob
from ..palette.screen_keys import ScreenKeyCommands
from ..queries.messages import RetrievalEvaluated, RetrievalFailed, RetrievalProgressed
from ..widgets.footer import KeyFooter
from .advice import AdviceLine
from .chart import sweep_chart
from .messages import SweepFailed, SweepFinished, SweepProgressed
from .retrieval import RetrievalPanel
from .table import IN_USE, RECOMMENDED, SweepTable

LABEL = Style(dim=True)


def parse_choices(text: str, choices: tuple[str, ...], what: str) -> list[str]:
    """``"none, full"`` -> ["none", "full"]; ValueError naming the valid choices otherwise."""
    parts = [p for p in text.replace(",", " ").split() if p]
    wrong = [p for p in parts if p not in choices]
    if not parts or wrong:
        raise ValueError(f"{what}: {', '.join(wrong) or 'nothing'} is not one of {', '.join(choices)}")
    return list(dict.fromkeys(parts))


def query_sources() -> tuple[str, ...]:
    """The engine's built-in query sources (loaded when the sweep opens, not before)."""
    from explorer.engine.retrieval.evaluate import QUERY_SOURCES

    return QUERY_SOURCES


def parse_query_sources(text: str) -> tuple[str, ...]:
    """The sources listed (as ``eval --queries`` reads them; ValueError naming the valid ones)."""
    from explorer.engine.retrieval.evaluate import parse_sources

    return parse_sources(text)


#: The grid's fields: (ChunkOptions field, input id, label), the short ones first (below
#: 120 columns they share the first row; the sizes and the query sources get the second,
#: the sizes the wider part: five sizes of four digits fit at 80 columns).
GRID_FIELDS = (
    ("strategy", "sweep-strategy", "strategy"),
    ("context_mode", "sweep-context", "context"),
    ("overlap_lines", "sweep-overlap", "overlap"),
    ("max_size", "sweep-sizes", "max sizes"),
)


#: The grid's axes in the order its settings are listed (the last one varies fastest).
GRID_AXES = ("strategy", "context_mode", "max_size", "overlap_lines")


class SweepScreen(Screen):
    """Settings measured over the whole directory, side by side."""

    #: Worker processes for the sweep (None: every core). Tests use 1 (no process pool).
    jobs: int | None = None

    BINDING_GROUP_TITLE = "the sweep"
    COMMANDS = {ScreenKeyCommands}
    HELP = f"""
The sweep chunks every file under the explored directory with every combination of the
listed strategies, contexts, max sizes and overlaps (comma-separated), measures each
setting (the CLI's sweep columns), then evaluates how well each retrieves, with queries
from the listed sources (docs, calls, types, history: as chunk-explorer eval --queries).
Table: {IN_USE} marks the setting in use, {RECOMMENDED} the one the advice recommends; the advice column
is the measure the advice is about (recall@5 in %) with ref (the reference: the setting in
use when the sweep ran), ▲ ▼ better / worse than it beyond the noise, ≈ not separated.
The advice line above the footer names the setting to use and why, and follows every
change (a new sweep, a setting used or saved). The details (d) hold the trade-offs chart,
the retrieval whiskers, the reason in full and the queries that moved most.
Fields: a field takes what is typed; enter runs the sweep, escape leaves the field.
"""

    BINDINGS = [
        Binding("r", "run", "Run", id="sweep.run",
                tooltip="Run the sweep over every combination of the listed sizes, overlaps, contexts and strategies"),
        Binding("a", "save_recommended", "Save advice", id="sweep.save_recommended",
                tooltip="Use the setting the advice names and write it to the settings file"),
        Binding("b", "to_recommended", "To advice", id="sweep.to_recommended",
                tooltip="Put the table's cursor on the setting the advice names"),
        Binding("d", "details", "Details", id="sweep.details",
                tooltip="Show or hide the details: trade-offs, retrieval whiskers, the advice's evidence"),
        Binding("v", "queries", "Queries", id="sweep.queries",
                tooltip="The retrieval evaluation query by query (the target's rank under each setting)"),
        Binding("z", "zoom", "Zoom", id="sweep.zoom", tooltip="Maximize the focused pane, or restore the layout"),
        Binding("escape", "leave", "Explorer", id="sweep.leave",
                tooltip="Leave the field being edited; else back to the explorer"),
    ]
    #: Kept out of the palette: what writes the settings stays on its keys, shown in the footer
    #: beside the advice line (the table's enter and s are the table's, never the palette's).
    PALETTE_SKIPS = ("sweep.save_recommended",)

    DEFAULT_CSS = """
    SweepScreen {
        #sweep-controls {
            grid-size: 10; grid-columns: auto 1fr auto 1fr auto 1fr auto 3fr auto 2fr;
            grid-gutter: 0 1; height: auto; padding: 0 1;
        }
        #sweep-controls Label { color: $text-muted; }
        #sweep-progress { height: 1; padding: 0 1; }
        #sweep-progress.-idle { display: none; }
        #sweep-body { height: 1fr; }
        #sweep-table { height: auto; max-height: 60%; }
        #sweep-details { height: 1fr; }
        #sweep-chart { height: auto; padding: 0 1; }
        #sweep-status { height: 1; padding: 0 1; color: $text-muted; }
        #sweep-table, #sweep-details {
            border: round $panel-lighten-2;
            border-title-color: $text-muted;
            border-title-style: bold;
            border-subtitle-color: $text-muted;
        }
        #sweep-table:focus, #sweep-details:focus { border: round $accent; border-title-color: $text; }
        #sweep-details RetrievalPanel { border: none; padding: 0 1; }
        &.-narrow #sweep-controls { grid-size: 6; grid-columns: auto 3fr auto 2fr auto 2fr; }
        &.-narrow #sweep-sizes, &.-narrow #sweep-queries { column-span: 2; }
        &.-no-details #sweep-table { max-height: 100%; }
        &.-no-details #sweep-details { display: none; }
        #sweep-table.-maximized, #sweep-details.-maximized {
            width: 1fr; height: 1fr; max-width: 100%; max-height: 100%;
        }
    }
    """
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (120, "-wide")]
    ALLOW_IN_MAXIMIZED_VIEW = "KeyFooter, AdviceLine"

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
        with Grid(id="sweep-controls"):
            for name, input_id, label in GRID_FIELDS:
                yield Label(f"{label} ({options.size_unit})" if name == "max_size" else label)
                yield Input(values[name], id=input_id, compact=True,
                            tooltip="Comma-separated: every combination is swept; enter runs")
            yield Label("queries")
            yield Input(",".join(explorer_state(self).query_sources), id="sweep-queries", compact=True,
                        tooltip=f"Query sources, comma-separated: {', '.join(query_sources())} "
                                "(as chunk-explorer eval --queries); enter evaluates")
        yield ProgressBar(id="sweep-progress", show_eta=False)
        with Vertical(id="sweep-body"):
            yield SweepTable(id="sweep-table")
            with VerticalScroll(id="sweep-details"):
                yield Static(id="sweep-chart")
                yield RetrievalPanel(id="sweep-retrieval")
        yield AdviceLine("Retrieval is evaluated once the sweep has measured the settings.", id="sweep-advice")
        yield Static(id="sweep-status")
        yield KeyFooter()

    @property
    def options(self) -> ChunkOptions:
        return explorer_state(self).options

    @property
    def table(self) -> SweepTable:
        return self.query_one(SweepTable)

    @property
    def retrieval(self) -> RetrievalPanel:
        return self.query_one(RetrievalPanel)

    def on_mount(self) -> None:
        self.title = "Sweep"
        self.sub_title = visible(self.root)
        self.table.border_title = "Settings"
        self.table.border_subtitle = "enter: use · s: save to the settings file"
        details = self.query_one("#sweep-details")
        details.border_title = "Details: trade-offs and retrieval"
        self.query_one("#sweep-chart").border_title = "Trade-offs"
        self.watch(self.app, "options", self._options_changed, init=False)
        self.table.focus()
        self.action_run()

    # -- running ---------------------------------------------------------------------------
    def action_run(self) -> bool:
        """Sweep the grid the fields list (only evaluate again when just the queries changed);
        False when a field holds a bad value (the message says which)."""
        try:
            grid = settings_grid(self.options, self.grid())
            sources = self.sources()
        except ValueError as error:
            self.notify(str(error), title="Cannot sweep", severity="error", markup=False)
            return False
        settings, merged = distinct_settings(grid)
        explorer_state_sources = explorer_state(self).query_sources
        if sources != explorer_state_sources:
            self.post_message(QuerySourcesChosen(sources))
        result = self.result
        if result is not None and [s.options for s in result.settings] == settings:
            self._evaluate_retrieval(result, sources)  # the same grid: only the queries changed
            return True
        if merged:  # as the CLI says it: grid points that cannot differ are left out, visibly
            varied = varied_fields(grid)
            self.notify("\n".join(f"Left out {grid_label(point.options, varied)}: the same chunks as "
                                  f"{grid_label(settings[point.same_as], varied)}; {point.why}." for point in merged),
                        title="Sweep", markup=False, timeout=10)
        progress = self.query_one("#sweep-progress", ProgressBar)
        progress.remove_class("-idle")
        progress.update(total=None, progress=0)
        self._status(f"Sweeping {len(settings)} settings over {self.root} …")
        self.retrieval.reset()
        self.query_one(AdviceLine).show_note("Retrieval is evaluated once the sweep has measured the settings.")
        root, walk, jobs = self.root, explorer_state(self).walk_options, self.jobs

        def run(cancelled: Callable[[], bool]) -> SweepResult:
            return sweep_paths(root, settings, walk=walk, jobs=jobs, on_progress=self._progressed_in_worker,
                               should_stop=cancelled, cache=ResultsCache.default())

        self.sweeping.start(run, "sweep the explored directory")
        return True

    def grid(self) -> dict[str, list[object]]:
        """The values listed per field (ValueError for a bad one)."""
        def read(input_id: str) -> str:
            return self.query_one(f"#{input_id}", Input).value

        # Each value checked by the options' one rule, in the CLI's words (`--max-size 0` there);
        # the axes in the grid's order (sizes before overlaps), not the fields' on screen.
        fields = {name: input_id for name, input_id, _ in GRID_FIELDS}
        return {name: option_values(name, read(fields[name])) for name in GRID_AXES}

    def sources(self) -> tuple[str, ...]:
        """The query sources listed (ValueError naming the valid ones otherwise)."""
        return parse_query_sources(self.query_one("#sweep-queries", Input).value)

    def _progressed_in_worker(self, done: int, total: int | None, _: object) -> None:
        self.post_message(SweepProgressed(done, total or 0))

    @on(Input.Submitted, "#sweep-controls Input")
    def _field_submitted(self, event: Input.Submitted) -> None:
        """Enter runs and leaves the field (as in the explorer's fields): the results come to the table."""
        event.stop()
        if self.action_run():
            self.table.focus()

    @on(SweepProgressed)
    def _progressed(self, message: SweepProgressed) -> None:
        self.query_one("#sweep-progress", ProgressBar).update(total=max(1, message.total), progress=message.done)

    @on(SweepFinished)
    def _finished(self, message: SweepFinished) -> None:
        if not self.sweeping.is_current(message.generation):
            return
        result = self.result = message.result
        self.table.show(result, None, self.options)
        self.query_one("#sweep-chart", Static).update(sweep_chart(result))
        self.query_one("#sweep-progress", ProgressBar).add_class("-idle")
        skipped = f", {len(result.skipped)} skipped" if result.skipped else ""
        failed = f", {len(result.failed)} failed" if result.failed else ""
        unit = result.settings[0].options.size_unit if result.settings else ""
        took = f" in {result.seconds:.1f} s" if explorer_state(self).show_timings else ""
        self._status(
            f"{result.files:,} files ({result.bytes / 1e6:.1f} MB){skipped}{failed}{took} · sizes in {unit} · "
            f"{IN_USE} in use · {RECOMMENDED} advised · index = {result.embedding_dim}-d float32 vectors + text"
        )
        if not isinstance(self.focused, Input):
            self.table.focus()
        self._evaluate_retrieval(result, explorer_state(self).query_sources)

    @on(SweepFailed)
    def _failed(self, message: SweepFailed) -> None:
        if self.sweeping.is_current(message.generation):
            self.query_one("#sweep-progress", ProgressBar).add_class("-idle")
            self._status(f"The sweep failed: {message.reason}")
            self.notify(message.reason, title="Sweep failed", severity="error", markup=False)

    def _status(self, text: str) -> None:
        self.query_one("#sweep-status", Static).update(Text(text, style=LABEL, no_wrap=True, overflow="ellipsis"))

    # -- retrieval (retrieval.py runs it, advice.py says what to do) ------------------------------
    def _current_number(self) -> int | None:
        """The number (index) of the setting in use among the sweep's, or None."""
        result = self.result
        if result is None:
            return None
        return next((s.index for s in result.settings if s.options == self.options), None)

    def _evaluate_retrieval(self, result: SweepResult, sources: tuple[str, ...]) -> None:
        settings = [setting.options for setting in result.settings]
        if not settings:
            return
        current = self._current_number()
        self.query_one(AdviceLine).show_note(
            f"Evaluating retrieval of {len(settings)} settings with queries from {', '.join(sources)} …")
        self.retrieval.evaluate(self.root, settings, reference=current or 0, current=current,
                                walk=explorer_state(self).walk_options, jobs=self.jobs, queries=",".join(sources))

    @on(RetrievalProgressed)
    def _retrieval_progressed(self, message: RetrievalProgressed) -> None:
        self.query_one(AdviceLine).show_note(f"Evaluating retrieval: {message.progress.text} "
                                             f"({100 * message.progress.fraction:.0f}%) …")

    @on(RetrievalEvaluated)
    def _retrieval_evaluated(self, message: RetrievalEvaluated) -> None:
        self._show_advice()

    @on(RetrievalFailed)
    def _retrieval_failed(self, message: RetrievalFailed) -> None:
        self.query_one(AdviceLine).show_note(f"No advice: retrieval could not be evaluated ({message.reason})")

    def _show_advice(self) -> None:
        run = self.retrieval.run
        self.table.show(self.result, run, self.options)
        if run is not None:
            self.query_one(AdviceLine).show_run(run)

    def _options_changed(self, _options: ChunkOptions) -> None:
        """The setting in use changed (here or in the explorer): mark it, and advise again."""
        if self.result is None:
            return
        self.retrieval.advise(self._current_number())
        self._show_advice()

    # -- choosing -----------------------------------------------------------------------------
    def _label(self, options: ChunkOptions) -> str:
        result = self.result
        number = next((s.index + 1 for s in result.settings if s.options == options), None) if result else None
        label = grid_label(options, result.varied if result else ())
        return f"#{number} ({label})" if number is not None else label

    @on(SweepTable.Chosen)
    def _chosen(self, message: SweepTable.Chosen) -> None:
        setting = self.table.highlighted
        if setting is None:
            self.notify("Run the sweep first", severity="warning", markup=False)
            return
        self.post_message(SettingChosen(setting.options, save=message.save, label=self._label(setting.options)))
        if not message.save:
            self.notify(f"Using {self._label(setting.options)} in the explorer", timeout=3, markup=False)

    def action_save_recommended(self) -> None:
        run = self.retrieval.run
        options = self.retrieval.recommended
        if run is None or options is None:
            self.notify("No advice yet: the retrieval evaluation has not finished or found no queries",
                        severity="warning", markup=False)
            return
        self.table.highlight(next(s.index for s in run.settings if s.options == options))
        self.post_message(SettingChosen(options, save=True, label=self._label(options)))

    def action_to_recommended(self) -> None:
        run = self.retrieval.run
        if run is None or run.recommendation is None:
            self.notify("No advice yet", severity="warning", markup=False)
            return
        self.table.highlight(run.settings[run.recommendation.setting].index)
        self.table.focus()

    # -- layout --------------------------------------------------------------------------------
    def action_details(self) -> None:
        """Show or hide the details (the table takes their room); shown, they get the focus."""
        hidden = not self.has_class("-no-details")
        self.set_class(hidden, "-no-details")
        (self.table if hidden else self.query_one("#sweep-details")).focus()

    def action_zoom(self) -> None:
        if self.maximized is not None:
            self.minimize()
            return
        focused = self.focused
        pane = self.query_one("#sweep-details") if focused is not None and focused.id == "sweep-details" \
            else self.table
        self.maximized = pane

    def action_queries(self) -> None:
        from ..queries.screen import QueriesScreen

        run = self.retrieval.run
        if run is None:
            self.notify("The retrieval evaluation has not finished yet", severity="warning")
            return
        self.app.push_screen(QueriesScreen(self.root, run=run))

    def action_leave(self) -> None:
        if isinstance(self.focused, Input):
            self.table.focus()  # escape leaves a field first
            return
        if self.maximized is not None:
            self.minimize()
            return
        self.dismiss()
