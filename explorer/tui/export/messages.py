"""What the export workers report to the app (past-tense facts)."""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message


@dataclass
class ExportProgressed(Message):
    """``done`` of ``total`` files of a whole-tree export chunked."""

    done: int
    total: int

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, ExportProgressed)


@dataclass
class ExportFinished(Message):
    """The document was written to ``path``."""

    path: str
    files: int
    chunks: int
    failed: int = 0
    #: What the export left out, by reason with names (as the CLI's summary says it).
    skipped: tuple[str, ...] = ()


@dataclass
class ExportFailed(Message):
    """Nothing was written to ``path`` (``reason`` says why and what to do)."""

    path: str
    reason: str
