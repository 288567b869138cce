"""Chunk quality: how well a chunking keeps the code's structure (sizes, cuts, split
definitions), per file and pooled.

This is the one implementation behind the CLI ``stats`` and ``sweep`` commands, the
TUI's stats and comparison views and the benchmarks, so a number means the same thing
everywhere:

* :func:`measure_file` takes a parsed file and its chunks (``Chunk`` objects, or
  plain ``(start_byte, end_byte)`` / ``(start_byte, end_byte, text)`` tuples) and
  returns a :class:`FileMetrics`;
* :func:`summarize` pools many of them into a :class:`Summary`, per language and
  overall (percentages are computed from pooled counts, never averaged).

Definitions:

* sizes are measured on the source in the configured unit (``nws`` counts code
  points that are not in ``" \\t\\n\\r\\v\\f"``); *over* is size > max_size, *tiny*
  is nws < 50; *exact* means the chunk texts concatenated equal the source (a
  file with no non-whitespace and no chunks counts as exact: nothing is lost).
* **cuts**: every chunk start and end, moved forward over whitespace, without
  the file edges (offset 0 / the first non-whitespace, and the end), deduplicated.
  ``P`` is the deepest node with ``P.start < c < P.end``, found from the smallest
  node at ``c`` upwards (no recursion). Then: *token* if ``P`` has no children or ``c`` is not
  at the start of one of ``P``'s children (so it sits in a stretch no child
  covers, holding the non-whitespace character at ``c``); *stmt* / *sibling* if
  ``P`` has a named child ending at or before ``c`` and one starting at or after
  it, *stmt* when ``P`` is a statement container (the root, or see
  :func:`explorer.engine.kinds.is_statement_container`); *inner* otherwise. *midline*: non-
  whitespace before ``c`` on its line. Files without a tree (line fallback) have
  no cut classification and are left out of the cut percentages.
* **definitions**: the node kinds of :func:`explorer.engine.kinds.definition_kinds` (a
  table for the languages known well, else a rule by name). A
  definition's span takes in its wrapper (:data:`~explorer.engine.kinds.WRAPPER_KINDS`: ``export``,
  decorated definitions, templates) and the decorators/attributes directly before
  it (:data:`~explorer.engine.kinds.ATTACH_FORWARD`, the kinds the chunker keeps with
  the next node). *Top-level* means no other definition encloses it.
  A definition *fits* when its lines measure at most the room a chunk starting on its
  first line has (:class:`~explorer.engine.fit.Room`, the chunker's judge: max_size, less
  the header where the limit binds the embedded text); it is *split* when it fits and no
  single chunk contains the span. One that a chunk holds whole fits when it measures at most
  max_size (a chunk starting before it may have more room than one starting on its line).
  The same for a definition with its doc comment, judged from the comment's first line.
* **doc comment**: comments (named kinds containing ``comment``) that start their
  line and end directly above the definition span (only whitespace between, at
  most one line break), extended upwards the same way.
* **summaries**: size p95 is the nearest-rank percentile; throughput is MB
  (10^6 bytes) per second for each timing key the files carry. ``clean_unforced``
  leaves out token cuts inside a node that alone exceeds
  max_size, where no clean cut exists: it tells forced cuts from chunker mistakes.
"""

from __future__ import annotations

import math
import re
import statistics
from bisect import bisect_right
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from itertools import accumulate
from typing import Any

from tree_sitter import Node, Query, QueryCursor

from ..api import room_for
from ..fit import Room
from ..kinds import ATTACH_FORWARD, NEEDS_BODY, WRAPPER_KINDS, comment_kinds, definition_kinds, is_statement_container
from ..languages import get_language
from ..options import ChunkOptions
from ..parse import ParsedFile
from ..sizing import Measure, SizeUnit, measure_for
from ..text import WHITESPACE, SourceText

#: Chunks with fewer non-whitespace characters than this are fragments ("tiny").
TINY_NWS = 50

CUT_KINDS = ("token", "stmt", "sibling", "inner")

_WS = re.compile(b"[" + re.escape(WHITESPACE) + b"]*")
_NEWLINES = re.compile(rb"\r\n|\r|\n")


# -- results -----------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Cut:
    """One cut and what lies around it (the details make failures actionable)."""

    offset: int  # byte offset, after skipping whitespace
    line: int  # 0-based
    kind: str  # token | stmt | sibling | inner
    midline: bool
    parent: str  # kind of P, the deepest node strictly containing the cut
    before: str | None  # kind of P's named child before the cut
    after: str | None  # kind of P's child (named or not) at/after the cut
    oversized_token: bool = False  # token cut inside a node that alone exceeds max_size

    def to_dict(self) -> dict[str, Any]:
        return {
            "offset": self.offset, "line": self.line, "kind": self.kind, "midline": self.midline,
            "parent": self.parent, "before": self.before, "after": self.after,
            "oversizedToken": self.oversized_token,
        }


@dataclass(frozen=True, slots=True)
class SplitDefinition:
    """A definition (or comment + definition) that fits in one chunk but no chunk holds."""

    what: str  # "top" | "nested" | "doc"
    kind: str
    start: int
    end: int
    line: int
    size: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "what": self.what, "kind": self.kind, "start": self.start, "end": self.end,
            "line": self.line, "size": self.size,
        }


@dataclass(slots=True)
class FileMetrics:
    path: str | None
    language: str | None
    size_unit: str
    max_size: int
    bytes: int
    nws: int
    has_tree: bool
    sizes: list[int]
    chunk_nws: list[int]
    exact: bool
    nws_covered: int
    cuts: list[Cut] = field(default_factory=list)
    top_fit: int = 0
    top_split: int = 0
    any_fit: int = 0
    any_split: int = 0
    doc_fit: int = 0
    doc_split: int = 0
    splits: list[SplitDefinition] = field(default_factory=list)
    seconds: dict[str, float] = field(default_factory=dict)
    #: Chunks whose contextualized text (what is embedded) is over max_size; None when
    #: measured from byte ranges alone (see :func:`embedded_over`).
    embedded_over: int | None = None

    @property
    def chunks(self) -> int:
        return len(self.sizes)

    @property
    def over(self) -> int:
        return sum(1 for s in self.sizes if s > self.max_size)

    @property
    def tiny(self) -> int:
        return sum(1 for n in self.chunk_nws if n < TINY_NWS)

    def cut_counts(self) -> dict[str, int]:
        counts = dict.fromkeys(CUT_KINDS, 0)
        for cut in self.cuts:
            counts[cut.kind] += 1
        return counts

    def to_dict(self) -> dict[str, Any]:
        return {
            "path": self.path, "language": self.language, "sizeUnit": self.size_unit,
            "maxSize": self.max_size, "bytes": self.bytes, "nws": self.nws, "hasTree": self.has_tree,
            "chunks": self.chunks, "over": self.over, "tiny": self.tiny, "exact": self.exact,
            "nwsCovered": self.nws_covered, "cuts": self.cut_counts(),
            "midline": sum(c.midline for c in self.cuts),
            "definitions": {
                "topFit": self.top_fit, "topSplit": self.top_split, "anyFit": self.any_fit,
                "anySplit": self.any_split, "docFit": self.doc_fit, "docSplit": self.doc_split,
            },
            "seconds": dict(self.seconds),
        }


# -- measuring one file ----------------------------------------------------------------
def measure_file(
    parsed: ParsedFile,
    chunks: Sequence[Any],
    options: ChunkOptions | None = None,
    *,
    max_size: int | None = None,
    size_unit: SizeUnit | None = None,
    seconds: Mapping[str, float] | None = None,
) -> FileMetrics:
    """All per-file measures. ``chunks``: ``Chunk`` objects or ``(start, end[, text])`` byte ranges.
    ``seconds``: optional timings (e.g. ``{"parse": .., "chunk": ..}``) for throughput.

    ``parsed`` only supplies the source and the tree the cuts are judged against: to
    measure a baseline (the ``lines`` strategy), pass the AST parse of the file with
    the baseline's chunks, so its cuts are classified too."""
    options = options or ChunkOptions()
    max_size = options.max_size if max_size is None else max_size
    measure = options.measure if size_unit is None else measure_for(size_unit, options.tokenizer)
    unit = measure.unit
    if (max_size, unit) != (options.max_size, options.size_unit):
        options = replace(options, max_size=max_size, size_unit=unit)
    src = parsed.source
    spans = sorted(_as_spans(chunks, src), key=lambda s: (s[0], s[1]))
    size = measure.sizer(src)
    metrics = FileMetrics(
        path=parsed.path,
        language=parsed.language,
        size_unit=unit,
        max_size=max_size,
        bytes=len(src.data),
        nws=src.nws(),
        has_tree=parsed.tree is not None or bool(parsed.regions),
        # In tokens, each chunk's text is counted exactly (range sizes in tokens are estimates).
        sizes=[measure.text(t) for _, _, t in spans] if measure.tokens else [size(s, e) for s, e, _ in spans],
        chunk_nws=[src.nws(s, e) for s, e, _ in spans],
        exact=_is_exact(src, spans),
        nws_covered=_covered_nws(src, spans),
        seconds=dict(seconds or {}),
        embedded_over=embedded_over(chunks, max_size, unit),
    )
    root = parsed.root
    if parsed.regions and spans:
        _measure_regions(metrics, parsed, spans, max_size, measure, room_for(parsed, options))
    elif root is not None and spans:
        metrics.cuts = classify_cuts(src, root, spans, max_size=max_size, measure=measure)
        _measure_definitions(metrics, parsed, root, spans, room_for(parsed, options))
    return metrics


def embedded_over(chunks: Sequence[Any], max_size: int, unit: str) -> int | None:
    """How many chunks have a contextualized text (header + overlap + code: what is
    embedded) over ``max_size`` in ``unit``; None unless ``chunks`` are ``Chunk`` objects
    measured in that unit."""
    if not all(hasattr(c, "embedded_size") and c.size_unit == unit for c in chunks):
        return None
    return sum(1 for c in chunks if c.embedded_size > max_size)


#: The parent kind of a cut between two regions of a container file (a clean ``stmt`` cut).
REGION_BOUNDARY = "(region boundary)"


def _measure_regions(
    metrics: FileMetrics, parsed: ParsedFile, spans: list[tuple[int, int, str]], max_size: int, measure: Measure,
    room: Room,
) -> None:
    """A container file: each cut judged against the tree of the region it falls in (a cut
    where a region starts is a clean ``stmt`` cut), each region's definitions as a file's."""
    src = parsed.source
    data = src.data
    regions = parsed.regions
    starts = [region.start for region in regions]
    boundaries = {_skip_ws(data, start) for start in starts}
    for c in cut_offsets(data, spans):
        if c in boundaries:
            line = src.line_of(c)
            midline = bool(data[src.line_start(line) : c].translate(None, WHITESPACE))
            metrics.cuts.append(Cut(c, line, "stmt", midline, REGION_BOUNDARY, None, None))
            continue
        region = regions[bisect_right(starts, c) - 1]
        if region.parsed.root is not None:
            metrics.cuts.append(classify_cut(src, region.parsed.root, c, max_size=max_size, measure=measure))
    for region in regions:
        if region.parsed.root is not None:
            _measure_definitions(metrics, region.parsed, region.parsed.root, spans, room)


def _as_spans(chunks: Sequence[Any], src: SourceText) -> list[tuple[int, int, str]]:
    spans = []
    for c in chunks:
        if hasattr(c, "byte_range"):
            spans.append((c.byte_range.start, c.byte_range.end, c.text))
        elif len(c) == 3:
            spans.append((int(c[0]), int(c[1]), c[2]))
        else:
            start, end = int(c[0]), int(c[1])
            spans.append((start, end, src.slice(start, end)))
    return spans


def _is_exact(src: SourceText, spans: list[tuple[int, int, str]]) -> bool:
    if not spans:
        return src.nws() == 0
    return "".join(text for _, _, text in spans) == src.text


def _covered_nws(src: SourceText, spans: list[tuple[int, int, str]]) -> int:
    covered, reach = 0, 0
    for start, end, _ in spans:  # sorted by start; overlaps are counted once
        start = max(start, reach)
        if end > start:
            covered += src.nws(start, end)
            reach = end
    return covered


# -- cuts --------------------------------------------------------------------------------
def _skip_ws(data: bytes, at: int) -> int:
    found = _WS.match(data, at)  # matches the empty string too, so never None
    return found.end() if found else at


def cut_offsets(data: bytes, spans: Iterable[tuple[Any, ...]]) -> list[int]:
    """Chunk edges moved forward over whitespace, without the file edges, deduplicated."""
    first = _skip_ws(data, 0)
    cuts = set()
    for span in spans:
        for edge in (span[0], span[1]):
            c = _skip_ws(data, edge)
            if first < c < len(data):
                cuts.add(c)
    return sorted(cuts)


def is_container(node: Node) -> bool:
    """Whether a node holds statements (see :func:`explorer.engine.kinds.is_statement_container`),
    the root of the tree included."""
    return is_statement_container(node.type) or node.parent is None


def _parent_and_next(root: Node, c: int) -> tuple[Node, Node | None]:
    """The deepest node strictly containing ``c`` and its child starting at or after ``c``.

    Walks up from the smallest node at ``c`` (``first_child_for_byte`` is avoided:
    py-tree-sitter 0.25 crashes on it when there is no such child)."""
    node: Node | None = root.descendant_for_byte_range(c, c)
    below: Node | None = None
    while node is not None and not (node.start_byte < c < node.end_byte) and node.parent is not None:
        below, node = node, node.parent
    parent = node if node is not None else root
    if below is not None and below.end_byte <= c:
        below = below.next_sibling
    if below is None or below.start_byte < c:
        below = next((ch for ch in parent.children if ch.start_byte >= c), None)
    return parent, below


def classify_cut(
    src: SourceText, root: Node, c: int, *, max_size: int = 0, measure: Measure | None = None
) -> Cut:
    """Classify one cut offset (already moved past whitespace) against the tree; a token cut
    is ``oversized_token`` when its node measures over ``max_size`` (``measure``: nws if not
    given)."""
    parent, nxt = _parent_and_next(root, c)
    line = src.line_of(c)
    midline = bool(src.data[src.line_start(line) : c].translate(None, WHITESPACE))
    if nxt is None or nxt.start_byte != c:
        sized = measure or measure_for("nws", None)
        oversized = max_size > 0 and sized.size(src, parent.start_byte, parent.end_byte) > max_size
        after = nxt.type if nxt is not None else None
        return Cut(c, line, "token", midline, parent.type, None, after, oversized)
    before = nxt.prev_named_sibling
    after_named = nxt if nxt.is_named else nxt.next_named_sibling
    if before is not None and after_named is not None:
        kind = "stmt" if is_container(parent) else "sibling"
    else:
        kind = "inner"
    return Cut(c, line, kind, midline, parent.type, before.type if before else None, nxt.type)


def classify_cuts(
    src: SourceText,
    root: Node,
    spans: Iterable[tuple[Any, ...]],
    *,
    max_size: int = 0,
    measure: Measure | None = None,
) -> list[Cut]:
    return [classify_cut(src, root, c, max_size=max_size, measure=measure) for c in cut_offsets(src.data, spans)]


# -- definitions and their comments ----------------------------------------------------
@cache
def _language_query(language: str) -> Query | None:
    """One query capturing the language's definitions (``@def``) and comments (``@comment``)
    in one walk of the tree (the kinds: :mod:`explorer.engine.kinds`)."""
    patterns = [
        "[" + " ".join(f"({k})" for k in sorted(kinds)) + f"] @{capture}"
        for kinds, capture in ((definition_kinds(language), "def"), (comment_kinds(language), "comment"))
        if kinds
    ]
    return Query(get_language(language), " ".join(patterns)) if patterns else None


def _captures(root: Node, language: str) -> dict[str, list[Node]]:
    query = _language_query(language)
    return QueryCursor(query).captures(root) if query is not None else {}


def definition_spans(
    root: Node, language: str, captures: dict[str, list[Node]] | None = None
) -> list[tuple[int, int, str, bool]]:
    """``(start, end, kind, top_level)`` of every definition, wrappers and decorators included,
    in document order."""
    captures = _captures(root, language) if captures is None else captures
    found = []
    seen: set[int] = set()
    for node in captures.get("def", []):
        if node.id in seen or (node.type in NEEDS_BODY and node.child_by_field_name("body") is None):
            continue
        seen.add(node.id)
        outer = node
        while outer.parent is not None and outer.parent.type in WRAPPER_KINDS:
            outer = outer.parent
        start = outer.start_byte
        before = outer.prev_named_sibling
        while before is not None and before.type in ATTACH_FORWARD:
            start = before.start_byte
            before = before.prev_named_sibling
        found.append((start, outer.end_byte, node.type))
    found.sort(key=lambda d: (d[0], -d[1]))
    result = []
    open_ends: list[int] = []  # ends of the enclosing definitions
    for start, end, kind in found:
        while open_ends and open_ends[-1] <= start:
            open_ends.pop()
        result.append((start, end, kind, not open_ends))
        open_ends.append(end)
    return result


def comment_spans(
    root: Node, language: str, data: bytes, captures: dict[str, list[Node]] | None = None
) -> list[tuple[int, int]]:
    """Outermost comments that start their line, in document order."""
    captures = _captures(root, language) if captures is None else captures
    spans: list[tuple[int, int]] = []
    for start, end in sorted((n.start_byte, -n.end_byte) for n in captures.get("comment", [])):
        end = -end
        if spans and start < spans[-1][1]:
            continue  # a comment inside a comment (Rust doc_comment)
        line_start = max(data.rfind(b"\n", 0, start), data.rfind(b"\r", 0, start)) + 1
        if not data[line_start:start].strip():
            spans.append((start, end))
    return spans


def _directly_above(data: bytes, end: int, start: int) -> bool:
    """Only whitespace and at most one line break between ``end`` and ``start``."""
    gap = data[end:start]
    return not gap.strip() and len(_NEWLINES.findall(gap)) <= 1


def doc_block_start(comments: list[tuple[int, int]], comment_ends: list[int], data: bytes, start: int) -> int | None:
    """Start of the comment block directly above ``start``, or None."""
    k = bisect_right(comment_ends, start) - 1
    if k < 0 or not _directly_above(data, comments[k][1], start):
        return None
    while k > 0 and _directly_above(data, comments[k - 1][1], comments[k][0]):
        k -= 1
    return comments[k][0]


class Holders:
    """Chunk byte ranges, sorted by start, indexed to tell whether one chunk contains a range."""

    def __init__(self, spans: Iterable[tuple[Any, ...]]):
        ordered = sorted((s[0], s[1]) for s in spans)
        self.starts = [s for s, _ in ordered]
        self.reach = list(accumulate((e for _, e in ordered), max))  # furthest end so far

    def last_start(self, offset: int) -> int:
        """Index of the last chunk starting at or before ``offset`` (-1: none)."""
        return bisect_right(self.starts, offset) - 1

    def holds(self, start: int, end: int) -> bool:
        """Whether one chunk contains ``[start, end)``."""
        k = self.last_start(start)
        return k >= 0 and self.reach[k] >= end


def _measure_definitions(
    metrics: FileMetrics,
    parsed: ParsedFile,
    root: Node,
    spans: list[tuple[int, int, str]],
    room: Room,
) -> None:
    """The definitions that fit (held whole, or within their room: see the module doc) and
    those of them split. ``room``: the file's (a container's, for its regions' trees)."""
    src, limit = parsed.source, metrics.max_size
    held = Holders(spans).holds

    language = parsed.language
    if language is None:  # a tree is parsed in a known language
        return
    captures = _captures(root, language)
    comments = comment_spans(root, language, src.data, captures)
    comment_ends = [e for _, e in comments]
    for start, end, kind, top in definition_spans(root, language, captures):
        split = not held(start, end)
        need, space = room.judge(start, end) if split else (room.need(start, end), limit)
        if need <= space:
            metrics.any_fit += 1
            metrics.any_split += split
            if top:
                metrics.top_fit += 1
                metrics.top_split += split
            if split:
                metrics.splits.append(SplitDefinition("top" if top else "nested", kind, start, end, src.line_of(start), need))
        doc = doc_block_start(comments, comment_ends, src.data, start)
        if doc is not None:
            split = not held(doc, end)
            need, space = room.judge(doc, end) if split else (room.need(doc, end), limit)
            if need <= space:
                metrics.doc_fit += 1
                metrics.doc_split += split
                if split:
                    metrics.splits.append(SplitDefinition("doc", kind, doc, end, src.line_of(doc), need))


# -- summaries ----------------------------------------------------------------------------
def percentile(sorted_values: Sequence[int], q: float) -> int | None:
    """Nearest-rank percentile of already sorted values."""
    if not sorted_values:
        return None
    rank = max(1, math.ceil(q / 100 * len(sorted_values)))
    return sorted_values[rank - 1]


def _pct(part: int, whole: int) -> float | None:
    return 100.0 * part / whole if whole else None


@dataclass(slots=True)
class GroupSummary:
    """Pooled measures of a group of files (one language, or all)."""

    files: int = 0
    files_without_tree: int = 0
    bytes: int = 0
    nws: int = 0
    nws_covered: int = 0
    chunks: int = 0
    over: int = 0
    tiny: int = 0
    exact_files: int = 0
    cuts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(CUT_KINDS, 0))
    midline: int = 0
    oversized_token_cuts: int = 0
    top_fit: int = 0
    top_split: int = 0
    any_fit: int = 0
    any_split: int = 0
    doc_fit: int = 0
    doc_split: int = 0
    sizes: list[int] = field(default_factory=list)
    seconds: dict[str, float] = field(default_factory=dict)
    timed_bytes: dict[str, int] = field(default_factory=dict)
    #: Chunks whose embedded text is over max_size, and the chunks that was asked of.
    embedded_over: int = 0
    embedded_measured: int = 0

    def add(self, m: FileMetrics) -> None:
        self.files += 1
        self.files_without_tree += not m.has_tree
        self.bytes += m.bytes
        self.nws += m.nws
        self.nws_covered += m.nws_covered
        self.chunks += m.chunks
        self.over += m.over
        self.tiny += m.tiny
        self.exact_files += m.exact
        for cut in m.cuts:
            self.cuts[cut.kind] += 1
            self.midline += cut.midline
            self.oversized_token_cuts += cut.oversized_token
        self.top_fit += m.top_fit
        self.top_split += m.top_split
        self.any_fit += m.any_fit
        self.any_split += m.any_split
        self.doc_fit += m.doc_fit
        self.doc_split += m.doc_split
        self.sizes.extend(m.sizes)
        if m.embedded_over is not None:
            self.embedded_over += m.embedded_over
            self.embedded_measured += m.chunks
        for key, value in m.seconds.items():
            self.seconds[key] = self.seconds.get(key, 0.0) + value
            self.timed_bytes[key] = self.timed_bytes.get(key, 0) + m.bytes

    @property
    def total_cuts(self) -> int:
        return sum(self.cuts.values())

    def cut_pct(self, kind: str) -> float | None:
        return _pct(self.cuts[kind], self.total_cuts)

    @property
    def clean_pct(self) -> float | None:
        return _pct(self.cuts["stmt"] + self.cuts["sibling"], self.total_cuts)

    @property
    def clean_unforced_pct(self) -> float | None:
        """clean% leaving out token cuts inside tokens that alone exceed max_size (no clean cut exists there)."""
        return _pct(self.cuts["stmt"] + self.cuts["sibling"], self.total_cuts - self.oversized_token_cuts)

    @property
    def over_pct(self) -> float | None:
        return _pct(self.over, self.chunks)

    @property
    def embedded_over_pct(self) -> float | None:
        """over% of the contextualized texts (header + overlap + code)."""
        return _pct(self.embedded_over, self.embedded_measured)

    @property
    def tiny_pct(self) -> float | None:
        return _pct(self.tiny, self.chunks)

    @property
    def exact_pct(self) -> float | None:
        return _pct(self.exact_files, self.files)

    @property
    def coverage_pct(self) -> float | None:
        return _pct(self.nws_covered, self.nws)

    @property
    def midline_pct(self) -> float | None:
        return _pct(self.midline, self.total_cuts)

    @property
    def split_top_pct(self) -> float | None:
        return _pct(self.top_split, self.top_fit)

    @property
    def split_any_pct(self) -> float | None:
        return _pct(self.any_split, self.any_fit)

    @property
    def doc_split_pct(self) -> float | None:
        return _pct(self.doc_split, self.doc_fit)

    def size_stats(self) -> dict[str, float | int | None]:
        ordered = sorted(self.sizes)
        return {
            "min": ordered[0] if ordered else None,
            "median": statistics.median(ordered) if ordered else None,
            "p95": percentile(ordered, 95),
            "max": ordered[-1] if ordered else None,
        }

    def throughput(self) -> dict[str, float]:
        """MB/s (10^6 bytes per second) for each timing key."""
        return {k: self.timed_bytes[k] / 1e6 / s for k, s in self.seconds.items() if s > 0}

    def to_dict(self) -> dict[str, Any]:
        def r(x: float | None) -> float | None:
            return None if x is None else round(x, 3)

        return {
            "files": self.files,
            "filesWithoutTree": self.files_without_tree,
            "bytes": self.bytes,
            "chunks": self.chunks,
            "size": self.size_stats(),
            "overPct": r(self.over_pct),
            "embeddedOverPct": r(self.embedded_over_pct),
            "tinyPct": r(self.tiny_pct),
            "exactPct": r(self.exact_pct),
            "nwsCoveragePct": r(self.coverage_pct),
            "cuts": self.total_cuts,
            "cleanPct": r(self.clean_pct),
            "stmtPct": r(self.cut_pct("stmt")),
            "siblingPct": r(self.cut_pct("sibling")),
            "tokenPct": r(self.cut_pct("token")),
            "innerPct": r(self.cut_pct("inner")),
            "midlinePct": r(self.midline_pct),
            "oversizedTokenCuts": self.oversized_token_cuts,
            "cleanUnforcedPct": r(self.clean_unforced_pct),
            "splitTopPct": r(self.split_top_pct),
            "splitAnyPct": r(self.split_any_pct),
            "docSplitPct": r(self.doc_split_pct),
            "definitions": {"top": self.top_fit, "any": self.any_fit, "withDoc": self.doc_fit},
            "throughputMBs": {k: round(v, 3) for k, v in self.throughput().items()},
        }


@dataclass(slots=True)
class Summary:
    languages: dict[str, GroupSummary]
    overall: GroupSummary
    size_unit: str | None
    max_size: int | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "sizeUnit": self.size_unit,
            "maxSize": self.max_size,
            "languages": {name: group.to_dict() for name, group in self.languages.items()},
            "overall": self.overall.to_dict(),
        }


def summarize(files: Iterable[FileMetrics]) -> Summary:
    """Pool per-file measures per language (sorted by name) and overall."""
    groups: dict[str, GroupSummary] = {}
    overall = GroupSummary()
    units, limits = set(), set()
    for m in files:
        groups.setdefault(m.language or "unknown", GroupSummary()).add(m)
        overall.add(m)
        units.add(m.size_unit)
        limits.add(m.max_size)
    return Summary(
        languages=dict(sorted(groups.items())),
        overall=overall,
        size_unit=units.pop() if len(units) == 1 else None,
        max_size=limits.pop() if len(limits) == 1 else None,
    )
