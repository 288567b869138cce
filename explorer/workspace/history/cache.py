"""The definitions of file contents already parsed, kept between runs.

Mining a history parses every changed code file as a commit left it; a file's content
never changes under its git id, so its definitions are kept, keyed by that id, the
language it was parsed as and the tool's version (a new engine may find other
definitions). A second evaluation of the same repository, or the explorer evaluating
again, reads the log and parses only the commits that are new.

On disk: a SQLite file (``$XDG_CACHE_HOME/chunk-explorer/history.sqlite`` by default;
atomic writes, safe for concurrent runs), outside the explored repository. A cache that
cannot be opened or read (corrupt, unwritable) is not an error: the run parses what it
needs and says so in its notes.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
from collections.abc import Sequence

from ...engine.retrieval.history import HistoryDefinition
from ..cache_dir import cache_file

#: Memory-only entries kept for the life of the process, at most.
_MEMORY_AT_MOST = 100_000
_MEMORY: dict[tuple[str, str, str], list[HistoryDefinition]] = {}


def default_cache_path() -> str | None:
    """``$XDG_CACHE_HOME/chunk-explorer/history.sqlite`` (``~/.cache`` when unset); None when
    the disk cache is off (:mod:`..cache_dir`)."""
    return cache_file("history.sqlite")


class DefinitionCache:
    """Definitions by ``(blob id, language, version)``: in this process always, on disk at
    ``path`` unless it is None. ``problem`` says why the disk part is off, if it is."""

    def __init__(self, path: str | None, version: str):
        self.version = version
        self.problem: str | None = None
        self._db: sqlite3.Connection | None = None
        if path is None:
            return
        try:
            os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
            self._db = sqlite3.connect(path, timeout=5, check_same_thread=False)
            self._db.execute("CREATE TABLE IF NOT EXISTS definitions (blob TEXT, language TEXT, version TEXT, "
                             "found TEXT NOT NULL, PRIMARY KEY (blob, language, version))")
        except (OSError, sqlite3.Error) as exc:
            self._off(path, exc)

    def _off(self, path: str | None, exc: Exception) -> None:
        self.problem = f"the history cache {path or ''} is not used ({exc}); every changed file is parsed"
        if self._db is not None:
            with contextlib.suppress(sqlite3.Error):
                self._db.close()
        self._db = None

    def get_many(self, keys: Sequence[tuple[str, str]]) -> dict[tuple[str, str], list[HistoryDefinition]]:
        """What is known of ``(blob, language)`` keys."""
        found: dict[tuple[str, str], list[HistoryDefinition]] = {}
        missing = []
        for blob, language in keys:
            known = _MEMORY.get((blob, language, self.version))
            if known is not None:
                found[(blob, language)] = known
            else:
                missing.append((blob, language))
        if self._db is None or not missing:
            return found
        try:
            for start in range(0, len(missing), 400):
                part = missing[start:start + 400]
                marks = ",".join("(?, ?)" for _ in part)
                rows = self._db.execute(
                    f"SELECT blob, language, found FROM definitions WHERE version = ? AND (blob, language) IN "
                    f"(VALUES {marks})", [self.version, *(v for key in part for v in key)]).fetchall()
                for blob, language, text in rows:
                    definitions = [HistoryDefinition(*row) for row in json.loads(text)]
                    found[(blob, language)] = definitions
                    _keep((blob, language, self.version), definitions)
        except (sqlite3.Error, ValueError, TypeError) as exc:
            self._off(None, exc)
        return found

    def put_many(self, items: Sequence[tuple[tuple[str, str], list[HistoryDefinition]]]) -> None:
        for (blob, language), definitions in items:
            _keep((blob, language, self.version), definitions)
        if self._db is None or not items:
            return
        rows = [(blob, language, self.version, json.dumps([
            [d.name, d.kind, d.line_start, d.line_end, d.start, d.end, d.depth, d.has_children] for d in definitions
        ])) for (blob, language), definitions in items]
        try:
            with self._db:
                self._db.executemany("INSERT OR REPLACE INTO definitions VALUES (?, ?, ?, ?)", rows)
        except sqlite3.Error as exc:
            self._off(None, exc)

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None


def forget() -> None:
    """Forget what this process parsed (the disk part stays): the next run starts cold."""
    _MEMORY.clear()


def _keep(key: tuple[str, str, str], definitions: list[HistoryDefinition]) -> None:
    if len(_MEMORY) >= _MEMORY_AT_MOST:
        _MEMORY.pop(next(iter(_MEMORY)))
    _MEMORY[key] = definitions
