"""The files pane: the directory tree, and a finder that filters it as you type.

``/`` (or the explorer's "find file") shows a field above the tree; the letters typed
filter every file the walk would take (the same rules as the tree: .gitignore,
excludes) fuzzily (:mod:`.fuzzy`), best match first, in place of the tree. Up/Down
move among the matches, Enter opens the highlighted one (and shows it in the tree),
Escape goes back to the tree. The file list is walked once per search, in a worker.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Input

from explorer.workspace.walk import WalkOptions, plan

from ...app_messages import FileChosen
from ...jobs import JobRun, LatestJob
from .fuzzy import rank
from .matches import FileMatches
from .tree import FileTree

#: Matches listed at most (the best ones; the header says how many matched).
MAX_MATCHES = 500


class FilesPane(Vertical):
    """The file tree, with a fuzzy finder over every file."""

    BINDING_GROUP_TITLE = "File finder"

    # ``/`` belongs to the explorer screen (it finds a file from any pane): it calls action_find.
    BINDINGS = [
        Binding("enter", "open", "Open", show=False, id="files.open_match",
                tooltip="Open the highlighted match and show it in the tree"),
        Binding("down", "move(1)", "Next match", show=False, id="files.match_down"),
        Binding("up", "move(-1)", "Previous match", show=False, id="files.match_up"),
        Binding("pagedown", "page(1)", "Page down", show=False, id="files.match_page_down"),
        Binding("pageup", "page(-1)", "Page up", show=False, id="files.match_page_up"),
        Binding("escape", "close", "Tree", show=False, id="files.close_finder",
                tooltip="Back to the tree"),
    ]

    DEFAULT_CSS = """
    FilesPane {
        & > #files-filter { display: none; border: none; height: 1; padding: 0 1; }
        & > #files-matches { display: none; height: 1fr; }
        & > FileTree { height: 1fr; }
        &.-finding > #files-filter { display: block; }
        &.-finding > #files-matches { display: block; }
        &.-finding > FileTree { display: none; }
    }
    """

    @dataclass
    class FilesListed(Message):
        """The finder's worker walked the explored directory: its files, relative to the root."""

        paths: list[str]
        generation: int

    def __init__(self, root: str, walk: WalkOptions | None = None, *, id: str | None = None):
        super().__init__(id=id)
        self.root = root
        self.walk = walk
        self.paths: list[str] | None = None  # relative, walked when a search starts
        #: The walks for the finder (a newer search cancels the one in flight).
        self.listing = LatestJob[list[str]](self, "file-list", self.FilesListed)

    def compose(self) -> ComposeResult:
        # Disabled while hidden, so that it never takes the focus (the screen's first focus included).
        yield Input(placeholder="find a file (fuzzy)…", id="files-filter", disabled=True)
        yield FileTree(self.root, self.walk, id="files-tree")
        yield FileMatches(id="files-matches")

    @property
    def finding(self) -> bool:
        return self.has_class("-finding")

    @property
    def file_tree(self) -> FileTree:
        return self.query_one(FileTree)

    # -- the finder ----------------------------------------------------------------------------
    def action_find(self) -> None:
        """Show the finder (the file list is walked again: files come and go)."""
        if not self.finding:
            self.add_class("-finding")
            self.query_one("#files-filter", Input).disabled = False
            self.paths = None
            self.query_one(FileMatches).empty_message = "listing the files…"
            self.listing.start(self._list_files, "list the files for the finder", name="list files")
        self.query_one("#files-filter", Input).focus()
        self._filter()

    def _list_files(self, run: JobRun) -> list[str]:
        return [f.rel for f in plan([self.root], self.walk, root=self.root).files]

    @on(FilesListed)
    def _listed(self, message: FilesListed) -> None:
        if self.listing.is_current(message.generation):
            self.paths = message.paths
            self.query_one(FileMatches).empty_message = "no file matches"
            self._filter()

    @on(Input.Changed, "#files-filter")
    def _typed(self, event: Input.Changed) -> None:
        event.stop()
        self._filter()

    def _filter(self) -> None:
        matches = self.query_one(FileMatches)
        if self.paths is None:
            matches.show([], 0)
            return
        query = self.query_one("#files-filter", Input).value
        matches.show(rank(query, self.paths, MAX_MATCHES) if query.strip() else
                     [(p, 0.0, []) for p in sorted(self.paths)[:MAX_MATCHES]], len(self.paths))

    def action_move(self, delta: int) -> None:
        if self.finding:
            self.query_one(FileMatches).action_move(delta)

    def action_page(self, direction: int) -> None:
        if self.finding:
            self.query_one(FileMatches).action_page(direction)

    @on(Input.Submitted, "#files-filter")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.open_match()

    @on(FileMatches.CursorMoved)
    def _match_moved(self, event: FileMatches.CursorMoved) -> None:
        event.stop()

    def action_open(self) -> None:
        if self.finding:
            self.open_match()

    def open_match(self) -> None:
        """Open the highlighted match, show it in the tree, and close the finder."""
        rel = self.query_one(FileMatches).current
        if rel is None:
            self.notify("No file matches", severity="warning", markup=False)
            return
        path = os.path.join(self.root, *rel.split("/"))
        self.action_close()
        self.post_message(FileChosen(path))
        self.file_tree.reveal_path(path)

    def action_close(self) -> None:
        if not self.finding:
            return
        self.remove_class("-finding")
        field = self.query_one("#files-filter", Input)
        field.value = ""
        field.disabled = True
        self.file_tree.focus()
