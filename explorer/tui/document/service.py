"""The document service: reading, parsing and chunking the open file off the UI thread
(the steps are :mod:`.load`'s).

Workers compute and post messages; the app's handlers apply the results. Both jobs
are :class:`~explorer.tui.jobs.LatestJob`s with their own worker group (``open``,
``chunk``), so one never cancels the other. A load is exclusive (a newer load
cancels it); re-chunking is coalesced: while one run is in flight, further requests
only replace the pending options, and the newest runs next.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from explorer.engine.cancel import Cancelled
from explorer.engine.files import FileTooLargeError
from explorer.engine.options import ChunkOptions
from explorer.engine.text import SourceText

from ..failures import describe_failure
from ..jobs import JobRun, LatestJob
from .load import MAX_FILE_BYTES, chunk_file, parse_file, preview_document, preview_file, read_source
from .messages import ChunkingFailed, ChunksReady, FileOpened, FileOpenFailed
from .model import Document, LoadedFile

if TYPE_CHECKING:
    from textual.app import App

#: From this size on, a file's text is shown before it is parsed and chunked.
PREVIEW_BYTES = 256 * 1024
#: Longest wait (seconds) for the UI to draw a preview before parsing starts.
PREVIEW_WAIT = 1.0


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
        except Cancelled:
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
        except Cancelled:
            return
        except Exception as error:
            self.app.post_message(ChunkingFailed(describe_failure(error), generation, run.generation))
            return
        self.app.post_message(ChunksReady(chunking, generation, run.generation))
