"""Chunking a container file region by region (see :mod:`explorer.engine.containers`).

Each region (a code block, a script, a cell, the text around them) is chunked by the
chunker on its own tree, within its own bounds, so every cut inside embedded code is a cut
of that code's AST. The chunks of all regions, in order, tile the file exactly.

A chunk never mixes two regions unless both fit in it whole: after each region is chunked,
neighbouring regions that came out as one chunk each are packed together while the sum fits
(a short paragraph and the code block under it make one chunk; a long function's chunks
stand alone). The line that opens an embedded region (a fence, a tag) starts the code's
first chunk rather than ending the chunk before, where that still fits. In a notebook the same holds one level up: a chunk crosses a cell boundary
only when the cells it joins are whole. A region with no non-whitespace text (an empty
cell) joins the chunk before it (or the first one), as it holds nothing to search.

Each chunk's context comes from its region, in the region's language (its scope, entities,
imports, and a header in its comment syntax); so does a chunk of one embedded region with
the container's text around it (a code block with its fences). A chunk of several whole
embedded regions has the container's language and lists the entities and imports of all. Every chunk of a container says which ``regions`` it
holds, and a notebook's chunks which ``cells`` (index, kind, and lines and code points
within the cell's source), in every context mode.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterator
from typing import Any

from .chunker import Span, iter_spans
from .context import ContextBuilding, make_context_builder
from .model import CellEntry, ChunkContext, EntityEntry, ImportEntry, ParseErrorEntry, Range, RegionEntry
from .options import ChunkOptions, Strategy
from .parse import ParsedFile, Region
from .structure.extract import region_structure


def region_spans(
    parsed: ParsedFile, options: ChunkOptions, limits: Callable[[int], int] | None = None
) -> Iterator[Span]:
    """The spans of a container file (see the module doc); they tile it exactly. ``limits``:
    the room left for code by a chunk's header, by where it starts (see engine/fit.py)."""
    src = parsed.source
    size, max_size = options.measure.sizer(src), options.max_size
    limit_at: Callable[[int], int] = limits if limits is not None else (lambda _start: max_size)
    groups: list[list[list[Any]]] = []  # per cell (one group outside notebooks): [start, end, cut, cut, whole]
    group_key: object = object()
    blank_before: int | None = None  # start of blank regions no chunk holds yet
    previous: Region | None = None
    for region in parsed.regions:
        region_before, previous = previous, region
        if region.cell != group_key or not groups:
            groups.append([])
            group_key = region.cell
        items = groups[-1]
        spans = list(iter_spans(region.parsed, options, limits=limits, bounds=(region.start, region.end)))
        if not spans:  # only whitespace
            if items:
                items[-1][1] = region.end
            elif blank_before is None:
                blank_before = region.start
            continue
        whole = len(spans) == 1
        for number, span in enumerate(spans):
            start = span.start
            if blank_before is not None:
                start, blank_before = blank_before, None
            last = items[-1] if items else None
            if whole and last is not None and last[4] and size(last[0], span.end) <= limit_at(last[0]):
                last[1], last[3] = span.end, span.split_end
                continue
            if number == 0 and region.embedded and last is not None and last[1] == start:
                # a whole region is to keep room for its closing line too (it joins the code)
                end = span.end if not whole else _line_end(src.data, span.end)
                headings = region_before is not None and region_before.language == "markdown"
                start = _opening_line(src.data, last, start, end, size, limit_at, headings)
                last[1] = start
            items.append([start, span.end, span.split_start, span.split_end, whole])
    merged: list[list[Any]] = []
    merged_whole = False
    for items in groups:
        if not items:
            continue
        whole = len(items) == 1
        if whole and merged_whole and size(merged[-1][0], items[0][1]) <= limit_at(merged[-1][0]):
            merged[-1][1], merged[-1][3] = items[0][1], items[0][3]
            continue
        merged += items
        merged_whole = whole
    if merged and blank_before is not None:  # blank regions at the end
        merged[-1][1] = len(src.data)
    for start, end, split_start, split_end, _ in merged:
        yield Span(start, end, split_start, split_end)


def _line_end(data: bytes, at: int) -> int:
    """The end of the line starting at ``at`` (its line break included)."""
    end = data.find(b"\n", at)
    return len(data) if end < 0 else end + 1


def _opening_line(
    data: bytes, before: list[Any], start: int, end: int, size: Callable[[int, int], int],
    limit_at: Callable[[int], int], headings: bool,
) -> int:
    """Where the first chunk of an embedded region starts: with the line that opens it (a
    code fence, a ``<script>`` tag) rather than leaving that line to end the chunk before,
    when the chunk before keeps text of its own and the code's chunk still fits. With
    ``headings`` (Markdown), the headings just above that line come too: a heading opens
    what follows it."""
    if start == 0 or data[start - 1] != 0x0A or before[3] is not None:
        return start
    line = data.rfind(b"\n", 0, start - 1) + 1
    probe = line
    while headings and probe > before[0]:  # blank lines are crossed, only headings are taken
        above = data.rfind(b"\n", 0, probe - 1) + 1
        text = data[above:probe].strip()
        if text and not (text.startswith(b"#") and text.lstrip(b"#")[:1] in (b" ", b"")):
            break
        if above <= before[0] or not data[before[0] : above].strip():
            break
        probe = above
        if text:
            if size(above, end) > limit_at(above):
                break
            line = above
    if line <= before[0] or not data[before[0] : line].strip() or size(line, end) > limit_at(line):
        return start
    return line


class RegionContextBuilder:
    """Contexts of a container file's chunks, each from the builder of its region (see the
    module doc). ``contextualize`` follows the last ``context_for`` (as chunks are built)."""

    def __init__(self, parsed: ParsedFile, options: ChunkOptions, filepath: str | None):
        self.parsed = parsed
        self.options = options
        self.filepath = filepath
        self.regions = parsed.regions
        self._starts = [region.start for region in self.regions]
        self._builders: dict[int, ContextBuilding] = {}
        self._current: ContextBuilding | None = None
        self._cell_starts = [cell.start for cell in parsed.cells]

    def builder(self, region: Region) -> ContextBuilding:
        key = id(region)
        found = self._builders.get(key)
        if found is None:
            structure = region_structure(region) if self.options.context_mode != "none" else None
            found = self._builders[key] = make_context_builder(region.parsed, self.options, self.filepath, structure)
        return found

    def covering(self, start: int, end: int) -> list[Region]:
        """The regions a byte range holds text of, in order."""
        first = max(0, bisect_right(self._starts, start) - 1)
        found = []
        for region in self.regions[first:]:
            if region.start >= end:
                break
            if region.end > start:
                found.append(region)
        return found

    def region_at(self, start: int, end: int) -> Region | None:
        """The region with the most non-whitespace text of ``[start, end)`` (None outside every region)."""
        covered = self.covering(start, end)
        if len(covered) <= 1:
            return covered[0] if covered else None
        nws = self.parsed.source.nws
        return max(covered, key=lambda r: nws(max(start, r.start), min(end, r.end)))

    def context_for(self, start: int, end: int) -> ChunkContext:
        covered = [r for r in self.covering(start, end) if self.parsed.source.nws(max(start, r.start), min(end, r.end))]
        covered = covered or self.covering(start, end)
        embedded = [r for r in covered if r.embedded]
        # One region, or one piece of code with the container's text around it (a code block
        # and its fences): the code's context, in its language. Several: all their entities.
        main = covered[0] if len(covered) == 1 else embedded[0] if len(embedded) == 1 else None
        if main is not None:
            builder = self._current = self.builder(main)
            ctx = builder.context_for(start, end)
        else:
            ctx = self._merged(covered, start, end)
        ctx.regions = tuple(self._region_entry(r) for r in covered)
        if self.parsed.cells:
            ctx.cells = self._cells(start, end)
        return ctx

    def _merged(self, covered: list[Region], start: int, end: int) -> ChunkContext:
        """The context of a chunk of several whole regions: their entities and imports."""
        outer = next((r for r in covered if not r.embedded), covered[0])
        self._current = self.builder(outer)
        entities: list[EntityEntry] = []
        imports: list[ImportEntry] = []
        parse_error: ParseErrorEntry | None = None
        seen: set[tuple[str, str]] = set()
        for region in covered:
            part = self.builder(region).context_for(max(start, region.start), min(end, region.end))
            entities += part.entities
            for info in part.imports:
                key = (info.name, info.source)
                if key not in seen:
                    seen.add(key)
                    imports.append(info)
            if parse_error is None:
                parse_error = part.parse_error
        described = self.options.context_mode != "none"
        return ChunkContext(self.filepath if described else None, self.parsed.language if described else None,
                            described, (), tuple(entities), (), tuple(imports), parse_error)

    def _region_entry(self, region: Region) -> RegionEntry:
        first, last = self.parsed.source.line_range(region.start, region.end)
        return RegionEntry(region.label, region.language, region.embedded, Range(first, last), region.note)

    def _cells(self, start: int, end: int) -> tuple[CellEntry, ...]:
        """The cells a chunk holds source of: index, kind, and the lines and code points of
        the cell's source it holds (0-based; lines inclusive, code points end-exclusive)."""
        src = self.parsed.source
        out = []
        first = max(0, bisect_right(self._cell_starts, start) - 1)
        for cell in self.parsed.cells[first:]:
            if cell.start >= end:
                break
            lo, hi = max(start, cell.start), min(end, cell.end)
            if lo >= hi:
                continue
            first_line, last_line = src.line_range(lo, hi)
            out.append(CellEntry(
                cell.index, cell.kind, Range(first_line - cell.first_line, last_line - cell.first_line),
                Range(src.char_offset(lo) - cell.char_start, src.char_offset(hi) - cell.char_start),
            ))
        return tuple(out)

    def _last(self) -> ContextBuilding:
        return self._current if self._current is not None else self.builder(self.regions[0])

    def contextualize(self, context: ChunkContext, text: str, overlap_text: str) -> str:
        return self._last().contextualize(context, text, overlap_text)

    # What engine/fit.py asks of a builder, answered in the language of the last chunk's region.
    def header_parts(self, context: ChunkContext) -> list[tuple[str, str]]:
        return self._last().header_parts(context)

    def compose(self, header: list[str], overlap_text: str, text: str) -> str:
        return self._last().compose(header, overlap_text, text)

    def chunk_strategy(self, start: int, end: int) -> tuple[Strategy, str | None]:
        """``(strategy, fallback reason)`` of a chunk: its main region's."""
        region = self.region_at(start, end)
        if region is None or region.parsed.tree is not None:
            return "ast", None
        return "lines", region.note or region.parsed.fallback


def region_marks(parsed: ParsedFile) -> list[tuple[int, str, bool]]:
    """Where each notebook cell and each embedded region starts (a byte offset), a short note
    naming it (``cell 3 · code · python``, ``python · ```python``), and whether it starts a
    cell: what a source view marks. Empty cells are left out (nothing of them is shown)."""
    marks: list[tuple[int, str, bool]] = []
    cell_starts = set()
    for cell in parsed.cells:
        if cell.end > cell.start:
            cell_starts.add(cell.start)
            language = f" · {cell.language}" if cell.language and cell.kind == "code" else ""
            marks.append((cell.start, f"cell {cell.index} · {cell.kind}{language}", True))
    for region in parsed.regions:
        if region.embedded and region.start not in cell_starts:
            label = region.label if region.cell is None else region.label.split(" ", 2)[-1]
            marks.append((region.start, f"{region.language or 'no grammar'} · {label}", False))
    marks.sort(key=lambda mark: mark[0])
    return marks


def describe_regions(parsed: ParsedFile) -> str:
    """One line on what a container holds: ``12 cells (python 7); outputs left out`` (the
    code cells by language) or ``3 embedded regions: python 2, bash 1`` (empty for other files)."""
    embedded: dict[str, int] = {}
    for region in parsed.regions:
        if region.embedded:
            name = region.language or "no grammar"
            embedded[name] = embedded.get(name, 0) + 1
    parts = ", ".join(f"{name} {count}" for name, count in sorted(embedded.items(), key=lambda kv: -kv[1]))
    if parsed.cells:
        return f"{len(parsed.cells)} cells" + (f" ({parts})" if parts else "") + "; outputs left out"
    if not parsed.regions:
        return ""
    total = sum(embedded.values())
    return f"{total} embedded region{'s' if total != 1 else ''}" + (f": {parts}" if parts else "")
