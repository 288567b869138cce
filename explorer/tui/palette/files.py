"""Finding a file by name from the command palette (type part of its path, fuzzy).

The list of files is the walker's (the same rules as the file tree and the CLI:
.gitignore, default excludes, size limit), read in a thread when the palette opens.
"""

from __future__ import annotations

import asyncio
from functools import partial
from typing import Protocol, runtime_checkable

from textual.command import Hit, Hits, Provider

from explorer.workspace.walk import WalkedFile, WalkOptions, walk

from ..app_messages import FileChosen
from ..app_state import ExplorerState
from ..literal import highlighted

#: Files listed at most (a walk of a huge tree must not keep the palette waiting).
MAX_FILES = 50_000
#: Hits shown at most for one query.
MAX_HITS = 40


def list_files(root: str, options: WalkOptions | None, limit: int = MAX_FILES) -> list[tuple[str, str]]:
    """``(relative path, path)`` of the files the explorer chunks under ``root``."""
    files: list[tuple[str, str]] = []
    for entry in walk(root, options):
        if isinstance(entry, WalkedFile):
            files.append((entry.rel, entry.path))
            if len(files) >= limit:
                break
    return files


def _in_order(query: str, candidate: str) -> bool:
    """Whether every character of ``query`` appears in ``candidate`` in order (cheap pre-filter)."""
    rest = iter(candidate)
    return all(character in rest for character in query)


@runtime_checkable
class ShowsFiles(Protocol):
    """A screen that opens the files the finder finds (the explorer's main screen)."""

    def reveal_file(self, path: str) -> None: ...
    def focus_source(self) -> None: ...


class FileFinder(Provider):
    """``open: path/to/file.py`` for every file whose path matches what was typed."""

    _files: list[tuple[str, str]] | None = None

    def _state(self) -> ExplorerState | None:
        app = self.app
        return app if isinstance(app, ExplorerState) else None

    async def startup(self) -> None:
        state = self._state()
        if state is not None:
            self._files = await asyncio.to_thread(list_files, state.root, state.walk_options)

    async def search(self, query: str) -> Hits:
        query = query.strip()
        if not query or not self._files or not self._opens_files():
            return
        folded = query.lower()
        matcher = self.matcher(query)
        scored: list[tuple[float, str, str]] = []
        for rel, path in self._files:
            if not _in_order(folded, rel.lower()):
                continue
            score = matcher.match(rel)
            if score > 0:
                name = rel.rsplit("/", 1)[-1].lower()
                # A match on the file's own name beats one spread over its folders.
                bonus = 1.0 if folded in name else 0.5 if _in_order(folded, name) else 0.0
                scored.append((score + bonus, rel, path))
        scored.sort(key=lambda hit: (-hit[0], len(hit[1]), hit[1]))
        for score, rel, path in scored[:MAX_HITS]:
            yield Hit(min(score / 2, 1.0), highlighted(matcher, rel), partial(self._open, path), text=rel,
                      help="open this file")

    def _opens_files(self) -> bool:
        """Files open only in the explorer's main screen (a tool screen shows its own file)."""
        return isinstance(self.screen, ShowsFiles)

    def _open(self, path: str) -> None:
        screen = self.screen
        if isinstance(screen, ShowsFiles):
            screen.reveal_file(path)
            screen.focus_source()
        self.app.post_message(FileChosen(path))
