"""What teach mode's tracing worker reports (past-tense facts, stamped with the request's generation)."""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message

from .model import TraceRun


@dataclass
class TraceReady(Message):
    """A trace was computed (for the generation of the request it answers)."""

    run: TraceRun
    generation: int


@dataclass
class TraceFailed(Message):
    reason: str
    generation: int
