"""The main screen: files, syntax tree and scopes, source with chunks, parameters, stats and chunk list.

The screen shows the app's document (state flows down through ``show_*`` calls)
and links the panes: a pick in one pane (a message flowing up) moves the others
to the same place, quietly, so they do not echo it back.
"""

from __future__ import annotations

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Header, TabbedContent, TabPane

from explorer.engine.measure.problems import Problem
from explorer.engine.options import ChunkOptions
from explorer.engine.regions import describe_regions
from explorer.terminal_text import visible
from explorer.workspace.paths import display_path

from ..app_messages import FileChosen
from ..app_state import ExplorerState, explorer_state
from ..document.model import Document
from ..literal import literal
from ..palette.actions import ExplorerCommands
from ..palette.files import FileFinder
from ..palette.samples import SampleCommands
from ..palette.screen_keys import ScreenKeyCommands
from ..repository.model import RepositoryModel, WalkStop
from ..repository.screen import RepositoryClosed, RepositoryScreen
from ..widgets.ast.tree import AstTree
from ..widgets.chunks.detail import ChunkDetail
from ..widgets.chunks.list import ChunkList
from ..widgets.chunks.stats import StatsPanel, limit_text
from ..widgets.files.pane import FilesPane
from ..widgets.files.tree import FileTree
from ..widgets.footer import KeyFooter
from ..widgets.params.panel import ParamsPanel
from ..widgets.scope.tree import ScopeTree
from ..widgets.source.view import SourceView

#: The side each pane lives in (the source is always shown).
_SIDES = {"files": "left", "ast": "left", "scope": "left", "params": "right", "chunks": "right", "detail": "right"}

#: Seconds the source cursor must rest before the AST and scope trees follow it.
TREES_FOLLOW_DELAY = 0.12


class ExploreScreen(Screen):
    """Everything about one file, side by side."""

    _reveal_timer: Timer | None = None
    #: The repository view's last scan (its problems are what n/p walk), and where the walk is.
    repository: RepositoryModel | None = None
    walk_at: int | None = None
    #: A problem to show once its file has loaded.
    _pending_stop: WalkStop | None = None
    #: The problem n/p showed last (the next one is counted from it).
    _shown_problem: Problem | None = None

    #: Below this many columns only one side pane shows at a time, so the source keeps room.
    NARROW = 110
    #: Below this many columns the side panes narrow further.
    TINY = 70
    #: Below 110 columns the panes narrow and the parameters stack in two columns
    #: (styles/app.tcss), so that an 80-column terminal shows every field.
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (NARROW, "-wide")]

    BINDING_GROUP_TITLE = "the explorer"
    COMMANDS = {ScreenKeyCommands, ExplorerCommands, SampleCommands, FileFinder}
    HELP = """
Each chunk has its own background; the gutter shows line numbers, chunk numbers at the
first line of each chunk, ┆ on overlap lines (repeated at the head of the next chunk) and
✂ where a cut had to fall inside a token. Line numbers are 1-based everywhere, as in editors;
the AST pane shows 1-based line:column too (columns count characters).
Stats: over = chunks above the max size; tiny = chunks under 50 non-whitespace characters.
Moving in any pane moves the others to the same place. The command palette (ctrl+p)
offers every action of this screen as "group: action", and finds files by name.
Fields: the Parameters pane (6) is one pane; ↑↓ choose a field, ←→ change it, enter
edits it; while a field is edited it takes the typed characters, and enter or escape
applies the value and leaves it.
Layout: [ and ] show or hide the side panes (below 110 columns one shows at a time);
z maximizes the focused pane (z or escape restores it).
"""

    #: Pairs of keys the footer shows as one ("+- Size").
    SIZE = Binding.Group("Size", compact=True)
    OVERLAP = Binding.Group("Overlap", compact=True)

    # The order is the footer's: when the keys do not fit, the last ones are left out first,
    # so the keys a newcomer needs most come first.
    BINDINGS = [
        Binding("slash", "find_file", "Find", key_display="/", id="files.find",
                tooltip="Type to filter the files by name (fuzzy); enter opens the highlighted one"),
        Binding("R", "repository", "Repository", id="tools.repository",
                tooltip="Every file and chunk with its chunking problems, worst first"),
        Binding("n", "step_problem(1)", "Problem", id="problems.next",
                tooltip="The next chunking problem: across files once the repository view has scanned them"),
        Binding("p", "step_problem(-1)", "Prev problem", id="problems.previous", show=False,
                tooltip="The previous chunking problem"),
        Binding("t", "app.teach", "Teach", id="tools.teach",
                tooltip="Step through how the open file (or a sample) is chunked"),
        Binding("c", "app.compare", "Compare", id="tools.compare",
                tooltip="The open file chunked two ways, side by side"),
        Binding("full_stop", "app.next_chunk", "Next", key_display=".", id="chunks.next",
                tooltip="Select the next chunk"),
        Binding("comma", "app.previous_chunk", "Prev", key_display=",", id="chunks.previous", show=False,
                tooltip="Select the previous chunk"),
        Binding("z", "zoom", "Zoom", id="layout.zoom", tooltip="Maximize the focused pane, or restore the layout"),
        Binding("plus,equals_sign", "app.size_step(1)", "Size+", key_display="+", id="params.size_up", group=SIZE,
                tooltip="Increase the max chunk size by one step"),
        Binding("minus", "app.size_step(-1)", "Size-", key_display="-", id="params.size_down", group=SIZE,
                tooltip="Decrease the max chunk size by one step"),
        Binding("r", "app.queries", "Queries", id="tools.queries",
                tooltip="Retrieval query by query: which settings find each definition"),
        Binding("S", "app.sweep", "Sweep", id="tools.sweep",
                tooltip="Measure a grid of settings over the whole directory, retrieval included"),
        Binding("left_square_bracket", "toggle_side('left')", "Left", key_display="[", id="layout.left",
                tooltip="Show or hide the left panes (files, AST, scope)"),
        Binding("right_square_bracket", "toggle_side('right')", "Right", key_display="]", id="layout.right",
                tooltip="Show or hide the right panes (parameters, stats, chunks)"),
        Binding("less_than_sign", "app.overlap_step(-1)", "Overlap-", key_display="<", id="params.overlap_down",
                group=OVERLAP, tooltip="Repeat one line fewer"),
        Binding("greater_than_sign", "app.overlap_step(1)", "Overlap+", key_display=">", id="params.overlap_up",
                group=OVERLAP, tooltip="Repeat one more line of the previous chunk at the head of each chunk"),
        Binding("e", "app.export", "Export", id="export.file", tooltip="Export the open file's chunks as JSON"),
        Binding("o", "app.open_anyway", "Open anyway", show=False, id="file.open_anyway",
                tooltip="Open the file refused for its size anyway"),
        Binding("1", "focus_pane('files')", "Files", show=False, id="focus.files", tooltip="Focus the file tree"),
        Binding("2", "focus_pane('source')", "Source", show=False, id="focus.source", tooltip="Focus the source"),
        Binding("3", "focus_pane('ast')", "AST", show=False, id="focus.ast", tooltip="Focus the syntax tree"),
        Binding("4", "focus_pane('scope')", "Scope", show=False, id="focus.scope", tooltip="Focus the scope tree"),
        Binding("5", "focus_pane('chunks')", "Chunks", show=False, id="focus.chunks",
                tooltip="Focus the chunk list"),
        Binding("6", "focus_pane('params')", "Parameters", show=False, id="focus.params",
                tooltip="Focus the parameters (arrows choose and change a field, enter edits it)"),
        Binding("7", "focus_pane('detail')", "Chunk", show=False, id="focus.detail",
                tooltip="Focus the selected chunk's text"),
    ]

    #: Which side panes are hidden (by the user, or for lack of room).
    _hidden: set[str]
    #: The user chose the side panes with [ or ]: no more automatic choice.
    _sides_chosen = False

    @property
    def explorer(self) -> ExplorerState:
        return explorer_state(self)

    def compose(self) -> ComposeResult:
        app = self.explorer
        yield Header(icon="▦")
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield FilesPane(app.root, app.walk_options, id="files")
                with TabbedContent(id="structure"):
                    with TabPane("AST", id="ast-tab"):
                        yield AstTree(id="ast")
                    with TabPane("Scope", id="scope-tab"):
                        yield ScopeTree(id="scope")
            yield SourceView(id="source")
            with Vertical(id="right"):
                yield ParamsPanel(app.options, id="params")
                yield StatsPanel(show_timings=app.show_timings, id="stats")
                yield ChunkList(id="chunks")
                yield ChunkDetail(id="detail")
        yield KeyFooter()

    def on_mount(self) -> None:
        self._hidden = set()
        self._fit_sides()
        self.query_one("#files").border_title = "Files"
        self.query_one("#source").border_title = "Source"
        self.query_one("#params").border_title = "Parameters"
        self.query_one("#chunks").border_title = "Chunks"
        self.query_one("#detail").border_title = "Chunk"
        self.query_one(ChunkDetail).show_chunk(None, self.explorer.options.max_size)
        self.watch(self.app, "document", self._document_changed)
        self.watch(self.app, "options", self._options_changed, init=False)
        self.watch(self.app, "problem", self._problem_changed, init=False)

    # -- state in ---------------------------------------------------------------------------
    def _document_changed(self, old: Document | None, new: Document | None) -> None:
        if (old is None) != (new is None):
            self._fit_sides()
        source = self.query_one(SourceView)
        ast = self.query_one(AstTree)
        scope = self.query_one(ScopeTree)
        chunks = self.query_one(ChunkList)
        stats = self.query_one(StatsPanel)
        stats.show_document(new, self._pending_options(new))
        if new is None:
            source.show_message(self.explorer.problem or "Pick a file in the tree to see how it is chunked.")
            source.border_title = "Source"
            source.border_subtitle = ""
            self.sub_title = ""
            self.query_one("#chunks").border_title = "Chunks"
            ast.show_file(None, self.explorer.options.max_size, self.explorer.options.measure)
            scope.show_structure(None)
            chunks.show_chunking(None)
            self.query_one(ChunkDetail).show_chunk(None, self.explorer.options.max_size)
            return
        options = new.options
        rechunked = old is not None and old.file is new.file
        if rechunked:
            source.show_chunking(new.chunking)
            ast.set_limit(options.max_size, options.measure)
        else:
            same_file = old is not None and old.path == new.path
            source.show_document(new, keep_position=same_file)
            ast.show_file(new.file.parsed, options.max_size, options.measure)
            scope.show_structure(new.file.structure)
        chunks.show_chunking(new.chunking, new.file.structure)
        self._set_titles(new)
        # Keep the reader's place: select the chunk under the cursor in the new chunking
        # (the trees are already there when only the chunking changed).
        self._follow_cursor(source.cursor_byte(), scroll=False, trees=not rechunked)
        stop = self._pending_stop
        if stop is not None and stop.file.path == new.path and not new.file.partial:
            self._pending_stop = None
            # Once the source view has laid out the new file (before, it cannot scroll to the problem).
            self.call_after_refresh(self.show_problem, stop.problem)

    def _set_titles(self, document: Document) -> None:
        source = self.query_one(SourceView)
        file = document.file
        name = display_path(document.path, self.explorer.root)
        source.border_title = literal(name)  # one line, never markup: a name may hold a newline or `[`
        language = file.parsed.language or "plain text"
        mode = f"line-based ({file.parsed.fallback})" if file.parsed.fallback else "AST"
        if file.partial:
            mode = "parsing…"
        regions = describe_regions(file.parsed)  # a container: the code it holds
        source.border_subtitle = literal(f"{language} · {mode} · {regions + ' · ' if regions else ''}{file.source.line_count} lines")
        count = len(document.chunks)
        if file.partial:
            self.query_one("#chunks").border_title = "Chunks (…)"
        elif self._pending_options(document) is not None:
            self.query_one("#chunks").border_title = f"Chunks ({count} for {limit_text(document.options)}, re-chunking…)"
        else:
            self.query_one("#chunks").border_title = f"Chunks ({count})"
        self.query_one(ChunkList).empty_message = "parsing and chunking…" if file.partial else "no chunks"
        self.sub_title = visible(name)

    def _options_changed(self, options: ChunkOptions) -> None:
        self.query_one(ParamsPanel).show_options(options)
        document = self.document
        if document is not None:  # the figures shown now belong to the former parameters: say so
            self.query_one(StatsPanel).show_document(document, self._pending_options(document))
            self._set_titles(document)

    def _pending_options(self, document: Document | None) -> ChunkOptions | None:
        """The parameters being applied when they are not yet those of the shown chunks."""
        options = self.explorer.options
        if document is None or document.file.partial or document.options == options:
            return None
        return options

    def _problem_changed(self, problem: str) -> None:
        source = self.query_one(SourceView)
        if self.explorer.document is None:
            if problem:
                source.show_message(problem)
        elif problem:  # e.g. deleted on disk: still showing the last content
            source.border_subtitle = literal(f"{problem} · showing its last content")

    # -- links between panes ------------------------------------------------------------------
    @property
    def document(self) -> Document | None:
        return self.explorer.document

    def _show_chunk(self, index: int | None) -> None:
        detail = self.query_one(ChunkDetail)
        document = self.document
        if document is None or index is None or index >= len(document.chunks):
            detail.show_chunk(None, self.explorer.options.max_size)
            self.query_one("#detail").border_title = "Chunk"
            return
        if detail.shown is not document.chunks[index]:
            detail.show_chunk(document.chunks[index], document.options.max_size)
        self.query_one("#detail").border_title = f"Chunk {index + 1}"

    def _follow_cursor(self, byte: int, *, scroll: bool, trees: bool = True, trees_later: bool = False) -> None:
        """Move chunk list, AST and scope to what is at ``byte``, without echoes.
        With ``trees_later`` the two trees follow once the cursor rests (expanding
        tree paths on every key of a fast scroll would only slow it down)."""
        document = self.document
        if document is None:
            return
        index = document.chunking.layout.chunk_at(byte)
        self.query_one(ChunkList).select(index)
        self.query_one(SourceView).select_chunk(index, scroll=scroll)
        self._show_chunk(index)
        if self._reveal_timer is not None:
            self._reveal_timer.stop()
            self._reveal_timer = None
        if not trees:
            return
        if trees_later:
            self._reveal_timer = self.set_timer(TREES_FOLLOW_DELAY, lambda: self._reveal_in_trees(byte))
        else:
            self._reveal_in_trees(byte)

    def _reveal_in_trees(self, byte: int) -> None:
        self._reveal_timer = None
        self.query_one(AstTree).reveal(byte)
        self.query_one(ScopeTree).reveal(byte)

    @on(SourceView.CursorMoved)
    def _cursor_moved(self, message: SourceView.CursorMoved) -> None:
        self._follow_cursor(message.byte, scroll=False, trees_later=True)

    @on(ChunkList.Selected)
    def _chunk_selected(self, message: ChunkList.Selected) -> None:
        self.select_chunk(message.index)

    def select_chunk(self, index: int) -> None:
        document = self.document
        if document is None or not document.chunks:
            return
        index = max(0, min(index, len(document.chunks) - 1))
        start = document.chunks[index].byte_range.start
        self.query_one(ChunkList).select(index)
        self.query_one(SourceView).select_chunk(index, scroll=True)
        self._show_chunk(index)
        self.query_one(AstTree).reveal(start)
        self.query_one(ScopeTree).reveal(start)

    def step_chunk(self, delta: int) -> None:
        """Select the next (or previous) chunk after the one selected."""
        document = self.document
        if document is None or not document.chunks:
            return
        current = self.query_one(ChunkList).cursor
        if current is None:
            current = -1 if delta > 0 else len(document.chunks)
        self.select_chunk(current + delta)

    @on(AstTree.SyntaxNodeSelected)
    def _ast_node_selected(self, message: AstTree.SyntaxNodeSelected) -> None:
        self._show_range(message.start_byte, message.end_byte)
        self.query_one(ScopeTree).reveal(message.start_byte)

    def toggle_anonymous_nodes(self) -> None:
        """Show or hide the anonymous nodes (punctuation, keywords) in the AST pane."""
        self.query_one(AstTree).action_toggle_anonymous()

    @on(AstTree.AnonymousNodesToggled)
    def _anonymous_toggled(self, message: AstTree.AnonymousNodesToggled) -> None:
        self.query_one("#structure").border_subtitle = "with anonymous nodes" if message.shown else ""

    @on(ScopeTree.EntitySelected)
    def _entity_selected(self, message: ScopeTree.EntitySelected) -> None:
        self._show_range(message.start_byte, message.end_byte)
        self.query_one(AstTree).reveal(message.start_byte)

    def _show_range(self, start: int, end: int) -> None:
        document = self.document
        if document is None:
            return
        index = document.chunking.layout.chunk_at(start)
        self.query_one(ChunkList).select(index)
        source = self.query_one(SourceView)
        source.select_chunk(index, scroll=False)
        source.show_range(start, end)
        self._show_chunk(index)

    # -- the file tree -----------------------------------------------------------------------
    def reveal_file(self, path: str) -> None:
        """Put the tree's cursor on a file (once its folder has loaded)."""
        self.query_one(FileTree).reveal_path(path)

    def focus_source(self) -> None:
        self.query_one(SourceView).focus()

    def refresh_folders(self, folders: set[str]) -> None:
        """Reload the tree folders whose entries changed on disk."""
        self.query_one(FileTree).reload_folders(folders)

    def refresh_ignore_rules(self) -> None:
        """A .gitignore changed: filter the whole tree again."""
        self.query_one(FileTree).reload_rules()

    def action_find_file(self) -> None:
        self.query_one(FilesPane).action_find()

    def action_focus_pane(self, pane: str) -> None:
        if pane in ("ast", "scope"):
            self.query_one(TabbedContent).active = f"{pane}-tab"
        side = _SIDES.get(pane)
        if side is not None and side in self._hidden:
            self._show_side(side)
        if self.maximized is not None:
            self.minimize()
        finding = self.query_one(FilesPane).finding
        target = {"files": "#files-filter" if finding else "#files-tree"}.get(pane, f"#{pane}")
        self.query_one(target).focus()

    # -- layout -------------------------------------------------------------------------------
    @property
    def narrow(self) -> bool:
        return self.app.size.width < self.NARROW

    def on_resize(self, event: events.Resize) -> None:
        self._fit_sides()

    def _fit_sides(self) -> None:
        """Below NARROW columns one side pane at a time: the files until a file is open, then
        the parameters and chunks (unless the user chose with [ or ])."""
        self.set_class(self.app.size.width < self.TINY, "-tiny")
        if not self.narrow:
            if not self._sides_chosen:
                self._set_hidden(set())
            return
        if self._sides_chosen and len(self._hidden) >= 1:
            return
        self._set_hidden({"left"} if self.explorer.document is not None else {"right"})

    def _set_hidden(self, hidden: set[str]) -> None:
        self._hidden = set(hidden)
        self.set_class("left" in hidden, "-hide-left")
        self.set_class("right" in hidden, "-hide-right")
        focused = self.focused
        if focused is not None and any(focused in self.query_one(f"#{side}").walk_children() for side in hidden):
            self.query_one(SourceView).focus()

    def _show_side(self, side: str) -> None:
        other = "right" if side == "left" else "left"
        self._set_hidden({other} if self.narrow else self._hidden - {side})

    def action_toggle_side(self, side: str) -> None:
        self._sides_chosen = True
        if side in self._hidden:
            self._show_side(side)
        else:
            self._set_hidden(self._hidden | {side})

    def action_zoom(self) -> None:
        """Maximize the pane that has focus (its titled box), or restore the layout."""
        if self.maximized is not None:
            self.minimize()
            return
        focused = self.focused
        panes = [self.query_one(f"#{name}") for name in ("files", "structure", "source", "params", "chunks", "detail")]
        for pane in panes:
            if focused is pane or (focused is not None and focused in pane.walk_children()):
                self.maximized = pane
                return
        self.maximized = self.query_one(SourceView)

    # -- problems: the repository view, n and p ------------------------------------------------
    def action_repository(self) -> None:
        self.app.push_screen(RepositoryScreen(self.repository), self._repository_closed)

    def _repository_closed(self, closed: RepositoryClosed | None) -> None:
        if closed is None:
            return
        self.repository = closed.model
        if closed.stop is not None:
            walk = closed.model.walk()
            self.walk_at = next((i for i, s in enumerate(walk) if s.problem is closed.stop.problem), None)
            self.go_to(closed.stop)

    def go_to(self, stop: WalkStop) -> None:
        """Show a problem: at once if its file is open, else once the file has loaded."""
        document = self.document
        self.reveal_file(stop.file.path)
        if document is not None and document.path == stop.file.path and not document.file.partial:
            self._pending_stop = None
            self.show_problem(stop.problem)
        else:
            self._pending_stop = stop
            self.post_message(FileChosen(stop.file.path))

    def show_problem(self, problem: Problem) -> None:
        """Select the problem's chunk and highlight what is wrong in the source."""
        document = self.document
        if document is None or not document.chunks:
            return
        self._shown_problem = problem
        index = min(problem.chunk, len(document.chunks) - 1)
        self.query_one(ChunkList).select(index)
        source = self.query_one(SourceView)
        source.select_chunk(index, scroll=False)
        source.show_range(problem.start, max(problem.end, problem.start + 1))
        self._show_chunk(index)
        self.query_one(AstTree).reveal(problem.start)
        self.query_one(ScopeTree).reveal(problem.start)

    def action_step_problem(self, step: int) -> None:
        """The next (or previous) problem: over the repository view's list when its scan is of
        the parameters in force, else in the open file."""
        model = self.repository
        walk = model.walk() if model is not None and model.options == self.explorer.options else []
        if not walk:
            self._step_problem_in_file(step)
            return
        at = self.walk_at
        at = (0 if step > 0 else len(walk) - 1) if at is None else at + step
        if not 0 <= at < len(walk):
            self.notify("No more problems in the repository view's list" if step > 0 else
                        "This is the first problem of the repository view's list", severity="information")
            return
        self.walk_at = at
        stop = walk[at]
        self.notify(f"Problem {at + 1:,} of {len(walk):,}: {stop.problem.kind} · "
                    f"{visible(stop.file.rel)}:{stop.problem.line + 1}", timeout=3, markup=False)
        self.go_to(stop)

    def _step_problem_in_file(self, step: int) -> None:
        document = self.document
        found = document.chunking.problems if document is not None else None
        if document is None or found is None:
            self.notify("Open a file, or press R to scan the repository for problems", severity="information")
            return
        problems = found.problems
        if not problems:
            self.notify("No chunking problems in this file; R lists the files that have some",
                        severity="information")
            return
        shown = self._shown_problem
        at = next((i for i, p in enumerate(problems) if p is shown), None)
        if at is None:  # start from the cursor: the first problem at or after it (before it)
            here = self.query_one(SourceView).cursor_byte()
            after = [i for i, p in enumerate(problems) if (p.start >= here if step > 0 else p.start < here)]
            at = (after[0] if step > 0 else after[-1]) if after else None
        else:
            at += step
        if at is None or not 0 <= at < len(problems):
            self.notify("No more problems in this file" if step > 0 else "No problem before this one",
                        severity="information")
            return
        problem = problems[at]
        self.notify(f"Problem {at + 1} of {len(problems)} in this file: {problem.kind}, line {problem.line + 1}",
                    timeout=3, markup=False)
        self.show_problem(problem)
