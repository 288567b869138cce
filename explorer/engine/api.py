"""The public chunking API: chunk, chunk_file, chunk_stream, Chunker, languages."""

from __future__ import annotations

import gc
import os
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

from .cancel import Cancelled, ShouldStop
from .chunker import Span, iter_spans
from .context import ContextBuilding, make_context_builder
from .fit import Fitter, Room, fitted
from .languages import CONTAINERS, GRAMMARS, NOTEBOOK, UNSAFE_GRAMMARS, extensions_for
from .model import Chunk, Range
from .options import ChunkOptions, Strategy
from .parse import ParsedFile, parse_source
from .regions import RegionContextBuilder, region_spans
from .structure import FileStructure, structure_level
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
    structure: FileStructure | None = None,
    spans: Iterable[Span] | None = None,
    total: int | None = None,
    should_stop: ShouldStop | None = None,
) -> Iterator[Chunk]:
    """Chunks of an already parsed file, built lazily (``total=None`` gives ``total_chunks=-1``).

    When sizes are checked on the final text (``fit="embedded"``, or any fit in tokens:
    see engine/fit.py), a file's chunks are all made before the first is yielded (a chunk
    over the limit makes the file be chunked again) and ``spans`` is not used."""
    builder, regions = _builders(parsed, options, structure)
    if fitted(options):
        yield from _fitted_chunks(parsed, options, builder, regions, should_stop)
        return
    make = _ChunkMaker(parsed, options, builder, None, regions)
    for index, span in enumerate(spans_of(parsed, options) if spans is None else spans):
        made = make(index, span, total)
        assert isinstance(made, Chunk)  # without a fitter, every chunk is made
        yield made


def _builders(
    parsed: ParsedFile, options: ChunkOptions, structure: FileStructure | None = None
) -> tuple[ContextBuilding, RegionContextBuilder | None]:
    """The file's context builder, and the same when it is a container's (None otherwise)."""
    # A container file (Markdown, a component, a notebook) is chunked region by region.
    regions = RegionContextBuilder(parsed, options, parsed.path) if parsed.regions else None
    return regions or make_context_builder(parsed, options, parsed.path, structure), regions


def room_for(parsed: ParsedFile, options: ChunkOptions, structure: FileStructure | None = None) -> Room:
    """The room the chunker gives code in ``parsed`` under ``options``, by where a chunk
    starts (:class:`~explorer.engine.fit.Room`): what "a definition fits" is judged by."""
    return Room(parsed, options, lambda: _builders(parsed, options, structure)[0])


def _fitted_chunks(
    parsed: ParsedFile,
    options: ChunkOptions,
    builder: ContextBuilding,
    regions: RegionContextBuilder | None,
    should_stop: ShouldStop | None,
) -> list[Chunk]:
    fitter = Fitter(parsed, options, builder)
    while True:
        make = _ChunkMaker(parsed, options, builder, fitter, regions)
        chunks: list[Chunk] = []
        for span in spans_of(parsed, options, limits=fitter.limit_at):
            made = make(len(chunks), span, -1)
            if not isinstance(made, Chunk):
                code_size, text = made
                fitter.penalize(span.start, code_size, text)
                break  # and chunk the file again, with less room on that line
            chunks.append(made)
            if should_stop is not None and len(chunks) % CANCEL_CHECK_EVERY == 0 and should_stop():
                raise Cancelled
        else:
            for made in chunks:
                made.total_chunks = len(chunks)
            return chunks


class _ChunkMaker:
    """Makes the chunks of one file from its spans, in order (each chunk's overlap comes
    from the one before). With a fitter, a chunk whose code alone is over the limit is not
    made: the call returns the code's exact size and text instead."""

    def __init__(
        self,
        parsed: ParsedFile,
        options: ChunkOptions,
        builder: ContextBuilding,
        fitter: Fitter | None,
        regions: RegionContextBuilder | None = None,
    ):
        src = parsed.source
        self.src, self.builder, self.fitter, self.regions = src, builder, fitter, regions
        self.overlap = options.overlap_lines if options.context_mode != "none" else 0
        self.strategy: Strategy = "lines" if parsed.tree is None else "ast"
        self.fallback = parsed.fallback
        measure = options.measure
        self.unit = measure.unit
        self.size, self.nws, self.measure = measure.sizer(src), src.sizer("nws"), measure.text
        #: Token counts of the chunks (with a tokenizer, in any unit).
        self.counter = measure.counter
        self.tokens = measure.tokens
        #: The code's size is exact in every unit: in tokens, the sizer's count where counts
        #: add up (see engine/sizing.py), else the count of the chunk's text.
        self.count_text = measure.tokens and not measure.clean_joins
        self.size_is_nws = measure.unit == "nws"
        self.max_size = options.max_size
        self.previous = ""
        self.byte_at = self.char_at = 0  # where the previous chunk ended, in bytes and code points

    def __call__(self, index: int, span: Span, total: int | None) -> Chunk | tuple[int, str]:
        src = self.src
        start, end = span.start, span.end
        if src.is_ascii:
            char_start, char_end = start, end
            text = src.text[start:end]
        else:
            # Chunks follow one another: count their code points from their bytes
            # (decoding is cheaper than listing every multi-byte run of the file).
            char_start = self.char_at if start == self.byte_at else src.char_offset(start)
            text = src.data[start:end].decode("utf-8", "surrogatepass")
            char_end = char_start + len(text)
        previous, overlap = self.previous, self.overlap
        overlap_text = last_lines(previous, overlap) if overlap and previous else ""
        context = self.builder.context_for(start, end)
        tokens, counter, fitter = self.tokens, self.counter, self.fitter
        size = self.measure(text) if self.count_text else self.size(start, end)
        if tokens and size > self.max_size:
            return size, text  # token counts merge across lines: the chunker's estimate fell short
        if fitter is not None and fitter.embedded:
            fit = fitter.fit(context, text, overlap_text, size, code_exact=tokens)
            if fit is None:
                return size, text
            contextualized, embedded_size, overlap_text = fit
        else:
            contextualized = self.builder.contextualize(context, text, overlap_text)
            if fitter is not None:
                embedded_size = fitter.exact(contextualized, text, size)
            else:
                # The header and overlap come before the text, and the unit is additive
                # (tokens always have a fitter): only they are left to measure.
                extra = len(contextualized) - len(text)
                embedded_size = size + (self.measure(contextualized[:extra]) if extra else 0)
        nws_size = size if self.size_is_nws else self.nws(start, end)
        token_count = embedded_tokens = None
        if counter is not None:
            token_count = size if tokens else counter.count(text)
            embedded_tokens = embedded_size if tokens else counter.count(contextualized)
        first_line, last_line = src.line_range(start, end)
        self.previous, self.byte_at, self.char_at = text, end, char_end
        strategy, fallback = self.strategy, self.fallback
        if self.regions is not None:
            strategy, fallback = self.regions.chunk_strategy(start, end)
        return Chunk(
            text=text,
            contextualized_text=contextualized,
            byte_range=Range(start, end),
            char_range=Range(char_start, char_end),
            line_range=Range(first_line, last_line),
            size=size,
            size_unit=self.unit,
            nws=nws_size,
            index=index,
            total_chunks=-1 if total is None else total,
            context=context,
            split_start=span.split_start,
            split_end=span.split_end,
            strategy=strategy,
            fallback_reason=fallback,
            overlap_text=overlap_text,
            embedded_size=embedded_size,
            tokenizer=counter.name if counter is not None else None,
            tokens=token_count,
            embedded_tokens=embedded_tokens,
        )


def spans_of(
    parsed: ParsedFile, options: ChunkOptions, limits: Callable[[int], int] | None = None
) -> Iterator[Span]:
    """The chunk spans of a parsed file: by its tree, or region by region for a container;
    ``limits``: the room a chunk's header leaves for code, by where it starts (engine/fit.py)."""
    if parsed.regions:
        return region_spans(parsed, options, limits)
    return iter_spans(parsed, options, limits=limits)


#: Spans (then chunks) made between two calls of a ``should_stop`` check (about 10 ms).
CANCEL_CHECK_EVERY = 1000

#: Files from this size on are chunked with the cyclic GC paused (below, pausing costs more than it saves).
GC_PAUSE_BYTES = 1 << 16


def chunk_parsed(
    parsed: ParsedFile,
    options: ChunkOptions,
    *,
    structure: FileStructure | None = None,
    should_stop: ShouldStop | None = None,
) -> list[Chunk]:
    """All chunks of a parsed file; the TUI calls this to re-chunk without re-parsing.
    ``should_stop`` is asked every few milliseconds; when it says so, the work stops
    with :class:`~explorer.engine.cancel.Cancelled` (a thread cannot be interrupted otherwise)."""
    # Millions of short-lived pieces on huge files: cyclic GC passes would only cost.
    paused = len(parsed.source.data) >= GC_PAUSE_BYTES and gc.isenabled()
    if paused:
        gc.disable()
    try:
        if fitted(options):
            return list(iter_chunks(parsed, options, structure=structure, should_stop=should_stop))
        spans = _checked(spans_of(parsed, options), should_stop)
        return _checked(
            iter_chunks(parsed, options, structure=structure, spans=spans, total=len(spans)), should_stop
        )
    finally:
        if paused:
            gc.enable()


def _checked(items: Iterable[_T], should_stop: ShouldStop | None) -> list[_T]:
    if should_stop is None:
        return list(items)
    out: list[_T] = []
    for item in items:
        out.append(item)
        if len(out) % CANCEL_CHECK_EVERY == 0 and should_stop():
            raise Cancelled
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
