"""The repository view: every file of the explored directory with its chunking problems, or
every chunk that has one, worst first across the repository.

The files are chunked with the explorer's parameters in worker processes
(:mod:`.scan`); rows appear as files finish. The upper list holds the files (worst
first, or by count, path or kind) or, after ``c``, the chunks; the lower one the
problems of the file or chunk under the cursor. ``f``/``l`` filter by kind and
language, ``s`` changes the order, Enter closes the view and opens the file at the
problem (at the chunk). The screen's result
(:class:`RepositoryClosed`) hands the scan back to the explorer, which shows the
problem chosen, walks the same problems with ``n``/``p`` and gives the scan to the
view when it opens again (a complete scan of the same parameters is not redone).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Header, Static

from explorer.display import embedded_line, options_text
from explorer.engine.measure.problems import DESCRIPTIONS
from explorer.engine.options import ChunkOptions
from explorer.terminal_text import visible

from .. import heap
from ..app_state import explorer_state
from ..jobs import LatestJob
from ..literal import literal
from ..palette.screen_keys import ScreenKeyCommands
from ..widgets.footer import KeyFooter
from ..widgets.rows import RowList
from .chunk_rows import ChunkRows
from .files import FileRows
from .messages import RepositoryScanFailed, RepositoryScanned
from .model import CHUNKS, FILES, ChunkRow, RepositoryModel, ScannedFile, WalkStop
from .problems import ProblemRows
from .scan import scan


@dataclass(frozen=True)
class RepositoryClosed:
    """What the view hands back when it closes: its scan, and the problem to show (or None)."""

    model: RepositoryModel
    stop: WalkStop | None


class RepositoryScreen(Screen[RepositoryClosed]):
    """Files and their chunking problems under the explorer's parameters."""

    #: Worker processes for the scan (None: every core). Tests use 1 (no process pool).
    jobs: int | None = None

    BINDING_GROUP_TITLE = "the repository view"
    COMMANDS = {ScreenKeyCommands}
    HELP = """
The files (or, after c, the chunks) with chunking problems under the explorer's
parameters, worst first: the score weighs the problems (split 5; dangling, closer,
forced 3; too-big 2; embedded, tiny 1; embedded only under fit embedded, where
the limit binds header and code together). A column per kind counts a file's problems
of that kind; a chunk's row names its kinds. Below: the problems of the file or chunk
under the cursor, in source order. Enter closes the view and opens the file there;
n and p in the explorer then walk the same problems, in this list's order.
"""

    BINDINGS = [
        Binding("enter", "open", "Open", id="repository.open",
                tooltip="Open the file at the problem (at the chunk, in the chunk list)"),
        Binding("c", "listing('chunks')", "Chunks", id="repository.chunks",
                tooltip="List the chunks with problems across the repository, worst first"),
        Binding("c", "listing('files')", "Files", id="repository.files", tooltip="List the files with problems"),
        Binding("f", "kind(1)", "Kind", id="repository.kind", tooltip="Show only one kind of problem (cycles)"),
        Binding("F", "kind(-1)", "Kind back", show=False, id="repository.kind_back",
                tooltip="The previous kind of problem"),
        Binding("l", "language(1)", "Language", id="repository.language",
                tooltip="Show only one language (cycles)"),
        Binding("s", "sort", "Sort", id="repository.sort",
                tooltip="Worst first, most problems first, by path, or by kind (the worst kind first)"),
        Binding("r", "rescan", "Rescan", id="repository.rescan",
                tooltip="Chunk every file again (after editing files)"),
        Binding("escape", "leave", "Explorer", id="repository.leave", tooltip="Back to the explorer"),
    ]

    DEFAULT_CSS = """
    RepositoryScreen {
        #repository-status { height: auto; padding: 0 1; color: $text-muted; text-wrap: nowrap; text-overflow: ellipsis; }
        #repository-note { height: auto; padding: 0 1; color: $text-muted; }
        #repository-files, #repository-chunks { height: 1fr; }
        #repository-chunks { display: none; }
        &.-chunks #repository-chunks { display: block; }
        &.-chunks #repository-files { display: none; }
        #repository-problems { height: 40%; }
        #repository-files, #repository-chunks, #repository-problems {
            border: round $panel-lighten-2;
            border-title-color: $text-muted;
            border-title-style: bold;
        }
        #repository-files:focus, #repository-chunks:focus, #repository-problems:focus { border: round $accent; }
    }
    """

    def __init__(self, model: RepositoryModel | None = None) -> None:
        super().__init__()
        #: The scan shown (a former one is shown again, and scanned again only when stale).
        self.model = model or RepositoryModel(ChunkOptions())
        self.reused = model is not None
        #: Whether the user moved the file cursor (else it stays on the worst file while rows arrive).
        self.user_moved = False
        #: The scans (a new one cancels the one in flight); batches of older scans are dropped.
        self.scans: LatestJob[None] = LatestJob(self, "repository", failed=RepositoryScanFailed.of)
        self.done = 0
        self.total = 0

    def compose(self) -> ComposeResult:
        yield Header(icon="▦")
        yield Static(id="repository-status")
        yield Static(id="repository-note")
        yield FileRows(self.model, id="repository-files")
        yield ChunkRows(self.model, id="repository-chunks")
        yield ProblemRows(id="repository-problems")
        yield KeyFooter()

    @property
    def files(self) -> FileRows:
        return self.query_one(FileRows)

    @property
    def chunk_rows(self) -> ChunkRows:
        return self.query_one(ChunkRows)

    @property
    def upper(self) -> FileRows | ChunkRows:
        """The list shown above: the files, or the chunks."""
        return self.chunk_rows if self.model.listing == CHUNKS else self.files

    @property
    def problem_rows(self) -> ProblemRows:
        return self.query_one(ProblemRows)

    def on_mount(self) -> None:
        self.title = "Repository"
        self.sub_title = visible(explorer_state(self).root)
        if self.reused and self.model.complete and self.current:
            self.total = len(self.model.files) + len(self.model.failed)
            self._refresh_lists(None)
        else:
            self.start_scan()
        self.set_class(self.model.listing == CHUNKS, "-chunks")
        self.upper.focus()

    def on_screen_resume(self) -> None:
        if self.is_mounted and self.model.options != explorer_state(self).options:
            self.start_scan()  # the parameters changed in the explorer: these problems are stale

    # -- scanning ----------------------------------------------------------------------------------
    @property
    def scanning(self) -> bool:
        return not self.model.complete

    @property
    def current(self) -> bool:
        """Whether the problems listed are those of the explorer's parameters now."""
        return self.model.options == explorer_state(self).options

    def start_scan(self) -> None:
        state = explorer_state(self)
        old = self.model
        self.model = RepositoryModel(state.options, language=old.language, kind=old.kind, sort=old.sort,
                                     listing=old.listing)
        if old.files:
            heap.release()  # the former results are dropped: their cycles must be freed, not frozen
        self.files.model = self.chunk_rows.model = self.model
        self.done = self.total = 0
        self.user_moved = False
        self.files.empty_message = self.chunk_rows.empty_message = "scanning…"
        self._refresh_lists(keep=None)
        # A failure is shown in the view (RepositoryScanFailed); the explorer keeps working.
        job = partial(scan, state.root, state.walk_options, state.options, self.jobs)
        self.scans.start(lambda run: job(run.generation, run.post, run), "find the chunking problems of every file",
                         name="repository scan")

    @on(RepositoryScanned)
    def _scanned(self, message: RepositoryScanned) -> None:
        if not self.scans.is_current(message.generation):
            return
        # The cursor stays on the worst row as rows arrive, unless the user moved it.
        keep = self.upper.current if self.user_moved else None
        self.model.add(message.files, message.failed)
        # The scan's results live until the next scan: out of the collector's sight, or every
        # full collection walks tens of thousands of problems (see heap.py).
        heap.keep()
        self.done, self.total = message.done, message.total
        if message.finished:
            self.model.complete = True
            empty = "no problems found" if self.model.files else "no files to chunk"
            self.files.empty_message = self.chunk_rows.empty_message = empty
        self._refresh_lists(keep)

    @on(RepositoryScanFailed)
    def _scan_failed(self, message: RepositoryScanFailed) -> None:
        if self.scans.is_current(message.generation):
            self.model.complete = True
            self.files.empty_message = self.chunk_rows.empty_message = message.reason
            self._refresh_lists(None)
            self.notify(message.reason, title="Scan failed", severity="error", markup=False)

    # -- showing -------------------------------------------------------------------------------------
    def _refresh_lists(self, keep: ScannedFile | ChunkRow | None) -> None:
        """Show the model's rows again; the cursor on ``keep`` (a file or chunk row) if still listed."""
        files = self.model.rows()
        self.files.set_count(len(files), files.index(keep) if isinstance(keep, ScannedFile) and keep in files else 0)
        self.files.border_title = f"Files with problems ({len(files):,})"
        chunks = self.model.chunk_rows() if self.model.listing == CHUNKS else []
        self.chunk_rows.set_count(len(chunks), chunks.index(keep) if isinstance(keep, ChunkRow) and keep in chunks
                                  else 0)
        self.chunk_rows.border_title = f"Chunks with problems, across the repository ({len(chunks):,})"
        self._show_problems()
        self._status()

    def _show_problems(self, cursor: int = 0) -> None:
        rows = self.problem_rows
        if self.model.listing == CHUNKS:
            chunk = self.chunk_rows.current
            if chunk is None:
                rows.show([])
                rows.border_title = "Problems"
                return
            rows.show(list(chunk.problems), cursor)
            rows.border_title = literal(f"Problems of chunk {chunk.chunk + 1} of {chunk.file.rel} ({len(rows.problems):,})")
            return
        file = self.files.current
        if file is None:
            rows.show([])
            rows.border_title = "Problems"
            return
        rows.show(self.model.problems(file), cursor)
        rows.border_title = literal(f"Problems in {file.rel} ({len(rows.problems):,})")  # a name is never markup

    def _status(self) -> None:
        model = self.model
        options = model.options
        progress = (f"scanning {self.done:,}/{self.total:,} files" if self.scanning
                    else f"{self.total:,} files scanned")
        failed = f", {len(model.failed)} failed" if model.failed else ""
        totals = model.totals()
        kinds = model.kinds
        found = ", ".join(f"{kind} {totals[kind]:,}" for kind in kinds if totals[kind])
        none = [kind for kind in kinds if not totals[kind]]
        counts = (found or "none") + (f"; none {', '.join(none)}" if found and none else "")
        lines = [
            f"{progress}{failed} · {options_text(options)}",
            f"problems: {counts}",
            f"showing: {model.describe_filters()}"
            + (f" — {DESCRIPTIONS[model.kind]}" if model.kind else ""),
        ]
        # One line each, cut at the width rather than wrapped (a wrapped line pushes the lists down).
        self.query_one("#repository-status", Static).update(
            Text("\n".join(lines), no_wrap=True, overflow="ellipsis"))
        # What the limit means for the embedded text: information (wrapped, so the switch shows).
        self.query_one("#repository-note", Static).update(Text(embedded_line(options, *model.embedded())))

    @on(RowList.CursorMoved, "#repository-files, #repository-chunks")
    def _file_moved(self, event: RowList.CursorMoved) -> None:
        event.stop()
        self.user_moved = True
        self._show_problems()

    @on(RowList.CursorMoved, "#repository-problems")
    def _problem_moved(self, event: RowList.CursorMoved) -> None:
        event.stop()

    # -- actions -------------------------------------------------------------------------------------
    def action_kind(self, step: int) -> None:
        keep = self.upper.current
        self.model.cycle_kind(step)
        self._refresh_lists(keep)

    def action_language(self, step: int) -> None:
        keep = self.upper.current
        self.model.cycle_language(step)
        self._refresh_lists(keep)

    def action_sort(self) -> None:
        keep = self.upper.current
        self.model.cycle_sort()
        self._refresh_lists(keep)

    def action_listing(self, listing: str) -> None:
        """List the chunks, from the worst; or the files again, the cursor on the chunk's file."""
        shown = self.upper.current
        if listing == self.model.listing:
            return
        self.model.toggle_listing()
        chunks = self.model.listing == CHUNKS
        self.set_class(chunks, "-chunks")
        keep = shown.file if not chunks and isinstance(shown, ChunkRow) else None
        self._refresh_lists(keep)
        self.upper.focus()
        self.call_after_refresh(self.upper.show_cursor)  # laid out now that it shows: scroll to the cursor
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # c reads "Chunks" over the files and "Files" over the chunks: the footer names what it shows.
        if action == "listing":
            return parameters == ((FILES,) if self.model.listing == CHUNKS else (CHUNKS,))
        return True

    def action_rescan(self) -> None:
        self.start_scan()

    def chosen(self) -> WalkStop | None:
        """The problem Enter opens: the one under the cursor of the problem list, else the
        first of the file (or chunk) under the upper list's cursor."""
        current = self.upper.current
        if current is None:
            return None
        problems = self.problem_rows.problems
        if not problems:
            return None
        index = self.problem_rows.cursor if self.focused is self.problem_rows else 0
        file = current.file if isinstance(current, ChunkRow) else current
        return WalkStop(file, problems[min(index, len(problems) - 1)])

    def action_open(self) -> None:
        stop = self.chosen()
        if stop is None:
            self.notify("No problem to open here", severity="warning", markup=False)
            return
        self.dismiss(RepositoryClosed(self.model, stop))

    def action_leave(self) -> None:
        self.dismiss(RepositoryClosed(self.model, None))
