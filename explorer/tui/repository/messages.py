"""What the repository view's scan reports (past-tense facts, stamped with the scan's generation)."""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message

from .model import ScannedFile


@dataclass
class RepositoryScanned(Message):
    """More files of a scan finished (``done`` of ``total`` so far); ``finished``: the last batch."""

    files: list[ScannedFile]
    failed: list[tuple[str, str]]
    done: int
    total: int
    generation: int
    finished: bool = False


@dataclass
class RepositoryScanFailed(Message):
    """The scan could not run (the directory is gone, bad settings)."""

    reason: str
    generation: int

    @classmethod
    def of(cls, reason: str, generation: int) -> RepositoryScanFailed:
        """The message for a scan that raised (``reason``: what went wrong)."""
        return cls(f"The scan failed: {reason}", generation)
