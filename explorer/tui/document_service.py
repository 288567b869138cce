"""The document service: reading, parsing and chunking the open file off the UI thread.

Workers compute and post messages; the app's handlers apply the results. Both jobs
are :class:`~explorer.tui.jobs.LatestJob`s with their own worker group (``open``,
``chunk``), so one never cancels the other. A load is exclusive (a newer load
cancels it); re-chunking is coalesced: while one run is in flight, further requests
only replace the pending options, and the newest runs next.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from explorer.engine.api import ChunkingCancelled, chunk_parsed
from explorer.engine.files import FileTooLargeError, read_regular_file
from explorer.engine.languages import detect_language
from explorer.engine.measure.problems import find_problems
from explorer.engine.options import ChunkOptions
from explorer.engine.parse import ParsedFile, parse_source
from explorer.engine.structure import FileStructure, extract_structure
from explorer.engine.text import SourceText

from .failures import describe_failure
from .jobs import JobRun, LatestJob
from .messages import ChunkingFailed, ChunksReady, FileOpened, FileOpenFailed
from .state import Chunking, ChunkLayout, ChunkStats, Document, LoadedFile, display_path, longest_line
from .widgets.source.highlight import lexer_for

if TYPE_CHECKING:
    from textual.app import App

#: Files larger than this are never opened, not even "anyway" (the walker's limit is far below it).
MAX_FILE_BYTES = 64 * 1024 * 1024
#: From this size on, a file's text is shown before it is parsed and chunked.
PREVIEW_BYTES = 256 * 1024
#: The parser reads this many bytes at a time, letting the UI thread run in between.
PARSE_READ_BYTES = 32 * 1024
#: Longest wait (seconds) for the UI to draw a preview before parsing starts.
PREVIEW_WAIT = 1.0


def structure_of(parsed: ParsedFile) -> FileStructure | None:
    """Entities and scope tree of a parsed file; None if extraction fails (the file
    is still shown and chunked, only the scope pane stays empty)."""
    try:
        return extract_structure(parsed)
    except Exception:
        return None


def read_source(path: str, max_bytes: int = MAX_FILE_BYTES) -> SourceText:
    """Read a regular file of at most ``max_bytes`` (never writing to it, never blocking on a
    pipe or device); raises UnreadableFileError (and other OSError), BinaryContentError."""
    return SourceText(read_regular_file(path, min(max_bytes, MAX_FILE_BYTES)), path)


def parse_file(path: str, source: SourceText, options: ChunkOptions, root: str | None = None) -> LoadedFile:
    """Parse and extract structure. Chunks name the file relative to ``root`` (as the CLI does)."""
    started = time.perf_counter()
    name = display_path(path, root) if root else path
    parsed = parse_source(source, name, options.language, strategy=options.strategy, yield_every=PARSE_READ_BYTES)
    structure = structure_of(parsed)
    parse_ms = (time.perf_counter() - started) * 1000
    # A notebook is shown as its cells' sources: highlighted in its code cells' language.
    language = next((cell.language for cell in parsed.cells if cell.kind == "code" and cell.language), parsed.language)
    lexer = lexer_for(path, language)
    return LoadedFile(path, parsed, structure, options, parse_ms, longest_line(parsed.source), lexer)


def preview_file(path: str, source: SourceText, options: ChunkOptions, root: str | None = None) -> LoadedFile:
    """The file before parsing: its text, highlighted, with no tree and no chunks yet."""
    name = display_path(path, root) if root else path
    language = options.language or detect_language(name, source.data[:256])
    parsed = ParsedFile(source, name, language, None, fallback="parsing…")
    return LoadedFile(path, parsed, None, options, 0.0, longest_line(source), lexer_for(path, language), partial=True)


def preview_document(file: LoadedFile, options: ChunkOptions, generation: int) -> Document:
    chunking = Chunking(options, (), ChunkLayout.of((), file.source), ChunkStats.of((), options), 0.0)
    return Document(file, chunking, generation)


def chunk_file(file: LoadedFile, options: ChunkOptions, is_cancelled: Callable[[], bool] | None = None) -> Chunking:
    """Chunk a loaded file; raises ChunkingCancelled soon after ``is_cancelled()`` turns true."""
    started = time.perf_counter()
    chunks = tuple(chunk_parsed(file.parsed, options, structure=file.structure, is_cancelled=is_cancelled))
    chunk_ms = (time.perf_counter() - started) * 1000
    problems = find_problems(file.parsed, chunks, options)  # flagged in the chunk list, walked with n/p
    return Chunking(options, chunks, ChunkLayout.of(chunks, file.source), ChunkStats.of(chunks, options), chunk_ms,
                    problems)


class DocumentService:
    """Starts the workers that load and chunk the open file, for one app."""

    def __init__(self, app: App, root: str | None = None, max_file_bytes: int = MAX_FILE_BYTES):
        self.app = app
        self.root = root
        #: Files over this size are refused (FileOpenFailed with ``too_large``) unless opened anyway.
        self.max_file_bytes = max_file_bytes
        #: Loads post their own messages (a preview first for a big file, then the document).
        self.loading: LatestJob[None] = LatestJob(app, "open")
        #: Chunking runs of the loaded file; each run's generation is the ``run`` of its messages.
        self.chunking: LatestJob[None] = LatestJob(app, "chunk", coalesce=True)

    @property
    def generation(self) -> int:
        """The latest load: results of older loads are stale."""
        return self.loading.generation

    # -- loading ------------------------------------------------------------------------
    def open(self, path: str, options: ChunkOptions, *, reloaded: bool = False, anyway: bool = False) -> int:
        """Read, parse and chunk a file in a worker; posts FileOpened or FileOpenFailed.
        ``anyway`` lifts the size limit (up to MAX_FILE_BYTES)."""
        limit = MAX_FILE_BYTES if anyway else self.max_file_bytes
        return self._start_load(path, partial(self._load, path, None, options, reloaded, limit))

    def reparse(self, file: LoadedFile, options: ChunkOptions) -> int:
        """Parse the already-read source again (a new language or strategy), keeping the view."""
        return self._start_load(file.path, partial(self._load, file.path, file.source, options, True, MAX_FILE_BYTES))

    def _start_load(self, path: str, job: Callable[[JobRun], None]) -> int:
        self.chunking.forget()  # chunkings of the former file are not wanted any more
        name = os.path.basename(path)
        return self.loading.start(job, f"parse and chunk {name}", name=f"open {name}")

    def _load(
        self, path: str, source: SourceText | None, options: ChunkOptions, reloaded: bool, max_bytes: int,
        run: JobRun,
    ) -> None:
        generation = run.generation
        try:
            if source is None:
                source = read_source(path, max_bytes)
                if len(source.data) >= PREVIEW_BYTES:
                    # Parsing a big file takes a while: show its text meanwhile. The parser
                    # holds the GIL, so wait until the UI has drawn the text before parsing.
                    preview = preview_file(path, source, options, self.root)
                    shown = threading.Event()
                    run.post(FileOpened(preview_document(preview, options, generation), reloaded, shown))
                    shown.wait(PREVIEW_WAIT)
                    reloaded = True
            file = parse_file(path, source, options, self.root)
            if run():
                return
            chunking = chunk_file(file, options, run)
        except ChunkingCancelled:
            return  # superseded by a newer load, or the app is quitting
        except Exception as error:  # every failure is shown to the user, none is fatal
            too_large = isinstance(error, FileTooLargeError)
            run.post(FileOpenFailed(path, describe_failure(error), generation, too_large))
            return
        run.post(FileOpened(Document(file, chunking, generation), reloaded))

    # -- re-chunking --------------------------------------------------------------------
    def rechunk(self, file: LoadedFile, options: ChunkOptions) -> None:
        """Chunk the loaded file with new options; coalesces requests made while one runs."""
        self.chunking.start(partial(self._chunk, file, options, self.generation), f"chunk {os.path.basename(file.path)}",
                            name="chunk")

    def chunking_finished(self, run: int) -> None:
        """Called by the handler of ChunksReady/ChunkingFailed: start the newest pending run."""
        self.chunking.finished(run)

    @property
    def busy(self) -> bool:
        return self.chunking.busy

    def _chunk(self, file: LoadedFile, options: ChunkOptions, generation: int, run: JobRun) -> None:
        try:
            # Cancelled when the app quits: the process waits for this thread before it exits.
            chunking = chunk_file(file, options, run)
        except ChunkingCancelled:
            return
        except Exception as error:
            self.app.post_message(ChunkingFailed(describe_failure(error), generation, run.generation))
            return
        self.app.post_message(ChunksReady(chunking, generation, run.generation))
