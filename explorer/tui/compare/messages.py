"""What the compare view's worker reports (past-tense facts, stamped with the request's generation)."""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message

from .model import Comparison


@dataclass
class ComparisonReady(Message):
    """Both sides were chunked and measured."""

    comparison: Comparison
    generation: int


@dataclass
class ComparisonFailed(Message):
    reason: str
    generation: int
