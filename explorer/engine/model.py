"""The chunk and its ranges, with code-chunk-compatible JSON."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Range:
    """A half-open range ``[start, end)``, or for lines an inclusive ``[start, end]``."""

    start: int
    end: int

    def to_dict(self) -> dict[str, int]:
        return {"start": self.start, "end": self.end}


@dataclass(slots=True)
class Chunk:
    """One chunk of a file (not frozen: building a frozen one costs twice as much,
    and a batch builds thousands; treat it as a value all the same).

    ``byte_range`` holds true UTF-8 byte offsets and ``char_range`` code-point
    offsets, both end-exclusive; ``line_range`` is 0-based and inclusive, as in
    code-chunk. ``split_start``/``split_end`` say whether the cut at that edge
    had to fall inside a token: ``None`` (between syntax nodes or at a file
    edge), ``"line"`` (inside a token, at a line boundary) or ``"char"``
    (inside a single over-long line).
    """

    text: str
    contextualized_text: str
    byte_range: Range
    char_range: Range
    line_range: Range
    size: int
    size_unit: str
    nws: int
    index: int
    total_chunks: int
    context: dict[str, Any] = field(default_factory=dict)
    split_start: str | None = None
    split_end: str | None = None
    strategy: str = "ast"
    fallback_reason: str | None = None
    overlap_text: str = ""
    #: The size of ``contextualized_text`` (what a pipeline embeds) in ``size_unit``.
    embedded_size: int = -1
    #: With a tokenizer: its name and the token counts of ``text`` and ``contextualized_text``.
    tokenizer: str | None = None
    tokens: int | None = None
    embedded_tokens: int | None = None

    @property
    def forced_split(self) -> bool:
        return self.split_start is not None or self.split_end is not None

    def to_dict(self) -> dict[str, Any]:
        # code-chunk's keys, in its order, then ours.
        return {
            "text": self.text,
            "contextualizedText": self.contextualized_text,
            "byteRange": self.byte_range.to_dict(),
            "lineRange": self.line_range.to_dict(),
            "context": self.context,
            "index": self.index,
            "totalChunks": self.total_chunks,
            "charRange": self.char_range.to_dict(),
            "size": self.size,
            "sizeUnit": self.size_unit,
            "nws": self.nws,
            "forcedSplit": {"start": self.split_start, "end": self.split_end},
            "strategy": self.strategy,
            "fallbackReason": self.fallback_reason,
            "overlapText": self.overlap_text,
            "embeddedSize": self.embedded_size,
            **(
                {"tokenizer": self.tokenizer, "tokens": self.tokens, "embeddedTokens": self.embedded_tokens}
                if self.tokenizer is not None
                else {}
            ),
        }
