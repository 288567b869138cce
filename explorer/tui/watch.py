"""Watching the explored directory: what changes on disk, reported to the app as it happens.

watchfiles reports a batch of changes once the directory has been quiet for
:data:`WATCH_DEBOUNCE_MS`. When the directory itself is removed the watch dies with
it: it is watched again once the directory is back, and only once that new watch is
set up is the folder reported back (a change made in between is then listed again by
the app, not lost). :class:`WatchStarted` says when changes start being seen.
What a batch means for the explorer (reload the open file, list folders again, read
the ignore rules again) is for the app's handler to decide; the message says what
it touched.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from contextlib import aclosing
from dataclasses import dataclass

from textual.message import Message

#: Milliseconds watchfiles waits for more changes before reporting (its default, 1600, feels stale).
WATCH_DEBOUNCE_MS = 150
#: Seconds between looks for the explored folder to come back after it was removed.
ROOT_POLL_SECONDS = 0.5
#: Milliseconds a quiet watch waits before yielding nothing: its first yield, changes or
#: not, is the sign that the watch is set up (watchfiles gives no other).
READY_MS = 250


class WatchStarted(Message):
    """The watch on the explored directory is set up: every change from now on is reported."""


@dataclass
class FilesChangedOnDisk(Message):
    """watchfiles saw changes under the explored directory: (change name, path) pairs."""

    changes: list[tuple[str, str]]

    def touches(self, path: str) -> bool:
        """Whether ``path`` changed, or a folder holding it did."""
        path = os.path.abspath(path)
        return any(path == other or path.startswith(other.rstrip(os.sep) + os.sep) for other in self.paths())

    def ignore_rules_changed(self) -> bool:
        """Whether a .gitignore was among the changes."""
        return any(os.path.basename(path) == ".gitignore" for path in self.paths())

    def folders_to_list(self, root: str) -> set[str]:
        """The folders whose entries changed (a file added or deleted), and ``root`` if it
        was itself removed or is back."""
        folders = {os.path.dirname(path) for change, path in self.changes if change in ("added", "deleted")}
        if os.path.abspath(root) in self.paths():
            folders.add(root)
        return folders

    def paths(self) -> set[str]:
        """The paths that changed, absolute."""
        return {os.path.abspath(path) for _, path in self.changes}


async def watch_directory(root: str, post: Callable[[Message], object]) -> None:
    """Post a :class:`FilesChangedOnDisk` for every batch of changes under ``root``, until
    cancelled; raises when the directory cannot be watched (the inotify watch limit, say)."""
    from watchfiles import DefaultFilter, awatch

    back = False
    while True:
        watcher = awatch(root, debounce=WATCH_DEBOUNCE_MS, step=50, rust_timeout=READY_MS,
                         yield_on_timeout=True, watch_filter=DefaultFilter())
        started = False
        async with aclosing(watcher):
            async for changes in watcher:
                if not started:
                    started = True
                    post(WatchStarted())
                    if back:  # what was written while nothing watched is only seen by listing again
                        post(FilesChangedOnDisk([("added", root)]))
                reported = sorted((change.name, path) for change, path in changes)
                if reported:
                    post(FilesChangedOnDisk(reported))
                if ("deleted", root) in reported or not os.path.isdir(root):
                    # The watch died with the folder: watch again once it is back. A folder
                    # made again at once is there already, often with the same inode number.
                    if ("deleted", root) not in reported:
                        # Gone between two looks: its own event dies unreported with the watch.
                        post(FilesChangedOnDisk([("deleted", root)]))
                    break
        while not os.path.isdir(root):
            await asyncio.sleep(ROOT_POLL_SECONDS)
        back = True
