"""Reading, parsing and chunking a file for the views: the steps the loading worker runs.

No Textual here: the document service runs these in its workers, and teach mode and
the compare view reuse them for files of their own.
"""

from __future__ import annotations

import time

from explorer.engine.api import chunk_parsed
from explorer.engine.cancel import ShouldStop
from explorer.engine.files import read_chunked_file
from explorer.engine.languages import detect_language
from explorer.engine.measure.problems import find_problems
from explorer.engine.options import ChunkOptions
from explorer.engine.parse import ParsedFile, parse_source
from explorer.engine.structure import FileStructure, extract_structure
from explorer.engine.text import SourceText
from explorer.workspace.paths import display_path

from .lexer import lexer_for
from .model import Chunking, ChunkLayout, ChunkStats, Document, LoadedFile, longest_line

#: Files larger than this are never opened, not even "anyway" (the walker's limit is far below it).
MAX_FILE_BYTES = 64 * 1024 * 1024
#: The parser reads this many bytes at a time, letting the UI thread run in between.
PARSE_READ_BYTES = 32 * 1024


def structure_of(parsed: ParsedFile) -> FileStructure | None:
    """Entities and scope tree of a parsed file; None if extraction fails (the file
    is still shown and chunked, only the scope pane stays empty)."""
    try:
        return extract_structure(parsed)
    except Exception:
        return None


def read_source(path: str, max_bytes: int = MAX_FILE_BYTES) -> SourceText:
    """Read a regular file chunking at most ``max_bytes`` (a notebook: its cells' text; never writing to it, never blocking on a
    pipe or device); raises UnreadableFileError (and other OSError), BinaryContentError."""
    return SourceText(read_chunked_file(path, min(max_bytes, MAX_FILE_BYTES)), path)


def parse_file(path: str, source: SourceText, options: ChunkOptions, root: str | None = None) -> LoadedFile:
    """Parse and extract structure. Chunks name the file relative to ``root`` (as the CLI does)."""
    started = time.perf_counter()
    name = display_path(path, root)
    parsed = parse_source(source, name, options.language, strategy=options.strategy, yield_every=PARSE_READ_BYTES)
    structure = structure_of(parsed)
    parse_ms = (time.perf_counter() - started) * 1000
    # A notebook is shown as its cells' sources: highlighted in its code cells' language.
    language = next((cell.language for cell in parsed.cells if cell.kind == "code" and cell.language), parsed.language)
    lexer = lexer_for(path, language)
    return LoadedFile(path, parsed, structure, options, parse_ms, longest_line(parsed.source), lexer)


def load_file(path: str, options: ChunkOptions, root: str | None = None) -> LoadedFile:
    """Read and parse a file that is not the open one (teach mode on a sample, say)."""
    return parse_file(path, read_source(path), options, root)


def preview_file(path: str, source: SourceText, options: ChunkOptions, root: str | None = None) -> LoadedFile:
    """The file before parsing: its text, highlighted, with no tree and no chunks yet."""
    name = display_path(path, root)
    language = options.language or detect_language(name, source.data[:256])
    parsed = ParsedFile(source, name, language, None, fallback="parsing…")
    return LoadedFile(path, parsed, None, options, 0.0, longest_line(source), lexer_for(path, language), partial=True)


def preview_document(file: LoadedFile, options: ChunkOptions, generation: int) -> Document:
    chunking = Chunking(options, (), ChunkLayout.of((), file.source), ChunkStats.of((), options), 0.0)
    return Document(file, chunking, generation)


def chunk_file(file: LoadedFile, options: ChunkOptions, should_stop: ShouldStop | None = None) -> Chunking:
    """Chunk a loaded file; raises Cancelled soon after ``should_stop()`` turns true."""
    started = time.perf_counter()
    chunks = tuple(chunk_parsed(file.parsed, options, structure=file.structure, should_stop=should_stop))
    chunk_ms = (time.perf_counter() - started) * 1000
    problems = find_problems(file.parsed, chunks, options)  # flagged in the chunk list, walked with n/p
    return Chunking(options, chunks, ChunkLayout.of(chunks, file.source), ChunkStats.of(chunks, options), chunk_ms,
                    problems)
