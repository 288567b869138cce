"""The chunker explaining itself: every decision of a run, in order, in plain sentences.

``trace()`` runs the same algorithm as ``chunk()`` with a hook and turns each
decision into a :class:`TraceStep`. ``replay()`` rebuilds the chunk ranges from
the steps alone (window opened, grown, closed), so a trace can be checked
against ``chunk()``.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from .api import parse
from .chunker import Piece, iter_spans
from .kinds import ATTACH_FORWARD, is_comment
from .model import Range
from .options import ChunkOptions
from .parse import ParsedFile

#: Step kinds, in the order a teacher meets them.
ACTIONS = (
    "parse", "keep_together", "add", "close", "open", "keep_header", "open_body", "descend", "separate",
    "split_lines", "split_chars", "emit_chars", "finish", "done",
)
#: How each action is named where a trace is shown (teach mode, the report's walkthrough).
ACTION_LABELS = {
    "parse": "parse", "keep_together": "keep together", "add": "add", "close": "close chunk",
    "open": "open window", "keep_header": "keep header with body", "open_body": "open body",
    "descend": "descend", "separate": "separate", "split_lines": "split at lines",
    "split_chars": "split at characters", "emit_chars": "emit part", "finish": "finish", "done": "done",
}


@dataclass(frozen=True, slots=True)
class TraceStep:
    number: int
    action: str
    sentence: str
    piece: Range | None = None  # the bytes under consideration
    node_types: tuple[str, ...] = ()
    piece_size: int | None = None
    window: Range | None = None  # the window being built, after this step
    window_size: int | None = None
    limit: int = 0
    chunk: Range | None = None  # the chunk this step completes, if any
    chunk_index: int | None = None
    parts: tuple[Range, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        def rng(r: Range | None) -> dict[str, int] | None:
            return r.to_dict() if r else None

        return {
            "number": self.number, "action": self.action, "sentence": self.sentence,
            "piece": rng(self.piece), "nodeTypes": list(self.node_types), "pieceSize": self.piece_size,
            "window": rng(self.window), "windowSize": self.window_size, "limit": self.limit,
            "chunk": rng(self.chunk), "chunkIndex": self.chunk_index,
            "parts": [p.to_dict() for p in self.parts],
        }


def trace(filepath: str | None, code: str | bytes, **options: Any) -> Iterator[TraceStep]:
    """Yield the steps of chunking ``code`` with these options."""
    opts = ChunkOptions.build(None, **options)
    yield from trace_parsed(parse(filepath, code, opts), opts)


def trace_parsed(parsed: ParsedFile, options: ChunkOptions) -> Iterator[TraceStep]:
    narrator = _Narrator(parsed, options)
    yield narrator.parse_step()
    for _ in iter_spans(parsed, options, narrator.hook):
        yield from narrator.drain()
    yield from narrator.drain()
    yield narrator.done_step()


def replay(steps: list[TraceStep] | Iterator[TraceStep]) -> list[Range]:
    """The chunk ranges implied by the window moves of a trace."""
    chunks: list[Range] = []
    window: Range | None = None
    for step in steps:
        if step.action == "open":
            window = step.piece
        elif step.action == "add" and window and step.piece:
            window = Range(window.start, step.piece.end)
        elif step.action == "close" and window and step.piece:
            chunks.append(Range(window.start, step.piece.start))
            window = None
        elif step.action == "keep_header" and window and step.piece:
            chunks.append(Range(window.start, step.piece.start))  # closed before the header,
            window = step.piece  # which opens the next window
        elif step.action == "emit_chars" and step.piece:
            chunks.append(step.piece)
        elif step.action == "finish" and window:
            chunks.append(Range(window.start, step.piece.start if step.piece else window.end))
            window = None
    return chunks


class _Narrator:
    """Turns chunker hook calls into TraceSteps with sizes and sentences."""

    def __init__(self, parsed: ParsedFile, options: ChunkOptions):
        self.parsed = parsed
        self.src = parsed.source
        self.size = options.measure.sizer(self.src)
        self.unit = options.size_unit
        self.limit = options.max_size
        self.pending: list[TraceStep] = []
        self.number = 0
        self.chunks = 0
        self.window: Range | None = None

    # -- helpers ------------------------------------------------------------------
    def _step(self, action: str, sentence: str, piece: Piece | None = None, **extra: Any) -> TraceStep:
        self.number += 1
        window_size = self.size(self.window.start, self.window.end) if self.window else None
        step = TraceStep(
            number=self.number, action=action, sentence=sentence,
            piece=Range(piece.start, piece.end) if piece else None,
            node_types=tuple(n.type for n in piece.nodes) if piece and piece.nodes else (),
            piece_size=self.size(piece.start, piece.end) if piece else None,
            window=self.window, window_size=window_size, limit=self.limit, **extra,
        )
        self.pending.append(step)
        return step

    def _what(self, piece: Piece) -> str:
        # The lines the code shows it on (its trailing blank lines are not counted).
        first, last = self.src.shown_line_range(piece.start, piece.end)
        lines = f"line {first + 1}" if first == last else f"lines {first + 1}-{last + 1}"
        if piece.nodes:
            kinds = [n.type if n.is_named else repr(n.type) for n in piece.nodes]
            label = kinds[0] if len(kinds) == 1 else " + ".join(kinds[:3]) + (" + ..." if len(kinds) > 3 else "")
        elif self.parsed.tree is None:
            label = "lines"  # a file without a syntax tree is packed line by line
        elif not self.src.data[piece.start:piece.end].strip():
            label = "blank lines"  # set apart after a definition
        else:  # a stretch with no node of its own: part of a line too long for the limit
            label = "part of a long line" if first == last else "long lines"
        return f"`{label}` ({lines}, {self.size(piece.start, piece.end):,} {self.unit})"

    def _of_limit(self, value: int) -> str:
        return f"{value:,}/{self.limit:,} {self.unit}"

    def drain(self) -> Iterator[TraceStep]:
        steps, self.pending = self.pending, []
        yield from steps

    # -- steps ---------------------------------------------------------------------
    def parse_step(self) -> TraceStep:
        p, src = self.parsed, self.src
        if p.tree is None:
            why = p.fallback or "no tree"
            sentence = f"No syntax tree ({why}): the file is packed line by line, {src.line_count:,} lines."
        else:
            count = p.tree.root_node.descendant_count
            errors = " It has syntax errors; chunking uses the recovered tree." if p.parse_error else ""
            sentence = f"Parsed {src.line_count:,} lines of {p.language} into a tree of {count:,} nodes.{errors}"
        sentence += f" Limit: {self.limit:,} {self.unit} per chunk."
        step = self._step("parse", sentence)
        self.pending.clear()
        return step

    def done_step(self) -> TraceStep:
        return self._flush_one("done", f"Done: {self.chunks} chunk{'s' if self.chunks != 1 else ''}.")

    def _flush_one(self, action: str, sentence: str) -> TraceStep:
        step = self._step(action, sentence)
        self.pending.clear()
        return step

    def hook(self, action: str, piece: Piece, win_start: int | None, parts: list[Piece] | None) -> None:
        getattr(self, f"_on_{action}")(piece, win_start, parts)

    def _keep_together(self, piece: Piece) -> None:
        nodes = piece.nodes or ()
        lead = [n for n in nodes if n.is_named and (is_comment(n.type) or n.type in ATTACH_FORWARD)]
        core = [n for n in nodes if n.is_named and n not in lead]
        if lead and core and len(nodes) > 1 and nodes[0] in lead:
            kinds = ", ".join(sorted({n.type for n in lead}))
            self._step("keep_together", f"The {kinds} above `{core[0].type}` stays in the same piece as it.", piece)

    def _on_add(self, piece: Piece, win_start: int | None, parts: Any) -> None:
        self._keep_together(piece)
        assert win_start is not None
        self.window = Range(win_start, piece.end)
        grown = self.size(win_start, piece.end)
        self._step("add", f"{self._what(piece)} fits: the window grows to {self._of_limit(grown)}.", piece)

    def _on_close(self, piece: Piece, win_start: int | None, parts: Any) -> None:
        assert win_start is not None
        closed = Range(win_start, piece.start)
        self.window = None
        would = self.size(win_start, piece.end)
        sentence = (
            f"Adding {self._what(piece)} would make the window {would:,} > {self.limit:,}: "
            f"chunk {self.chunks + 1} is closed ({self._of_limit(self.size(closed.start, closed.end))})."
        )
        self._step("close", sentence, piece, chunk=closed, chunk_index=self.chunks)
        self.chunks += 1

    def _on_open(self, piece: Piece, win_start: int | None, parts: Any) -> None:
        self._keep_together(piece)
        self.window = Range(piece.start, piece.end)
        self._step("open", f"{self._what(piece)} starts a new window: {self._of_limit(self.size(piece.start, piece.end))}.", piece)

    def _on_keep_header(self, piece: Piece, win_start: int | None, parts: Any) -> None:
        assert win_start is not None
        closed = Range(win_start, piece.start)
        first, last = self.src.shown_line_range(piece.start, piece.end)
        lines = f"line {first + 1}" if first == last else f"lines {first + 1}-{last + 1}"
        self.window = Range(piece.start, piece.end)
        sentence = (
            f"The window ends with a definition's header ({lines}) and its body does not fit: chunk "
            f"{self.chunks + 1} is closed before the header ({self._of_limit(self.size(closed.start, closed.end))}), "
            f"and the header opens the next window, to be followed by its body."
        )
        self._step("keep_header", sentence, piece, chunk=closed, chunk_index=self.chunks)
        self.chunks += 1

    def _on_open_body(self, piece: Piece, win_start: int | None, parts: list[Piece] | None) -> None:
        n = len(parts or ())
        self._step(
            "open_body", f"The window holds only a definition's header, and {self._what(piece)} does not fit "
            f"with it: it is opened so that its first part joins the header ({n} parts).", piece,
            parts=tuple(Range(p.start, p.end) for p in parts or ()),
        )

    def _expanded(self, action: str, piece: Piece, parts: list[Piece] | None, how: str) -> None:
        n = len(parts or ())
        self._step(
            action, f"{self._what(piece)} is bigger than the limit on its own: {how} ({n} parts).", piece,
            parts=tuple(Range(p.start, p.end) for p in parts or ()),
        )

    def _on_descend(self, piece: Piece, win_start: int | None, parts: list[Piece] | None) -> None:
        self._expanded("descend", piece, parts, "look at its children instead")

    def _on_separate(self, piece: Piece, win_start: int | None, parts: list[Piece] | None) -> None:
        if parts and parts[-1].nodes is None:
            self._expanded("separate", piece, parts, "set the blank lines after it apart")
        else:
            self._expanded("separate", piece, parts, "take its nodes one at a time")

    def _on_split_lines(self, piece: Piece, win_start: int | None, parts: list[Piece] | None) -> None:
        self._expanded("split_lines", piece, parts, "it is one token, so cut it at line boundaries")

    def _on_split_chars(self, piece: Piece, win_start: int | None, parts: list[Piece] | None) -> None:
        line = self.src.shown_line_range(piece.start, piece.end)[1] + 1
        n = len(parts or ())
        self._step(
            "split_chars",
            f"Line {line:,} is longer than the limit ({self.size(piece.start, piece.end):,} {self.unit} with what "
            f"the window holds of it): it is cut at character boundaries ({n} parts).",
            piece, parts=tuple(Range(p.start, p.end) for p in parts or ()),
        )

    def _on_emit_chars(self, piece: Piece, win_start: int | None, parts: Any) -> None:
        chunk = Range(piece.start, piece.end)
        self.window = None
        self._step(
            "emit_chars", f"A part of the line up to the limit becomes chunk {self.chunks + 1} "
            f"({self._of_limit(self.size(piece.start, piece.end))}).", piece, chunk=chunk, chunk_index=self.chunks,
        )
        self.chunks += 1

    def _on_finish(self, piece: Piece, win_start: int | None, parts: Any) -> None:
        assert win_start is not None
        chunk = Range(win_start, piece.start)
        self.window = None
        self._step(
            "finish", f"End of file: the open window becomes chunk {self.chunks + 1} "
            f"({self._of_limit(self.size(chunk.start, chunk.end))}).", piece, chunk=chunk, chunk_index=self.chunks,
        )
        self.chunks += 1
