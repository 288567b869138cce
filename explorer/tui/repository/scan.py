"""Scanning the explored directory for chunking problems, in a worker, a batch of files at a time.

The directory is walked as every command walks it (.gitignore, excludes, size cap);
the files go to the engine's batch runner (a process pool, as the sweep's), whose
workers chunk each file and find its problems (:func:`explorer.engine.measure.analyzers.analyze_problems`),
sending back only the problems. A file unchanged since a scan with the same parameters is
answered from the results cache (:mod:`explorer.workspace.results_cache`), so the second
start on a repository lists every row at once. The scan posts what finished every
:data:`POST_EVERY` seconds, so rows appear as files finish without flooding the UI
with one message per file.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from textual.message import Message

from explorer.engine.batch import BatchFile, BatchResult
from explorer.engine.measure.analyzers import analyze_problems
from explorer.engine.measure.problems import FileProblems
from explorer.engine.options import ChunkOptions
from explorer.workspace.results_cache import ResultsCache
from explorer.workspace.walk import WalkOptions, plan

from .messages import RepositoryScanned
from .model import ScannedFile

#: Seconds between two batches of finished files sent to the screen.
POST_EVERY = 0.1


def scan(
    root: str, walk: WalkOptions | None, options: ChunkOptions, jobs: int | None, generation: int,
    post: Callable[[Message], object], cancelled: Callable[[], bool],
) -> None:
    """Walk ``root``, chunk every file with ``options`` (or read its problems from the results
    cache) and post its problems in batches."""
    cache = ResultsCache.default()
    files_plan = plan([root], walk, root=root)
    total = len(files_plan.files)
    batch = [BatchFile(path=f.path, name=f.rel, size=f.size) for f in files_plan.files]
    found: list[ScannedFile] = []
    failed: list[tuple[str, str]] = []
    last_post = time.monotonic()

    def finished(done: int, _total: int | None, result: BatchResult) -> None:
        # Called as each file finishes (in any order): rows appear without waiting for the
        # files before them, as the stream's input order would.
        nonlocal found, failed, last_post
        walked = files_plan.files[result.index]
        if result.ok and isinstance(result.analysis, FileProblems):
            found.append(ScannedFile.of(walked.path, walked.rel, result.analysis))
        elif not result.not_text:  # binary files are not code: left out silently, as the walk does
            failed.append((walked.rel, result.error or "failed"))
        if time.monotonic() - last_post >= POST_EVERY:
            post(RepositoryScanned(found, failed, done, total, generation))
            found, failed, last_post = [], [], time.monotonic()

    stream = cache.stream(batch, jobs=jobs, on_progress=finished, analyze=analyze_problems, keep_chunks=False,
                          options=options)
    try:
        for _ in stream:
            if cancelled():
                return
    finally:
        stream.close()  # stops the pool when leaving early
    if not cancelled():
        post(RepositoryScanned(found, failed, total, total, generation, finished=True))
