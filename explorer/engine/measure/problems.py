"""Chunking problems of one file, chunk by chunk: what a reader of the chunks would trip on.

    found = find_problems(parsed, chunks, options)
    for problem in found.problems:
        print(problem.kind, problem.line + 1, problem.detail)

The kinds (:data:`PROBLEM_KINDS`), each located at a byte range of the source and the
chunk it concerns:

* ``too-big``: a definition (function, class, method ...) larger than the room a chunk
  starting on its first line has for code, so no chunk holds it whole: located at the
  definition, in the chunk where it starts. The room is the max size, less the header where
  the limit binds the embedded text (:class:`~explorer.engine.fit.Room`, the chunker's own
  judge); the detail states it. Definitions are those of the quality measures
  (:func:`.quality.definition_spans`, decorators and wrappers included).
* ``split``: a definition that fits that room but that no chunk holds (the chunker
  should never do this).
* ``tiny``: a chunk with fewer than :data:`.quality.TINY_NWS` non-whitespace characters.
* ``dangling``: a chunk whose last token opens something the next chunk continues
  (``=``, ``{``, ``(``, ``[``, ``:`` ..., see :data:`OPENERS`).
* ``closer``: a chunk whose first token closes something opened in an earlier chunk
  (``}``, ``)``, ``]``).
* ``forced``: a chunk edge cut inside a token (``Chunk.split_start`` / ``split_end``).
* ``embedded``: the text that is embedded (``contextualized_text``: context + overlap +
  code) measures more than the max size in the size unit, where the limit binds it
  (:attr:`.ChunkOptions.fit_embedded`; there only code alone too big can cause it). Where the
  limit binds the code only (fit ``text``, the default for nws and chars), a header past it
  is the setting's design, not a fault: it is counted (``FileProblems.embedded_over``) and
  stated once as information (``explorer.display.embedded_line``), never flagged.

Tokens are judged on the syntax tree: an ``=`` at the end of a comment or a string is not
an opener. Files without a tree (chunked by lines) get every check but ``dangling``,
``closer``, ``too-big`` and ``split``. ``dangling`` and ``closer`` are judged in the language
of the code at the chunk's edge: never in prose (:data:`.languages.PROSE_LANGUAGES`, where a
sentence ends on ``.``), and in a container's embedded code (a Markdown fenced block, a
notebook's code cell) by that code's own tree.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from tree_sitter import Node

from ..api import room_for
from ..fit import Room
from ..languages import PROSE_LANGUAGES
from ..model import Chunk
from ..options import ChunkOptions
from ..parse import ParsedFile
from ..text import SourceText
from .quality import TINY_NWS, FileMetrics, Holders, definition_spans

#: Every kind, worst first (the order of the TUI's columns and filters).
PROBLEM_KINDS = ("split", "dangling", "closer", "forced", "too-big", "embedded", "tiny")

#: What each kind weighs in a file's score (worst first = highest score first). A chunk
#: cut mid-expression reads worse than a definition cut between its statements.
WEIGHTS = {"split": 5, "dangling": 3, "closer": 3, "forced": 3, "too-big": 2, "embedded": 1, "tiny": 1}

#: What each kind means, in a few words (legends, help, CLI).
DESCRIPTIONS = {
    "split": "a definition that fits in one chunk, split anyway",
    "dangling": "the chunk ends on an opener (= { ( [ : ...) the next chunk continues",
    "closer": "the chunk starts by closing (} ) ]) what an earlier chunk opened",
    "forced": "a chunk edge cut inside a token",
    "too-big": "a definition larger than the max size, cut into pieces",
    "embedded": "the embedded text (context + overlap + code) is over the max size",
    "tiny": f"a chunk under {TINY_NWS} non-whitespace characters",
}

#: Tokens that leave an expression or a block open when a chunk ends on them.
OPENERS = frozenset({
    "=", ":=", "+=", "-=", "*=", "/=", "|=", "&=", "{", "(", "[", ":", ",", "=>", "->", ".", "::",
    "&&", "||", "and", "or", "+", "-", "*", "/", "|", "&", "?", "${",
})
#: Tokens that close what an earlier chunk opened when a chunk starts with them.
CLOSERS = frozenset({"}", ")", "]"})

#: Longest excerpt kept per problem (characters).
EXCERPT_CHARS = 120

_WS = b" \t\n\r\x0b\x0c"


@dataclass(frozen=True, slots=True)
class Problem:
    """One problem: its kind, the chunk it concerns and where it lies in the source."""

    kind: str
    chunk: int  # index of the chunk
    start: int  # byte range of what is wrong (a token, a definition, a chunk)
    end: int
    line: int  # 0-based line of ``start``
    detail: str  # what is wrong, in a few words ("ends on `=`; the next chunk starts `{`")
    excerpt: str  # the source line at ``start`` (trimmed, at most EXCERPT_CHARS)
    token: str = ""  # the opener or closer (dangling, closer)

    def to_dict(self) -> dict[str, Any]:
        record = {
            "kind": self.kind, "chunk": self.chunk, "byteRange": {"start": self.start, "end": self.end},
            "line": self.line, "detail": self.detail, "excerpt": self.excerpt,
        }
        if self.token:
            record["token"] = self.token
        return record


@dataclass(slots=True)
class FileProblems:
    """The problems of one file under one setting, in source order."""

    path: str | None
    language: str | None
    chunks: int
    problems: list[Problem] = field(default_factory=list)
    #: Definitions in the file (the denominator of ``too-big``), 0 without a tree.
    definitions: int = 0
    #: Chunks whose embedded text is over the limit, and the largest such size: counted under
    #: every fit (information), flagged as ``embedded`` only where the limit binds it.
    embedded_over: int = 0
    embedded_largest: int = 0

    def counts(self) -> dict[str, int]:
        counts = dict.fromkeys(PROBLEM_KINDS, 0)
        for problem in self.problems:
            counts[problem.kind] += 1
        return counts

    @property
    def score(self) -> int:
        """Weighted count (:data:`WEIGHTS`): files are listed worst first by it."""
        return sum(WEIGHTS[p.kind] for p in self.problems)

    def to_dict(self, *, problems: bool = True) -> dict[str, Any]:
        record: dict[str, Any] = {
            "path": self.path, "language": self.language, "chunks": self.chunks,
            "definitions": self.definitions, "score": self.score, "problems": self.counts(),
        }
        if problems:
            record["list"] = [p.to_dict() for p in self.problems]
        return record


def find_problems(parsed: ParsedFile, chunks: Sequence[Chunk], options: ChunkOptions) -> FileProblems:
    """Every problem of ``chunks`` (made from ``parsed`` with ``options``), in source order."""
    src = parsed.source
    unit, limit = options.size_unit, options.max_size
    found = FileProblems(parsed.path, parsed.language, len(chunks))
    root = parsed.root
    problems = found.problems
    code_root = _code_roots(parsed)
    for index, chunk in enumerate(chunks):
        start, end = chunk.byte_range.start, chunk.byte_range.end
        if chunk.nws < TINY_NWS:
            problems.append(_problem(src, "tiny", index, start, end, f"{chunk.nws} non-whitespace characters"))
        if chunk.split_start is not None:
            problems.append(_problem(src, "forced", index, start, start, f"starts inside a token ({chunk.split_start})"))
        if chunk.split_end is not None:
            problems.append(_problem(src, "forced", index, end, end, f"ends inside a token ({chunk.split_end})"))
        embedded = embedded_size(chunk)
        if embedded > limit:
            found.embedded_over += 1
            found.embedded_largest = max(found.embedded_largest, embedded)
        if embedded > limit and options.fit_embedded:
            problems.append(_problem(src, "embedded", index, start, end,
                                     f"embedded text {embedded:,} {unit} > {limit:,} (code {chunk.size:,})"))
        _edge_tokens(src, code_root, chunks, index, problems)
    if root is not None and parsed.language is not None:
        spans = [(c.byte_range.start, c.byte_range.end) for c in chunks]
        definitions = definition_spans(root, parsed.language)
        found.definitions = len(definitions)
        holders = Holders(spans)
        room = room_for(parsed, options)
        for start, end, kind, need, space, pieces in definitions_not_held(definitions, spans, room):
            where = max(0, holders.last_start(start))
            if need > space:
                detail = f"{kind} of {room.describe(need, space)}, in {pieces} chunks"
                problems.append(_problem(src, "too-big", where, start, end, detail))
            else:
                fits = "fits" if space >= limit else f"fits its room of {space:,} {unit}"
                problems.append(_problem(src, "split", where, start, end,
                                         f"{kind} of {need:,} {unit} {fits}, yet lies in {pieces} chunks"))
    problems.sort(key=lambda p: (p.start, PROBLEM_KINDS.index(p.kind)))
    return found


def problem_kinds(options: ChunkOptions) -> tuple[str, ...]:
    """The kinds that can be reported under ``options``, worst first: ``embedded`` only where
    the limit binds the embedded text (see the module's docstring)."""
    return PROBLEM_KINDS if options.fit_embedded else tuple(k for k in PROBLEM_KINDS if k != "embedded")


def embedded_size(chunk: Chunk) -> int:
    """Size of the chunk's embedded text (``contextualized_text``) in its size unit, as the
    engine measured it (exactly, in tokens too)."""
    return chunk.embedded_size


def definitions_not_held(
    definitions: Sequence[tuple[int, int, str, bool]], spans: Sequence[tuple[int, int]], room: Room,
) -> list[tuple[int, int, str, int, int, int]]:
    """``(start, end, kind, need, room, pieces)`` of the definitions no single chunk (byte
    range in ``spans``) contains: the size a chunk holding one needs and the room a chunk
    starting on its line has (:meth:`~explorer.engine.fit.Room.judge`: it fits when
    need <= room, and was then split); ``pieces``: the chunks they touch."""
    holders = Holders(spans)
    found = []
    for start, end, kind, _top in definitions:
        if holders.holds(start, end):
            continue
        pieces = holders.last_start(max(start, end - 1)) - max(0, holders.last_start(start))
        found.append((start, end, kind, *room.judge(start, end), max(1, pieces + 1)))
    return found


def cut_too_big(
    parsed: ParsedFile, chunks: Sequence[Chunk], options: ChunkOptions,
    definitions: Sequence[tuple[int, int, str, bool]] | None = None,
) -> tuple[int, int]:
    """``(definitions cut because they are larger than their room, all definitions)`` of a
    file chunked with ``options`` (the ``too-big`` problems); (0, 0) without a tree. ``definitions``: the file's
    :func:`.quality.definition_spans`, when already known (a sweep finds them once per file)."""
    root = parsed.root
    if root is None or parsed.language is None:
        return 0, 0
    if definitions is None:
        definitions = definition_spans(root, parsed.language)
    spans = [(c.byte_range.start, c.byte_range.end) for c in chunks]
    held_not = definitions_not_held(definitions, spans, room_for(parsed, options))
    cut = sum(1 for *_, need, room, _ in held_not if need > room)
    return cut, len(definitions)


def problems_by_chunk(found: FileProblems) -> tuple[tuple[Problem, ...], ...]:
    """The problems of each chunk (index = chunk index), for flags beside each chunk."""
    per: list[list[Problem]] = [[] for _ in range(found.chunks)]
    for problem in found.problems:
        if 0 <= problem.chunk < found.chunks:
            per[problem.chunk].append(problem)
    return tuple(tuple(p) for p in per)


def file_record(measures: FileMetrics, found: FileProblems) -> dict[str, Any]:
    """One file's figures for JSON reports: its quality measures and its problems per kind."""
    return {**measures.to_dict(), "problems": found.counts(), "problemScore": found.score}


# -- helpers --------------------------------------------------------------------------------
def _problem(src: SourceText, kind: str, chunk: int, start: int, end: int, detail: str, token: str = "") -> Problem:
    line = src.line_of(min(start, max(0, len(src.data) - 1))) if src.data else 0
    excerpt = src.line_text(line).strip() if src.data else ""
    if kind == "tiny":  # the whole (short) chunk says more than its first line
        excerpt = " ".join(src.slice(start, end).split())
    if len(excerpt) > EXCERPT_CHARS:
        excerpt = excerpt[: EXCERPT_CHARS - 1] + "…"
    return Problem(kind, chunk, start, end, line, detail, excerpt, token)


def _code_roots(parsed: ParsedFile) -> Callable[[int], Node | None]:
    """The tree that judges the token at a byte: the file's, or in a container the tree of
    the region holding the byte; None in prose or text without a tree."""
    regions = parsed.regions
    if not regions:
        root = None if parsed.language in PROSE_LANGUAGES else parsed.root
        return lambda _byte: root
    starts = [region.start for region in regions]

    def root_at(byte: int) -> Node | None:
        region = regions[max(0, bisect_right(starts, byte) - 1)]
        if not region.start <= byte < region.end or region.language in PROSE_LANGUAGES:
            return None
        return region.parsed.root

    return root_at


def _token_at(root: Node | None, byte: int) -> Node | None:
    """The leaf token holding ``byte`` (None inside a named leaf such as a comment or string)."""
    if root is None:
        return None
    node = root.descendant_for_byte_range(byte, byte + 1)
    if node is None or node.is_named or node.child_count:
        return None
    return node


def _edge_tokens(src: SourceText, root_at: Callable[[int], Node | None], chunks: Sequence[Chunk], index: int, problems: list[Problem]) -> None:
    """``dangling`` and ``closer`` for one chunk (the file's first and last edges never)."""
    data = src.data
    chunk = chunks[index]
    start, end = chunk.byte_range.start, chunk.byte_range.end
    body = data[start:end]
    if index + 1 < len(chunks) and body.strip(_WS):
        last = start + len(body.rstrip(_WS)) - 1
        token = _token_at(root_at(last), last)
        if token is not None and token.type in OPENERS and token.end_byte <= end:
            following = chunks[index + 1].text.strip().splitlines()
            nxt = f"; the next chunk starts `{following[0].strip()[:40]}`" if following else ""
            problems.append(_problem(src, "dangling", index, token.start_byte, token.end_byte,
                                     f"ends on `{token.type}`{nxt}", token.type))
    if index > 0 and body.strip(_WS):
        first = start + (len(body) - len(body.lstrip(_WS)))
        token = _token_at(root_at(first), first)
        if token is not None and token.type in CLOSERS and token.start_byte >= start:
            problems.append(_problem(src, "closer", index, token.start_byte, token.end_byte,
                                     f"starts with `{token.type}` closing an earlier chunk", token.type))
