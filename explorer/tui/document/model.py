"""The open document: a parsed file, its structure, its chunks and what the views derive from them.

Pure data, no Textual import: workers build these objects off the UI thread and
handlers hand them down to the views, which only read them.
"""

from __future__ import annotations

import statistics
from bisect import bisect_right
from dataclasses import dataclass, field
from typing import Any

from explorer.engine.measure.problems import FileProblems
from explorer.engine.measure.quality import TINY_NWS
from explorer.engine.model import Chunk
from explorer.engine.options import ChunkOptions
from explorer.engine.parse import ParsedFile
from explorer.engine.text import SourceText, split_lines

#: Bars in the size histogram (sizes from 0 to max_size), plus one bar for oversized chunks.
HISTOGRAM_BINS = 10


@dataclass(frozen=True, slots=True, eq=False)
class LoadedFile:
    """A file read and parsed once; re-chunking reuses all of it."""

    path: str
    parsed: ParsedFile
    structure: Any | None
    #: The options it was parsed with (their language and strategy decide the parse).
    parse_options: ChunkOptions
    parse_ms: float
    #: Longest line in cells, tabs expanded (the source view's horizontal extent).
    longest_line: int
    #: The pygments lexer for highlighting (looked up here: the first look-up imports a lot).
    lexer: Any = None
    #: True while only the text is known (a big file being parsed): no tree, no chunks yet.
    partial: bool = False

    @property
    def source(self) -> SourceText:
        return self.parsed.source


@dataclass(frozen=True, slots=True)
class ChunkStats:
    count: int
    unit: str
    max_size: int
    smallest: int
    median: float
    largest: int
    over: int
    tiny: int
    #: Chunk counts per size bin: HISTOGRAM_BINS bins over [0, max_size], then the oversized ones.
    histogram: tuple[int, ...]
    #: Chunks whose contextualized text (header + overlap + code) is over max_size.
    embedded_over: int = 0
    tokenizer: str | None = None

    @classmethod
    def of(cls, chunks: list[Chunk] | tuple[Chunk, ...], options: ChunkOptions) -> ChunkStats:
        sizes = [c.size for c in chunks]
        bins = [0] * (HISTOGRAM_BINS + 1)
        for size in sizes:
            if size > options.max_size:
                bins[-1] += 1
            else:
                bins[min(HISTOGRAM_BINS - 1, size * HISTOGRAM_BINS // max(1, options.max_size))] += 1
        return cls(
            count=len(sizes),
            unit=options.size_unit,
            max_size=options.max_size,
            smallest=min(sizes, default=0),
            median=statistics.median(sizes) if sizes else 0,
            largest=max(sizes, default=0),
            over=sum(1 for s in sizes if s > options.max_size),
            tiny=sum(1 for c in chunks if c.nws < TINY_NWS),
            histogram=tuple(bins),
            embedded_over=sum(1 for c in chunks if c.embedded_size > options.max_size),
            tokenizer=options.tokenizer,
        )


@dataclass(frozen=True, slots=True, eq=False)
class ChunkLayout:
    """Where chunks fall in the file, indexed for the source view and the links between panes.

    All ranges are byte ranges, end-exclusive; lines are 0-based.
    """

    starts: tuple[int, ...]
    ends: tuple[int, ...]
    first_lines: tuple[int, ...]
    last_lines: tuple[int, ...]
    #: Byte ranges repeated at the head of the next chunk (overlap), as (start, end, chunk index).
    overlaps: tuple[tuple[int, int, int], ...]
    #: End of each overlap range (ascending, since an overlap ends where its chunk starts).
    overlap_ends: tuple[int, ...]
    #: Lines holding a cut forced inside a token: line -> "line" or "char".
    forced_cuts: dict[int, str] = field(default_factory=dict)

    @classmethod
    def of(cls, chunks: list[Chunk] | tuple[Chunk, ...], source: SourceText) -> ChunkLayout:
        overlaps = []
        forced: dict[int, str] = {}
        for chunk in chunks:
            start = chunk.byte_range.start
            if chunk.overlap_text:
                size = len(chunk.overlap_text.encode("utf-8", "surrogatepass"))
                overlaps.append((max(0, start - size), start, chunk.index))
            if chunk.split_start is not None and chunk.byte_range.end > start:
                forced.setdefault(source.line_of(start), chunk.split_start)
        return cls(
            starts=tuple(c.byte_range.start for c in chunks),
            ends=tuple(c.byte_range.end for c in chunks),
            first_lines=tuple(c.line_range.start for c in chunks),
            last_lines=tuple(c.line_range.end for c in chunks),
            overlaps=tuple(overlaps),
            overlap_ends=tuple(o[1] for o in overlaps),
            forced_cuts=forced,
        )

    def __len__(self) -> int:
        return len(self.starts)

    def chunk_at(self, byte: int) -> int | None:
        """Index of the chunk holding a byte offset (the last one for the file's end)."""
        k = bisect_right(self.starts, byte) - 1
        if k < 0:
            return None
        if byte < self.ends[k] or (k == len(self.starts) - 1 and byte == self.ends[k]):
            return k
        return None

    def chunks_between(self, start: int, end: int) -> range:
        """Indices of the chunks that intersect the byte range [start, end)."""
        first = max(0, bisect_right(self.starts, start) - 1)
        last = bisect_right(self.starts, max(start, end - 1))
        while first < last and self.ends[first] <= start:
            first += 1
        return range(first, last)

    def overlaps_between(self, start: int, end: int) -> list[tuple[int, int, int]]:
        """Overlap ranges intersecting [start, end)."""
        found = []
        for k in range(bisect_right(self.overlap_ends, start), len(self.overlaps)):
            item = self.overlaps[k]
            if item[0] >= end:  # each overlap lies inside the chunk before its own: disjoint, ascending
                break
            found.append(item)
        return found

    def first_chunk_on_line(self, line: int) -> int | None:
        """The first chunk starting on ``line``, if any (for gutter numbers)."""
        k = bisect_right(self.first_lines, line) - 1
        while k > 0 and self.first_lines[k - 1] == line:
            k -= 1
        if 0 <= k < len(self.first_lines) and self.first_lines[k] == line:
            return k
        return None


@dataclass(frozen=True, slots=True, eq=False)
class Chunking:
    """One chunking run of a loaded file."""

    options: ChunkOptions
    chunks: tuple[Chunk, ...]
    layout: ChunkLayout
    stats: ChunkStats
    chunk_ms: float
    #: The chunks' problems (too big, tiny, dangling opener ...), or None when not looked for.
    problems: FileProblems | None = None


@dataclass(frozen=True, slots=True, eq=False)
class Document:
    """What the views show: a loaded file and its current chunking."""

    file: LoadedFile
    chunking: Chunking
    #: Bumped on every (re)load; results from older generations are dropped.
    generation: int

    @property
    def path(self) -> str:
        return self.file.path

    @property
    def source(self) -> SourceText:
        return self.file.parsed.source

    @property
    def chunks(self) -> tuple[Chunk, ...]:
        return self.chunking.chunks

    @property
    def options(self) -> ChunkOptions:
        return self.chunking.options


def needs_reparse(old: ChunkOptions, new: ChunkOptions) -> bool:
    """Whether new options change the parse (grammar or AST vs lines), not just the chunking."""
    return old.language != new.language or old.strategy != new.strategy


def longest_line(source: SourceText, tab_size: int = 4) -> int:
    """Display width of the longest line with tabs expanded (wide characters count once)."""
    if not source.text:
        return 0
    return max(map(len, split_lines(source.text.expandtabs(tab_size))), default=0)
