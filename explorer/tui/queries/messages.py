"""Messages of a retrieval evaluation run in a worker (past-tense facts, stamped with a generation)."""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message

from .model import RetrievalRun, RunProgress


@dataclass
class RetrievalProgressed(Message):
    progress: RunProgress
    generation: int

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, RetrievalProgressed)


@dataclass
class RetrievalEvaluated(Message):
    """An evaluation finished: the run has every setting scored."""

    run: RetrievalRun
    generation: int


@dataclass
class RetrievalFailed(Message):
    reason: str
    generation: int
