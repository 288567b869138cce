"""What teach mode plays: a chunking run's trace, computed once, then navigated.

Pure data and functions, no Textual: the worker builds a :class:`TraceRun` off the
UI thread (every step in a list, a big file has thousands), and the screen only
moves an index through it.
"""

from __future__ import annotations

import re
import time
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field, replace

from tree_sitter import Node

from explorer.engine.api import chunk_parsed
from explorer.engine.cancel import Cancelled, ShouldStop
from explorer.engine.model import Chunk
from explorer.engine.options import ChunkOptions
from explorer.engine.parse import ParsedFile, parse_source
from explorer.engine.text import WHITESPACE
from explorer.engine.trace import TraceStep, trace_parsed

from ..document.load import structure_of
from ..document.model import Chunking, ChunkLayout, ChunkStats, LoadedFile, needs_reparse

#: The kinds of decision ``[`` / ``]`` jump between: name -> (actions, what the footer says).
DECISION_KINDS: dict[str, tuple[frozenset[str], str]] = {
    "decision": (frozenset({"close", "open", "descend", "separate", "split_lines", "split_chars",
                            "emit_chars", "keep_together", "finish"}), "any decision"),
    "close": (frozenset({"close", "emit_chars", "finish"}), "a chunk is closed"),
    "descend": (frozenset({"descend", "separate"}), "an oversized node is opened up"),
    "split": (frozenset({"split_lines", "split_chars", "emit_chars"}), "a token is cut"),
    "keep_together": (frozenset({"keep_together"}), "a comment stays with its definition"),
}
KIND_ORDER = tuple(DECISION_KINDS)

_NON_SPACE = re.compile(b"[^" + re.escape(WHITESPACE) + b"]")

#: Play speeds in steps per second (f / s move along them).
SPEEDS = (0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0)
DEFAULT_SPEED = 2


@dataclass(frozen=True, slots=True, eq=False)
class TraceRun:
    """Every step of chunking one file with one set of options, and the chunks it makes."""

    file: LoadedFile
    options: ChunkOptions
    steps: tuple[TraceStep, ...]
    chunks: tuple[Chunk, ...]
    #: Chunks completed after each step (steps[i] leaves done[i] chunks behind it).
    done: tuple[int, ...]
    seconds: float
    #: Step indices per decision kind, ascending (for jumps).
    by_kind: dict[str, tuple[int, ...]] = field(default_factory=dict)
    _chunkings: dict[int, Chunking] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.steps)

    def chunking_at(self, index: int) -> Chunking:
        """The chunks completed once step ``index`` has happened, as the source view shows them."""
        count = self.done[index]
        chunking = self._chunkings.get(count)
        if chunking is None:
            chunks = self.chunks[:count]
            chunking = Chunking(self.options, chunks, ChunkLayout.of(chunks, self.file.source),
                                ChunkStats.of(chunks, self.options), 0.0)
            if len(self._chunkings) > 64:  # a long play through a big file: keep memory bounded
                self._chunkings.clear()
            self._chunkings[count] = chunking
        return chunking

    def jump(self, index: int, kind: str, direction: int) -> int | None:
        """The next (direction 1) or previous (-1) step of a decision kind from ``index``, if any."""
        found = self.by_kind.get(kind, ())
        if direction > 0:
            k = bisect_right(found, index)
            return found[k] if k < len(found) else None
        k = bisect_left(found, index) - 1
        return found[k] if k >= 0 else None


#: Steps that open up a piece too big on its own rather than place it (a node inside
#: such a piece is not met yet; the piece is painted in the "too big" colour).
EXPANSIONS = frozenset({"descend", "separate", "split_lines", "split_chars"})


def first_step_about(run: TraceRun, start: int, end: int) -> int | None:
    """The first step that meets the node at [start, end) (one picked in the tree): the
    step placing a piece that holds it, or opening up the node itself."""
    for index, step in enumerate(run.steps):
        piece = step.piece
        if piece is None or step.action == "finish" or not (piece.start <= start and end <= piece.end):
            continue
        if step.action not in EXPANSIONS:
            return index
        node = node_for_step(run.file.parsed, step)
        if node is not None and (node.start_byte, node.end_byte) == (start, end):
            return index
    return None


def step_near(run: TraceRun, byte: int) -> int:
    """The first step placing a piece that starts at or after ``byte`` (the run at the same
    place in the file), else the last step: where to stay when the parameters change."""
    for index, step in enumerate(run.steps):
        if step.piece is not None and step.action != "finish" and step.piece.start >= byte:
            return index
    return max(0, len(run.steps) - 1)


def compute_run(
    file: LoadedFile, options: ChunkOptions, should_stop: ShouldStop = lambda: False
) -> TraceRun:
    """Trace and chunk a loaded file (parsing again only for another language or strategy)."""
    started = time.perf_counter()
    if needs_reparse(file.parse_options, options):
        parsed = parse_source(file.source, file.parsed.path, options.language, strategy=options.strategy)
        file = replace(file, parsed=parsed, structure=structure_of(parsed), parse_options=options)
    steps: list[TraceStep] = []
    for step in trace_parsed(file.parsed, options):
        steps.append(step)
        if len(steps) % 512 == 0 and should_stop():
            raise Cancelled  # superseded while it was being computed
    chunks = tuple(chunk_parsed(file.parsed, options, structure=file.structure))
    done, count = [], 0
    for step in steps:
        if step.chunk is not None:
            count += 1
        done.append(count)
    by_kind = {
        kind: tuple(i for i, step in enumerate(steps) if step.action in actions)
        for kind, (actions, _) in DECISION_KINDS.items()
    }
    return TraceRun(file, options, tuple(steps), chunks, tuple(done), time.perf_counter() - started, by_kind)


def node_for_step(parsed: ParsedFile, step: TraceStep) -> Node | None:
    """The syntax node a step is about: the first node of its piece, or for a piece of
    text (a part of a cut token) the innermost named node holding its last character
    (a character split's piece may begin with the open window; its end is in the token)."""
    root = parsed.root
    if root is None or step.piece is None:
        return None
    start, end = step.piece.start, step.piece.end
    data = parsed.source.data
    if not step.node_types:
        last = max(start, end - 1)
        while last > start and data[last] in WHITESPACE:
            last -= 1
        return root.named_descendant_for_byte_range(last, last)
    # A piece takes in the whitespace around its nodes: its first node starts at its
    # first non-whitespace byte.
    match = _NON_SPACE.search(data, start, max(start, end))
    first = match.start() if match else start
    wanted = step.node_types[0]
    node = root.descendant_for_byte_range(first, first)
    found = None
    # Up from the innermost node there: the outermost one of the wanted kind that
    # starts there and lies inside the piece.
    while node is not None and node.start_byte == first:
        if node.type == wanted and node.end_byte <= max(end, first + 1):
            found = node
        node = node.parent
    return found or root.named_descendant_for_byte_range(start, max(start, end))
