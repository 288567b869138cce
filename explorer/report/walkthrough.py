"""Teach's steps for one file, ready for a page to replay: the source cut into segments at
every edge a step mentions, and each step as indices into those segments.

The page then never measures text: a step's piece, its window and the chunks done so far
are runs of whole segments, so the browser's UTF-16 strings and the engine's byte offsets
never meet.
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass
from typing import Any

from ..engine.api import parse
from ..engine.model import Range
from ..engine.options import ChunkOptions
from ..engine.trace import ACTION_LABELS, TraceStep, trace_parsed


@dataclass(frozen=True, slots=True)
class Walkthrough:
    """A file's trace as the page plays it."""

    path: str
    language: str | None
    options: ChunkOptions
    segments: list[str]
    steps: list[dict[str, Any]]
    chunks: list[tuple[int, int]]  # segment ranges of the chunks, in order

    @property
    def source(self) -> str:
        return "".join(self.segments)

    def to_json(self) -> dict[str, Any]:
        return {"segments": self.segments, "steps": self.steps, "chunks": self.chunks,
                "limit": self.options.max_size, "unit": self.options.size_unit}


def build_walkthrough(path: str, name: str, data: bytes, options: ChunkOptions) -> Walkthrough:
    """Trace ``data`` (the file at ``path``, shown as ``name``) under ``options``."""
    parsed = parse(path, data, options)
    steps = list(trace_parsed(parsed, options))
    source = parsed.source
    edges = {0, len(source.data)}
    for step in steps:
        for found in (step.piece, step.window, step.chunk):
            if found is not None:
                edges.update((found.start, found.end))
    cuts = sorted(edges)
    chars = [source.char_offset(byte) for byte in cuts]
    text = source.text
    segments = [text[a:b] for a, b in zip(chars, chars[1:])]

    def span(found: Range | None) -> list[int] | None:
        return None if found is None else [bisect_left(cuts, found.start), bisect_left(cuts, found.end)]

    played, chunks, done = [], [], 0
    for step in steps:
        if step.chunk is not None:
            done += 1
            chunks.append(tuple(span(step.chunk) or (0, 0)))
        played.append(_step(step, span, done))
    return Walkthrough(name, parsed.language, options, segments, played, chunks)  # type: ignore[arg-type]


def _step(step: TraceStep, span: Any, done: int) -> dict[str, Any]:
    return {
        "n": step.number, "action": ACTION_LABELS.get(step.action, step.action), "sentence": step.sentence,
        "piece": span(step.piece), "window": span(step.window), "windowSize": step.window_size,
        "limit": step.limit, "done": done,
    }
