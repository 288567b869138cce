"""Messages of teach mode (past-tense facts, as in ``explorer.tui.messages``)."""

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


@dataclass
class TimelinePicked(Message):
    """A step was clicked on the timeline."""

    index: int
