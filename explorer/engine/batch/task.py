"""What both batch runners share: the inputs and results, the work on one task of files
(run in a worker process, a Ray worker, or here), grouping files into tasks, and
handing results out in input order.

The runners (:mod:`.local` on local processes, :mod:`.ray` on Ray) only
schedule :func:`chunk_task` calls and recover from dead workers; the front
(:mod:`explorer.engine.batch`) checks the arguments and picks one. A file that fails becomes a
result with an error kind (below); the batch itself never fails.
"""

from __future__ import annotations

import contextlib
import math
import signal
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from types import FrameType
from typing import Any

from ..containers.notebook import NotebookError
from ..files import DEFAULT_MAX_BYTES, UnreadableFileError, read_chunked_file
from ..languages import GRAMMARS, UNSAFE_GRAMMARS, detect_language, get_parser
from ..model import Chunk
from ..options import ChunkOptions
from ..parse import ParsedFile, UnsupportedLanguageError
from ..text import BinaryContentError
from .skips import SkipReason

#: Error kinds. ``binary`` and ``undecodable`` mean "not a text file": callers that
#: walk a codebase report those as skipped rather than failed, under the same code.
BINARY, UNDECODABLE = SkipReason.BINARY, SkipReason.UNDECODABLE
READ, OPTIONS, UNSUPPORTED, CRASH, ERROR, TIMEOUT = "read", "options", "unsupported", "crash", "error", "timeout"
NOT_TEXT = frozenset({BINARY, UNDECODABLE})

#: A task holds consecutive files up to this many, or up to this many bytes (a larger
#: file is a task of its own): enough to amortise the round trip to a worker, small
#: enough that every worker gets several tasks.
TASK_FILES = 32
TASK_BYTES = 1 << 20

#: Called in the worker after chunking: ``analyze(parsed, chunks, options, seconds)``;
#: its (picklable) return value lands in ``BatchResult.analysis``. Must be a
#: module-level function so it can be sent to worker processes.
Analyzer = Callable[[ParsedFile, list[Chunk], ChunkOptions, dict[str, float]], Any]
#: ``on_progress(completed, total, result)``; ``total`` is None for unsized inputs.
ProgressCallback = Callable[[int, "int | None", "BatchResult"], object]  # the return value is ignored


@dataclass(slots=True)
class BatchFile:
    """One input. Read from ``path`` unless ``code`` is given; ``name`` (default:
    ``path``) is the file path used for language detection, in chunk contexts and in
    the result. ``options`` override the batch options for this file. ``size`` (bytes, a
    hint such as the walker's) helps group small files into tasks."""

    path: str | None = None
    code: str | bytes | None = None
    name: str | None = None
    options: Mapping[str, Any] | None = None
    size: int | None = None

    @property
    def label(self) -> str:
        return self.name if self.name is not None else (self.path or "<code>")

    def size_hint(self) -> int | None:
        if self.code is not None:
            return len(self.code)
        return self.size


@dataclass(slots=True)
class BatchResult:
    path: str
    language: str | None
    chunks: list[Chunk] | None
    error: str | None = None
    error_kind: str | None = None
    bytes: int = 0
    seconds: float = 0.0  # reading, parsing and chunking, in the worker
    analysis: Any = None
    index: int = 0  # position in the input
    #: Parts of the file left out of its chunks, each with why (``ParsedFile.skipped``).
    skipped: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return self.error is None

    @property
    def not_text(self) -> bool:
        """Binary or undecodable content: a file to skip rather than a failure."""
        return self.error_kind in NOT_TEXT

    def to_dict(self) -> dict[str, Any]:
        record: dict[str, Any] = {"path": self.path, "language": self.language}
        if self.error is not None:
            record["error"] = {"kind": self.error_kind, "message": self.error}
        else:
            record["chunks"] = [c.to_dict() for c in self.chunks or ()]
            if self.skipped:
                record["skipped"] = list(self.skipped)
        return record


@dataclass(frozen=True, slots=True)
class BatchSettings:
    """What every file of a batch is chunked with (sent once per task to a worker)."""

    options: ChunkOptions
    analyze: Analyzer | None = None
    keep_chunks: bool = True
    timeout: float | None = None  # seconds per file
    max_bytes: int | None = DEFAULT_MAX_BYTES  # files read from disk larger than this fail


# -- the work on one file (runs in a worker process, a Ray worker, or here) -----------
class FileTimeoutError(Exception):
    """Raised (by a timer signal) in the worker when a file takes longer than allowed."""


def chunk_one(job: BatchFile, options: ChunkOptions, analyze: Analyzer | None = None,
              keep_chunks: bool = True, *, timeout: float | None = None,
              max_bytes: int | None = DEFAULT_MAX_BYTES) -> BatchResult:
    started = time.perf_counter()
    result = BatchResult(job.label, None, None)
    try:
        with _time_limit(timeout):
            return _chunk_one(job, options, analyze, keep_chunks, max_bytes, result, started)
    except FileTimeoutError:
        return timed_out(job.label, timeout, started)


def timed_out(label: str, timeout: float | None, started: float) -> BatchResult:
    return _failed(BatchResult(label, None, None), TIMEOUT,
                   f"gave up after {timeout:g} s (timeout per file)", started)


def _chunk_one(job: BatchFile, options: ChunkOptions, analyze: Analyzer | None, keep_chunks: bool,
               max_bytes: int | None, result: BatchResult, started: float) -> BatchResult:
    # The chunker is loaded by the first file chunked: a run with nothing to chunk (an
    # unchanged --state) never loads it.
    from ..api import chunk_parsed, parse

    label = job.label
    try:
        opts = ChunkOptions.build(options, **job.options) if job.options else options
    except (TypeError, ValueError) as exc:
        return _failed(result, OPTIONS, str(exc), started)
    try:
        data = read_source(job, max_bytes)
        result.bytes = len(data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data)
        _warm_up(label, data, opts)
        t0 = time.perf_counter()
        parsed = parse(label, data, opts)
        t1 = time.perf_counter()
        result.language = parsed.language
        result.skipped = parsed.skipped
        chunks = chunk_parsed(parsed, opts)
        t2 = time.perf_counter()
        if analyze is not None:
            result.analysis = analyze(parsed, chunks, opts, {"parse": t1 - t0, "chunk": t2 - t1})
        result.chunks = chunks if keep_chunks else []
    except BinaryContentError as exc:
        kind = BINARY if "NUL" in exc.reason else UNDECODABLE
        return _failed(result, kind, f"not a text file ({exc.reason})", started)
    except UnsupportedLanguageError as exc:
        return _failed(result, UNSUPPORTED, str(exc), started)
    except NotebookError as exc:  # (the report names the file)
        return _failed(result, UNSUPPORTED, f"not a readable notebook ({exc.reason})", started)
    except OSError as exc:
        return _failed(result, READ, read_error_message(label, exc), started)
    except RecursionError:
        return _failed(result, ERROR, "RecursionError: nesting too deep (a bug: please report it)", started)
    except FileTimeoutError:
        raise
    except Exception as exc:  # a bug in the engine must not stop the batch
        return _failed(result, ERROR, f"{type(exc).__name__}: {exc}", started)
    result.seconds = time.perf_counter() - started
    return result


def read_source(job: BatchFile, max_bytes: int | None) -> str | bytes:
    """The file's content: ``code`` as given, or the file read by the safe reader."""
    if job.code is not None:
        return job.code
    if job.path is None:
        raise UnreadableFileError(job.label, "neither a path nor code was given")
    return read_chunked_file(job.path, max_bytes)


def read_error_message(label: str, exc: OSError) -> str:
    if isinstance(exc, UnreadableFileError):
        detail = f" ({exc.detail})" if exc.detail else ""
        return f"cannot read {label}: {exc.reason}{detail}"
    return f"cannot read {label}: {exc.strerror or exc}"


def read_failed(label: str, exc: OSError) -> BatchResult:
    """The result of a file that could not be read (where it is read: worker or driver)."""
    return _failed(BatchResult(label, None, None), READ, read_error_message(label, exc), time.perf_counter())


@contextlib.contextmanager
def _time_limit(seconds: float | None) -> Iterator[None]:
    """Raise :class:`FileTimeoutError` in this thread after ``seconds``. A timer signal
    interrupts Python code anywhere; it works in the main thread only (where workers run
    their tasks), and elsewhere the caller's own deadline is the limit."""
    usable = hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
    if seconds is None or not usable:
        yield
        return

    def expired(signum: int, frame: FrameType | None) -> None:
        raise FileTimeoutError

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def chunk_task(task: Sequence[BatchFile], settings: BatchSettings) -> list[BatchResult]:
    """A worker's unit of work: several files, each with its own errors and time limit."""
    results = []
    for job in task:
        started = time.perf_counter()
        try:
            result = chunk_one(job, settings.options, settings.analyze, settings.keep_chunks,
                               timeout=settings.timeout, max_bytes=settings.max_bytes)
        except FileTimeoutError:  # the timer fired just as the file finished
            result = timed_out(job.label, settings.timeout, started)
        results.append(result)
    return results


def _warm_up(label: str, data: str | bytes, options: ChunkOptions) -> None:
    """Load the grammar before the clock starts: a worker's first file of a language
    would otherwise carry the one-time loading cost in its throughput figure."""
    head = data[:256] if isinstance(data, bytes) else data[:256].encode("utf-8", "surrogatepass")
    language = options.language or detect_language(label, head)
    if language in GRAMMARS and language not in UNSAFE_GRAMMARS and options.strategy == "ast":
        get_parser(language)


def errored(label: str, exc: BaseException, started: float) -> BatchResult:
    """The result of a file whose task raised outside the engine (e.g. an analysis result
    that cannot be pickled back from the worker)."""
    return _failed(BatchResult(label, None, None), ERROR, f"{type(exc).__name__}: {exc}", started)


def _failed(result: BatchResult, kind: str, message: str, started: float) -> BatchResult:
    result.chunks = None
    result.error_kind = kind
    result.error = message
    result.seconds = time.perf_counter() - started
    return result



# -- grouping files into tasks, and results back in order --------------------------------
Task = list[tuple[int, BatchFile]]


def tasks_of(inputs: Iterator[BatchFile], total: int | None, jobs: int) -> Iterator[Task]:
    """Consecutive files grouped into tasks (see :data:`TASK_FILES`); a small batch is cut
    finer so that every worker gets a share."""
    most = TASK_FILES if total is None else max(1, min(TASK_FILES, math.ceil(total / (jobs * 4))))
    task: Task = []
    size = 0
    for index, job in enumerate(inputs):
        hint = job.size_hint()
        if task and hint is not None and size + hint > TASK_BYTES:
            yield task
            task, size = [], 0
        task.append((index, job))
        size += hint or 0
        if len(task) >= most or size >= TASK_BYTES:
            yield task
            task, size = [], 0
    if task:
        yield task


class InOrder:
    """Results that finish in any order, handed out in input order, with progress counted
    as they finish. ``full`` says when enough wait behind a slow file that no more work
    should be sent (the parent's memory stays bounded by this window)."""

    def __init__(self, total: int | None, on_progress: ProgressCallback | None, max_held: int) -> None:
        self.total = total
        self.on_progress = on_progress
        self.max_held = max_held
        self.held: dict[int, BatchResult] = {}
        self.next_out = 0
        self.completed = 0

    def finish(self, index: int, result: BatchResult) -> None:
        result.index = index
        self.held[index] = result
        self.completed += 1
        if self.on_progress is not None:
            self.on_progress(self.completed, self.total, result)

    @property
    def full(self) -> bool:
        return len(self.held) >= self.max_held

    @property
    def waiting(self) -> bool:
        return bool(self.held)

    def ready(self) -> Iterator[BatchResult]:
        """The results next in order, as far as they are there."""
        while self.next_out in self.held:
            yield self.held.pop(self.next_out)
            self.next_out += 1


def crashed(label: str, started: float) -> BatchResult:
    return _failed(BatchResult(label, None, None), CRASH,
                   "the worker process died while chunking this file (a crash in a parser?)", started)


class TaskFeed:
    """The tasks of a batch handed to a runner while it has room for one more: fewer than
    ``window`` tasks in flight, and ``results`` not full of results waiting for a slow one."""

    def __init__(self, tasks: Iterator[Task], window: int, results: InOrder) -> None:
        self.tasks = tasks
        self.window = window
        self.results = results
        self.exhausted = False

    def more(self, in_flight: Callable[[], int]) -> Iterator[Task]:
        """The next tasks to send; ``in_flight()`` counts the tasks sent and not finished."""
        while not self.exhausted and in_flight() < self.window and not self.results.full:
            task = next(self.tasks, None)
            if task is None:
                self.exhausted = True
                return
            yield task
