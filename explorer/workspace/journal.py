"""The journal of the runs on a state file: before a run emits a file's upserts and
deletes, it appends that file's path and the ids it is about to emit to ``STATE.journal``.

The state is replaced only once a run's whole output is out; a run killed before that
may have had part of its output applied to the index. Its journal then says which files'
chunks the index may hold in another version than the state says: the next run sends
every chunk of those files again and deletes every journaled id they no longer make,
whatever the tree became meanwhile. The journal is removed once the state is committed.

One JSON object a line: a run opens its part with ``{"format": "chunk-explorer-journal",
"version": 1}``, then one ``{"path": ..., "ids": [...]}`` per file (``path`` ``""`` for ids
no file makes, as the deletes of ``--reconcile``). Runs killed one after another append
to the same journal. Each line is written with one ``write`` before the records it
names: a killed run leaves at most a torn last line, whose records were never emitted.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Sequence

from ..engine.files import UnreadableFileError, read_regular_file

__all__ = ["JOURNAL_FORMAT", "JOURNAL_VERSION", "NO_PATH", "Journal", "JournalError", "journal_path",
           "read_journal"]

JOURNAL_FORMAT = "chunk-explorer-journal"
JOURNAL_VERSION = 1
#: The path under which ids that no file makes are journaled.
NO_PATH = ""
#: A journal larger than this is refused rather than read.
JOURNAL_MAX_BYTES = 1 << 30
_HEADER = json.dumps({"format": JOURNAL_FORMAT, "version": JOURNAL_VERSION}).encode() + b"\n"


class JournalError(ValueError):
    """The journal left by an unfinished run cannot be read; the message says why."""


def journal_path(state_path: str) -> str:
    return state_path + ".journal"


def read_journal(path: str) -> dict[str, set[str]]:
    """The ids each path's entries name in the journal at ``path`` (empty without one).
    Raises :class:`JournalError` when it cannot be read or is not a journal."""
    try:
        raw = read_regular_file(path, JOURNAL_MAX_BYTES)
    except FileNotFoundError:
        return {}
    except UnreadableFileError as exc:
        if exc.reason == "not found":
            return {}
        raise JournalError(f"cannot read journal {path}: {exc.reason}") from None
    except OSError as exc:
        raise JournalError(f"cannot read journal {path}: {exc.strerror or exc}") from None
    found: dict[str, set[str]] = {}
    lines = raw.split(b"\n")
    # The last piece: empty after a final newline, else a line torn by a kill (its records were
    # never emitted: the line is written before them).
    for number, line in enumerate(lines[:-1], 1):
        try:
            entry = json.loads(line.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            entry = None
        if number == 1 and not (isinstance(entry, dict) and entry.get("format") == JOURNAL_FORMAT):
            raise JournalError(f"{path} is not a chunk-explorer journal")
        if isinstance(entry, dict) and entry.get("format") == JOURNAL_FORMAT:
            if entry.get("version") != JOURNAL_VERSION:
                raise JournalError(f"journal {path} has version {entry.get('version')!r}, this chunk-explorer "
                                   f"reads version {JOURNAL_VERSION}")
            continue
        ids = entry.get("ids") if isinstance(entry, dict) else None
        rel = entry.get("path") if isinstance(entry, dict) else None
        if not (isinstance(rel, str) and isinstance(ids, list) and all(isinstance(i, str) for i in ids)):
            raise JournalError(f"journal {path} is corrupt (line {number})")
        found.setdefault(rel, set()).update(ids)
    return found


class Journal:
    """The journal a run appends to; the file is made at the first entry (a run that
    emits nothing leaves none)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._fd: int | None = None

    def add(self, rel: str, ids: Sequence[str]) -> None:
        """Record that the records of ``ids`` (of file ``rel``) are about to be emitted."""
        line = json.dumps({"path": rel, "ids": list(ids)}).encode("ascii")  # a name's escaped bytes stay escapes
        if self._fd is None:
            try:
                self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o666)
            except OSError as exc:
                raise JournalError(f"cannot write journal {self.path}: {exc.strerror or exc}") from None
            line = _HEADER + line
        self._write(line + b"\n")

    def _write(self, data: bytes) -> None:
        assert self._fd is not None
        try:
            # One write for the line (the kernel takes it whole unless the disk is full): a
            # SIGKILL lands before or after it, never inside.
            view = memoryview(data)
            while view:
                view = view[os.write(self._fd, view):]
        except OSError as exc:
            raise JournalError(f"cannot write journal {self.path}: {exc.strerror or exc}") from None

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def remove(self) -> None:
        """The state holds everything now: the journal of this run (and of the unfinished
        runs before it) is done with."""
        self.close()
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.path)
