"""The public chunking API: chunk, chunk_file, chunk_stream, Chunker, languages."""

from __future__ import annotations

import gc
import os
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

from .chunker import Span, iter_spans
from .context import make_context_builder
from .languages import CONTAINERS, GRAMMARS, NOTEBOOK, UNSAFE_GRAMMARS, extensions_for
from .model import Chunk, Range
from .options import ChunkOptions
from .parse import ParsedFile, parse_source
from .regions import RegionContextBuilder, region_spans
from .text import SourceText, last_lines

_T = TypeVar("_T")


def parse(filepath: str | os.PathLike[str] | None, code: str | bytes, options: ChunkOptions) -> ParsedFile:
    """Decode (bytes are checked for binary content) and parse with the options' language/strategy."""
    path = os.fspath(filepath) if filepath is not None else None  # a Path is welcome; chunks carry a str
    source = SourceText(code, path)
    return parse_source(source, path, options.language, strategy=options.strategy, strict=options.strict)


def iter_chunks(
    parsed: ParsedFile,
    options: ChunkOptions,
    *,
    structure: Any = None,
    spans: Iterable[Span] | None = None,
    total: int | None = None,
) -> Iterator[Chunk]:
    """Chunks of an already parsed file, built lazily (``total=None`` gives ``total_chunks=-1``)."""
    src = parsed.source
    # A container file (Markdown, a component, a notebook) is chunked region by region.
    regions = RegionContextBuilder(parsed, options, parsed.path) if parsed.regions else None
    builder = regions or make_context_builder(parsed, options, parsed.path, structure)
    fallback = parsed.fallback
    overlap = options.overlap_lines if options.context_mode != "none" else 0
    strategy = "lines" if parsed.tree is None else "ast"
    unit = options.size_unit
    size, nws = src.sizer(unit), src.sizer("nws")
    char_offset = src.char_offset
    ascii, data, whole = src.is_ascii, src.data, src.text
    previous = ""
    byte_at = char_at = 0  # where the previous chunk ended, in bytes and code points
    for index, span in enumerate(spans_of(parsed, options) if spans is None else spans):
        start, end = span.start, span.end
        if ascii:
            char_start, char_end = start, end
            text = whole[start:end]
        else:
            # Chunks follow one another: count their code points from their bytes
            # (decoding is cheaper than listing every multi-byte run of the file).
            char_start = char_at if start == byte_at else char_offset(start)
            text = data[start:end].decode("utf-8", "surrogatepass")
            char_end = char_start + len(text)
            byte_at, char_at = end, char_end
        overlap_text = last_lines(previous, overlap) if overlap and previous else ""
        context = builder.context_for(start, end)
        first_line, last_line = src.line_range(start, end)
        nws_size = nws(start, end)
        if regions is not None:
            strategy, fallback = regions.chunk_strategy(start, end)
        yield Chunk(
            text=text,
            contextualized_text=builder.contextualize(context, text, overlap_text),
            byte_range=Range(start, end),
            char_range=Range(char_start, char_end),
            line_range=Range(first_line, last_line),
            size=nws_size if unit == "nws" else size(start, end),
            size_unit=unit,
            nws=nws_size,
            index=index,
            total_chunks=-1 if total is None else total,
            context=context,
            split_start=span.split_start,
            split_end=span.split_end,
            strategy=strategy,
            fallback_reason=fallback,
            overlap_text=overlap_text,
        )
        previous = text


def spans_of(parsed: ParsedFile, options: ChunkOptions) -> Iterator[Span]:
    """The chunk spans of a parsed file: by its tree, or region by region for a container."""
    return region_spans(parsed, options) if parsed.regions else iter_spans(parsed, options)


class ChunkingCancelled(Exception):
    """Raised by :func:`chunk_parsed` when its ``is_cancelled`` check says to stop."""


#: Spans (then chunks) made between two calls of an ``is_cancelled`` check (about 10 ms).
CANCEL_CHECK_EVERY = 1000

#: Files from this size on are chunked with the cyclic GC paused (below, pausing costs more than it saves).
GC_PAUSE_BYTES = 1 << 16


def chunk_parsed(
    parsed: ParsedFile,
    options: ChunkOptions,
    *,
    structure: Any = None,
    is_cancelled: Callable[[], bool] | None = None,
) -> list[Chunk]:
    """All chunks of a parsed file; the TUI calls this to re-chunk without re-parsing.
    ``is_cancelled`` is asked every few milliseconds; when it says so, the work stops
    with :class:`ChunkingCancelled` (a thread cannot be interrupted otherwise)."""
    # Millions of short-lived pieces on huge files: cyclic GC passes would only cost.
    paused = len(parsed.source.data) >= GC_PAUSE_BYTES and gc.isenabled()
    if paused:
        gc.disable()
    try:
        spans = _checked(spans_of(parsed, options), is_cancelled)
        return _checked(
            iter_chunks(parsed, options, structure=structure, spans=spans, total=len(spans)), is_cancelled
        )
    finally:
        if paused:
            gc.enable()


def _checked(items: Iterable[_T], is_cancelled: Callable[[], bool] | None) -> list[_T]:
    if is_cancelled is None:
        return list(items)
    out: list[_T] = []
    for item in items:
        out.append(item)
        if len(out) % CANCEL_CHECK_EVERY == 0 and is_cancelled():
            raise ChunkingCancelled
    return out


def _options(base: ChunkOptions | None, overrides: dict[str, Any]) -> ChunkOptions:
    return ChunkOptions.build(base, **overrides) if overrides or base is None else base


def chunk(filepath: str | None, code: str | bytes, **options: Any) -> list[Chunk]:
    """Chunk source code. ``code`` may be ``str`` or ``bytes``; options are the
    fields of :class:`ChunkOptions` (invalid ones raise ``ValueError``)."""
    opts = _options(None, options)
    return chunk_parsed(parse(filepath, code, opts), opts)


def chunk_stream(filepath: str | None, code: str | bytes, **options: Any) -> Iterator[Chunk]:
    """Yield chunks as they are produced (``total_chunks`` is -1)."""
    opts = _options(None, options)
    yield from iter_chunks(parse(filepath, code, opts), opts)


def chunk_file(path: str | os.PathLike[str], **options: Any) -> list[Chunk]:
    """Read a file (never writing to it) and chunk it."""
    with open(path, "rb") as handle:
        data = handle.read()
    return chunk(os.fspath(path), data, **options)


class Chunker:
    """Reusable options; per-call keyword options override them."""

    def __init__(self, options: ChunkOptions | None = None, **overrides: Any):
        self.options = _options(options, overrides)

    def chunk(self, filepath: str | None, code: str | bytes, **overrides: Any) -> list[Chunk]:
        opts = _options(self.options, overrides)
        return chunk_parsed(parse(filepath, code, opts), opts)

    def stream(self, filepath: str | None, code: str | bytes, **overrides: Any) -> Iterator[Chunk]:
        opts = _options(self.options, overrides)
        yield from iter_chunks(parse(filepath, code, opts), opts)

    def chunk_file(self, path: str | os.PathLike[str], **overrides: Any) -> list[Chunk]:
        with open(path, "rb") as handle:
            data = handle.read()
        return self.chunk(os.fspath(path), data, **overrides)


def languages() -> list[dict[str, Any]]:
    """Every language: its chunking level and structure level, and the file names it is detected by.

    ``chunking`` is ``ast`` for every grammar in the pack (``lines`` for the few whose
    parser is unsafe); ``structure`` is ``full`` (entities, signatures, docstrings,
    imports) or ``generic`` (definitions found by node kind and ``name`` field).
    A container (Markdown, the component formats, HTML, notebooks) also says what it
    ``contains``: the regions chunked by their own grammar.
    """
    from .structure import structure_level

    rows = []
    for name in (*GRAMMARS, NOTEBOOK):
        unsafe = name in UNSAFE_GRAMMARS
        rows.append(
            {
                "name": name,
                "chunking": "lines" if unsafe else "ast",
                "structure": "none" if unsafe else "regions" if name == NOTEBOOK else structure_level(name),
                "extensions": extensions_for(name),
                **({"note": UNSAFE_GRAMMARS[name]} if unsafe else {}),
                **({"contains": CONTAINERS[name]} if name in CONTAINERS else {}),
            }
        )
    return rows
