"""Inputs left out of a run, and why: the walk's records (a file too large, ignored,
of an unknown language; ``explorer.workspace.walk.Skipped``) and the batch's files found
binary or undecodable while chunking (:class:`SkippedInput`) fit one protocol, and
summaries count them with :func:`count_reasons`."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol


class SkipRecord(Protocol):
    """An input left out, and why: the walk's records (``workspace.walk.Skipped``) and
    the engine's :class:`SkippedInput` both fit."""

    @property
    def path(self) -> str: ...

    @property
    def reason(self) -> str: ...

    def to_dict(self) -> dict[str, object]: ...


@dataclass(frozen=True, slots=True)
class SkippedInput:
    """An input found binary or undecodable while chunking: skipped, not failed."""

    path: str
    reason: str  # task.BINARY or task.UNDECODABLE
    detail: str = ""

    def to_dict(self) -> dict[str, object]:
        record: dict[str, object] = {"path": self.path, "reason": self.reason}
        if self.detail:
            record["detail"] = self.detail
        return record


def count_reasons(skipped: Iterable[SkipRecord]) -> dict[str, int]:
    """How many inputs were left out for each reason, the most frequent first (then by name)."""
    counts: dict[str, int] = {}
    for record in skipped:
        counts[record.reason] = counts.get(record.reason, 0) + 1
    return dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))
