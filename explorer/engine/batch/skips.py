"""Inputs left out of a run, and why: the walk's records (a file too large, ignored,
of an unknown language; ``explorer.workspace.walk.Skipped``) and the batch's files found
binary or undecodable while chunking (:class:`SkippedInput`) fit one protocol, give one
of the :class:`SkipReason` codes, and summaries count them with :func:`count_reasons`."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol


class SkipReason(StrEnum):
    """Why an input was left out: a stable code (the JSON outputs write it as the plain
    string, ``"too-large"``) with its wording for people (:attr:`wording`)."""

    GITIGNORED = "gitignored"
    EXCLUDED_DIR = "excluded-dir"
    ENVIRONMENT = "environment"
    EXCLUDED = "excluded"
    NOT_INCLUDED = "not-included"
    UNKNOWN_LANGUAGE = "unknown-language"
    TOO_LARGE = "too-large"
    SYMLINK_LOOP = "symlink-loop"
    OUTSIDE_ROOT = "outside-root"
    LINKED_DIR = "linked-dir"
    BROKEN_SYMLINK = "broken-symlink"
    UNREADABLE = "unreadable"
    NOT_REGULAR = "not-regular"
    BINARY = "binary"
    UNDECODABLE = "undecodable"
    SETTINGS = "settings-file"

    @property
    def wording(self) -> str:
        return _WORDING[self]


_WORDING = {
    SkipReason.GITIGNORED: "ignored by .gitignore",
    SkipReason.EXCLUDED_DIR: "dependency, cache or build directory",
    SkipReason.ENVIRONMENT: "virtual environment",
    SkipReason.EXCLUDED: "matched --exclude",
    SkipReason.NOT_INCLUDED: "not matched by --include",
    SkipReason.UNKNOWN_LANGUAGE: "unknown language",
    SkipReason.TOO_LARGE: "larger than --max-file-size",
    SkipReason.SYMLINK_LOOP: "symbolic link loop",
    SkipReason.OUTSIDE_ROOT: "symbolic link leading outside the root (see --follow-symlinks)",
    SkipReason.LINKED_DIR: "symbolic link to a directory inside the root (listed under its own name)",
    SkipReason.BROKEN_SYMLINK: "broken symbolic link",
    SkipReason.UNREADABLE: "unreadable",
    SkipReason.NOT_REGULAR: "not a regular file",
    SkipReason.BINARY: "binary",
    SkipReason.UNDECODABLE: "not valid UTF-8",
    SkipReason.SETTINGS: "the settings file (never chunked)",
}


class SkipRecord(Protocol):
    """An input left out, and why: the walk's records (``workspace.walk.Skipped``) and
    the engine's :class:`SkippedInput` both fit."""

    @property
    def path(self) -> str: ...

    @property
    def reason(self) -> SkipReason: ...

    def to_dict(self) -> dict[str, object]: ...


@dataclass(frozen=True, slots=True)
class SkippedInput:
    """An input found binary or undecodable while chunking: skipped, not failed."""

    path: str
    reason: SkipReason  # BINARY or UNDECODABLE
    detail: str = ""

    @classmethod
    def not_text(cls, path: str, error_kind: str | None, detail: str | None = None) -> SkippedInput:
        """The record of a batch result whose ``error_kind`` says it is not text."""
        return cls(path, SkipReason(error_kind or SkipReason.BINARY), detail or "")

    def to_dict(self) -> dict[str, object]:
        record: dict[str, object] = {"path": self.path, "reason": self.reason}
        if self.detail:
            record["detail"] = self.detail
        return record


def count_reasons(skipped: Iterable[SkipRecord]) -> dict[SkipReason, int]:
    """How many inputs were left out for each reason, the most frequent first (then by name)."""
    counts: dict[SkipReason, int] = {}
    for record in skipped:
        counts[record.reason] = counts.get(record.reason, 0) + 1
    return dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))
