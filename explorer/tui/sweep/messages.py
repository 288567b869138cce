"""What the sweep's worker reports (past-tense facts; the end of a run is stamped with its generation)."""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message

from explorer.engine.measure.sweep import SweepResult


@dataclass
class SweepProgressed(Message):
    """``done`` of ``total`` files measured."""

    done: int
    total: int

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, SweepProgressed)


@dataclass
class SweepFinished(Message):
    """Every setting was measured over the directory."""

    result: SweepResult
    generation: int


@dataclass
class SweepFailed(Message):
    reason: str
    generation: int
