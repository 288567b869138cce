"""The queries view: the retrieval evaluation query by query.

Left, the queries with the rank of their target under each setting, and what the
settings did to the highlighted one ("strategy=lines cut this definition into 3
pieces: rank 6; strategy=ast kept it whole: rank 1"). Right, the target's file
chunked as one setting chunked it: the target marked in the gutter, the top 5
chunks that hit in green and those that miss in red. ``[`` and ``]`` change the
setting shown; ``o`` orders the queries by how much the settings disagree.

Opened from the sweep it shows the sweep's evaluation; opened from the explorer it
evaluates the explorer's settings against the other strategy and double the size,
in a worker (progress above; leaving cancels it).
"""

from __future__ import annotations

import os
from dataclasses import replace

from rich.style import Style
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Header, ProgressBar, Static

from explorer.engine.options import ChunkOptions, Strategy
from explorer.workspace.walk import WalkOptions

from ..app_messages import QuerySourcesChosen
from ..app_state import explorer_state
from ..document.model import LoadedFile
from ..palette.screen_keys import ScreenKeyCommands
from ..widgets.footer import KeyFooter
from ..widgets.source.overlay import OverlaySourceView
from .detail import QueryDetail
from .messages import RetrievalEvaluated, RetrievalFailed, RetrievalProgressed
from .model import RetrievalRun, no_queries
from .picker import Comparison, SettingsPicker
from .runner import Evaluation
from .source import OverlayStyles, display_file, evaluated_document, query_overlays
from .table import QueryTable

LABEL = Style(dim=True)


def default_settings(options: ChunkOptions) -> list[ChunkOptions]:
    """The explorer's settings (the reference), the other strategy, and double the size."""
    other: Strategy = "lines" if options.strategy == "ast" else "ast"
    return list(dict.fromkeys([options, replace(options, strategy=other),
                               replace(options, max_size=options.max_size * 2)]))


class QueriesScreen(Screen):
    """Which queries each setting retrieves, and why."""

    #: Below 110 columns the query list takes more of the width: its rank columns must show.
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (110, "-wide")]

    #: Worker processes for the evaluation (None: every core). Tests use 1 (no process pool).
    jobs: int | None = None

    BINDING_GROUP_TITLE = "the queries view"
    COMMANDS = {ScreenKeyCommands}
    HELP = """
Each row is a query: a definition's doc, the code around a call or a type's use, or a
commit's message (its subject shown); the columns give the rank of the first chunk that
holds its target under each setting: 1 is best, >10 means not in the top 10 (ranks past
10 all read >10). Green: first; light green: top 5; yellow: top 10; red: missed.
The target is the definition asked for (path:line, 1-based; +2: a commit that changed
two more definitions, listed below the query).
o puts first the queries some settings find (in the top 10) and others miss.
Right: the target's file as the shown setting chunked it; violet ▌ marks the target,
green the top-5 chunks that hold it, red those that do not.
"""

    #: ] and [ as one footer key.
    SETTING = Binding.Group("Setting", compact=True)

    BINDINGS = [
        Binding("left_square_bracket", "shown_setting(-1)", "Prev setting", key_display="[", group=SETTING,
                id="queries.previous_setting", tooltip="Show the previous setting's chunks and top 5"),
        Binding("right_square_bracket", "shown_setting(1)", "Next setting", key_display="]", group=SETTING,
                id="queries.next_setting", tooltip="Show the next setting's chunks and top 5"),
        Binding("o", "order", "Order", id="queries.order",
                tooltip="Order the queries as found, or those some settings find and others miss first"),
        Binding("t", "teach", "Teach", id="queries.teach",
                tooltip="Step through how the highlighted query's target file is chunked"),
        Binding("s", "pick_settings", "Settings", id="queries.settings",
                tooltip="Choose the settings to compare (max size, strategy, overlap, context) and the query "
                        "sources (docs, calls, types, history)"),
        Binding("r", "rerun", "Rerun", id="queries.rerun", tooltip="Evaluate again (files may have changed)"),
        Binding("escape", "leave", "Back", id="queries.leave", tooltip="Back to where the view was opened from"),
    ]

    DEFAULT_CSS = """
    QueriesScreen {
        #queries-bar { height: 1; padding: 0 1; }
        #queries-progress { width: 40; }
        #queries-progress.-idle { display: none; }
        #queries-status { width: 1fr; color: $text-muted; padding: 0 0 0 1; }
        #queries-main { height: 1fr; }
        #queries-left { width: 55%; }
        &.-narrow #queries-left { width: 68%; }
        #queries-source { width: 1fr; }
        QueryTable, QueryDetail, #queries-source {
            border: round $panel-lighten-2;
            border-title-color: $text-muted;
            border-title-style: bold;
            border-subtitle-color: $text-muted;
        }
        QueryTable:focus, #queries-source:focus { border: round $accent; }
    }
    """

    def __init__(self, root: str, *, run: RetrievalRun | None = None, settings: list[ChunkOptions] | None = None,
                 reference: int = 0, walk: WalkOptions | None = None, queries: str | None = None):
        super().__init__()
        self.root = root
        self.run = run
        #: The query sources (comma-separated); None: those the explorer evaluates with now.
        self.queries = run.result.query_source if run is not None else queries
        self.settings = settings if settings is not None else [s.options for s in run.settings] if run else []
        self.reference = reference if run is None else run.result.reference
        self.walk = walk
        self.shown_setting = self.reference
        #: The evaluations this view runs (none when it was opened on a finished one).
        self.evaluation = Evaluation(self)
        self._files: dict[str, LoadedFile] = {}

    def compose(self) -> ComposeResult:
        yield Header(icon="▦")
        with Horizontal(id="queries-bar"):
            yield ProgressBar(id="queries-progress", show_eta=False, classes="-idle")
            yield Static(id="queries-status")
        with Horizontal(id="queries-main"):
            with Vertical(id="queries-left"):
                yield QueryTable(id="queries-table")
                yield QueryDetail(id="queries-detail")
            yield OverlaySourceView(id="queries-source")
        yield KeyFooter()

    @property
    def table(self) -> QueryTable:
        return self.query_one(QueryTable)

    @property
    def source_view(self) -> OverlaySourceView:
        return self.query_one("#queries-source", OverlaySourceView)

    def on_mount(self) -> None:
        self.title = "Queries"
        self.sub_title = self.root
        self.table.border_title = "Queries: rank of the target per setting (>10: not in the top 10)"
        self.table.border_subtitle = "o: hit/miss disagreements first · s: settings · t: teach the target's file"
        self.query_one(QueryDetail).border_title = "The highlighted query"
        view = self.source_view
        view.border_title = "Target file"
        view.border_subtitle = "violet ▌ target · green: top-5 hit · red: top-5 miss"
        view.message = "Evaluating…" if self.run is None else "Pick a query"
        if self.run is not None:
            self._show_run(self.run)
        else:
            self.action_rerun()

    # -- running ---------------------------------------------------------------------------------
    def action_rerun(self) -> None:
        if not self.settings:
            self.notify("No settings to evaluate", severity="warning")
            return
        progress = self.query_one(ProgressBar)
        progress.remove_class("-idle")
        progress.update(total=100, progress=0)
        queries = self.queries or ",".join(explorer_state(self).query_sources)
        self._status(f"Evaluating {len(self.settings)} settings over {self.root} with queries from "
                     f"{queries.replace(',', ', ')} …")
        self.evaluation.evaluate(self.root, self.settings, reference=self.reference, walk=self.walk, jobs=self.jobs,
                                 queries=queries)

    @on(RetrievalProgressed)
    def _progressed(self, message: RetrievalProgressed) -> None:
        if self.evaluation.is_current(message.generation):
            self.query_one(ProgressBar).update(progress=round(100 * message.progress.fraction))
            self._status(f"Evaluating: {message.progress.text} …")

    @on(RetrievalEvaluated)
    def _evaluated(self, message: RetrievalEvaluated) -> None:
        if self.evaluation.is_current(message.generation):
            self._show_run(message.run)

    @on(RetrievalFailed)
    def _failed(self, message: RetrievalFailed) -> None:
        if self.evaluation.is_current(message.generation):
            self.query_one(ProgressBar).add_class("-idle")
            self._status(f"The evaluation failed: {message.reason}")
            self.notify(message.reason, title="Retrieval evaluation failed", severity="error", markup=False)

    def _status(self, text: str) -> None:
        self.query_one("#queries-status", Static).update(Text(text, style=LABEL))

    def _show_run(self, run: RetrievalRun) -> None:
        self.run = run
        self._files.clear()
        self.shown_setting = run.result.reference
        self.query_one(ProgressBar).add_class("-idle")
        result = run.result
        warning = f" · {result.warnings[0]}" if result.warnings else ""
        self._status(f"{len(result.queries):,} queries from {result.query_source.replace(',', ', ')} over "
                     f"{result.files:,} files, BM25, {len(result.settings)} settings{warning}")
        self.table.show_run(run)
        if not result.queries:
            self.source_view.show_message(no_queries(result))
        self.table.focus()
        self._show_query()

    # -- showing a query ---------------------------------------------------------------------------
    @on(DataTable.RowHighlighted, "#queries-table")
    def _row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        self._show_query()

    def _show_query(self) -> None:
        run, query = self.run, self.table.query_index
        if run is None or query is None or not run.settings:
            return
        setting = self.shown_setting
        self.query_one(QueryDetail).show_query(run, query, setting)
        target = run.result.queries[query]
        file = self._files.get(target.path)
        if file is None:
            file = self._files[target.path] = display_file(self.root, target.path, run.sources[target.path])
        view = self.source_view
        options = run.settings[setting].options
        document = evaluated_document(file, run.chunks[setting][target.path], options, self.evaluation.generation)
        view.show_document(document)
        view.set_overlays(query_overlays(run, query, setting, self.overlay_styles))
        view.border_title = f"{target.path} · as chunked by {run.labels()[setting]}"
        # After the next refresh: the new document's size must be laid out before scrolling in it.
        self.call_after_refresh(view.reveal, target.start, target.end)

    @property
    def overlay_styles(self) -> OverlayStyles:
        return OverlayStyles.build(self.source_view.background_colors[1])

    def action_shown_setting(self, step: int) -> None:
        if self.run is None or not self.run.settings:
            return
        self.shown_setting = (self.shown_setting + step) % len(self.run.settings)
        self._show_query()

    def action_order(self) -> None:
        self.table.toggle_order()
        self.notify("Queries ordered " + ("by disagreement" if self.table.by_disagreement else "as found"),
                    timeout=2)

    def action_teach(self) -> None:
        from ..teach.screen import TeachScreen

        run, query = self.run, self.table.query_index
        if run is None or query is None:
            self.notify("No query highlighted", severity="warning")
            return
        self.app.push_screen(TeachScreen(path=os.path.join(self.root, run.result.queries[query].path)))

    def action_pick_settings(self) -> None:
        base = self.settings[self.reference] if self.settings else explorer_state(self).options
        queries = self.queries or ",".join(explorer_state(self).query_sources)
        self.app.push_screen(SettingsPicker(base, self.settings, queries), self._settings_picked)

    def _settings_picked(self, picked: Comparison | None) -> None:
        if picked is None or (picked.settings == self.settings and picked.queries == self.queries):
            return
        if picked.settings != self.settings:
            self.settings, self.reference = picked.settings, 0
        self.queries = picked.queries
        # The sources chosen here are the explorer's from now on (the sweep's field shows them).
        self.post_message(QuerySourcesChosen(tuple(picked.queries.split(","))))
        self.action_rerun()

    def action_leave(self) -> None:
        self.dismiss()
