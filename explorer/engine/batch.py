"""Chunking many files: in parallel processes, results in input order, errors per file.

Parsing holds the GIL, so threads would not help: files go to a process pool (or, with
``engine="ray"``, to a Ray cluster: :mod:`explorer.engine.ray_batch`). Small files travel
in tasks of several files, so a worker spends its time chunking rather than waiting for
the next file. Results come back in the order the files were given; ``on_progress`` is
called in completion order. A file that fails (unreadable, binary, a bug, a time-out, even a
worker process that dies) becomes a result with an error; the batch itself never fails.
The parent holds at most a window of results: memory does not grow with the batch.

    results = explorer.chunk_batch(["a.py", ("b.ts", source)], jobs=4, max_size=1000)
    for result in explorer.chunk_batch_stream(paths):
        ...

Heavy per-file work (quality measures, JSON encoding) belongs in ``analyze``: it runs in
the worker, and only its return value comes back.
"""

from __future__ import annotations

import contextlib
import math
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping, Sequence, Sized
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from types import FrameType
from typing import Any

from .containers.notebook import NotebookError
from .files import DEFAULT_MAX_BYTES, UnreadableFileError, read_regular_file
from .model import Chunk
from .options import ChunkOptions
from .parse import ParsedFile, UnsupportedLanguageError
from .text import BinaryContentError

#: Error kinds. ``binary`` and ``undecodable`` mean "not a text file": callers that
#: walk a codebase report those as skipped rather than failed.
BINARY, UNDECODABLE, READ, OPTIONS, UNSUPPORTED, CRASH, ERROR, TIMEOUT = (
    "binary", "undecodable", "read", "options", "unsupported", "crash", "error", "timeout",
)
NOT_TEXT = frozenset({BINARY, UNDECODABLE})
ENGINES = ("local", "ray")

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
        return record


@dataclass(frozen=True, slots=True)
class BatchSettings:
    """What every file of a batch is chunked with (sent once per task to a worker)."""

    options: ChunkOptions
    analyze: Analyzer | None = None
    keep_chunks: bool = True
    timeout: float | None = None  # seconds per file
    max_bytes: int | None = DEFAULT_MAX_BYTES  # files read from disk larger than this fail


def default_jobs() -> int:
    """The cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def chunk_batch(
    files: Iterable[Any],
    *,
    jobs: int | None = None,
    on_progress: ProgressCallback | None = None,
    analyze: Analyzer | None = None,
    keep_chunks: bool = True,
    timeout: float | None = None,
    max_bytes: int | None = DEFAULT_MAX_BYTES,
    engine: str = "local",
    ray_address: str | None = None,
    shared_storage: bool = False,
    **options: Any,
) -> list[BatchResult]:
    """Chunk every file; results in input order. ``files`` items are paths,
    ``(filepath, code)`` or ``(filepath, code, options)`` tuples, or :class:`BatchFile`.
    ``jobs``: worker processes (default: all cores; 1 runs in this process).
    ``timeout``: seconds a file may take before it is given up as a ``timeout`` error.
    ``max_bytes``: files read from disk larger than this are a ``read`` error.
    ``engine="ray"`` runs on a Ray cluster (``ray_address``: ``"auto"`` joins a running
    one, None starts a local one); file contents are read here and shipped, unless
    ``shared_storage=True`` says the workers see the same paths.
    Invalid options raise ``ValueError`` at once; anything going wrong with a file
    is reported in its result."""
    return list(
        chunk_batch_stream(files, jobs=jobs, on_progress=on_progress, analyze=analyze, keep_chunks=keep_chunks,
                           timeout=timeout, max_bytes=max_bytes, engine=engine, ray_address=ray_address,
                           shared_storage=shared_storage, **options)
    )


def chunk_batch_stream(
    files: Iterable[Any],
    *,
    jobs: int | None = None,
    on_progress: ProgressCallback | None = None,
    analyze: Analyzer | None = None,
    keep_chunks: bool = True,
    timeout: float | None = None,
    max_bytes: int | None = DEFAULT_MAX_BYTES,
    engine: str = "local",
    ray_address: str | None = None,
    shared_storage: bool = False,
    **options: Any,
) -> Generator[BatchResult, None, None]:
    """Like :func:`chunk_batch`, yielding each result as soon as it and every result
    before it are ready. Stopping early (``close()``) cancels the remaining work."""
    base = options.pop("options", None)
    opts = ChunkOptions.build(base, **options)  # invalid options fail here, not per file
    if jobs is not None and int(jobs) < 1:
        raise ValueError(f"jobs must be >= 1, not {jobs}")
    if timeout is not None and not timeout > 0:
        raise ValueError(f"timeout must be a positive number of seconds, not {timeout!r}")
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {', '.join(ENGINES)}, not {engine!r}")
    settings = BatchSettings(opts, analyze, keep_chunks, timeout, max_bytes)
    total = len(files) if isinstance(files, Sized) else None
    inputs = (_as_batch_file(item) for item in files)
    if engine == "ray":
        from .ray_batch import run_ray  # Ray is imported only when asked for

        return run_ray(inputs, total, settings, on_progress, jobs=jobs, address=ray_address,
                       shared_storage=shared_storage)
    jobs = default_jobs() if jobs is None else int(jobs)
    if jobs == 1 or (total is not None and total <= 1):
        return _run_here(inputs, total, settings, on_progress)
    return _run_pool(inputs, total, settings, on_progress, jobs)


def _as_batch_file(item: Any) -> BatchFile:
    if isinstance(item, BatchFile):
        return item
    if isinstance(item, (str, os.PathLike)):
        return BatchFile(path=os.fspath(item))
    if isinstance(item, tuple) and len(item) in (2, 3):
        name = os.fspath(item[0]) if item[0] is not None else None
        return BatchFile(code=item[1], name=name, options=item[2] if len(item) == 3 else None)
    if isinstance(item, Mapping):
        return BatchFile(path=item.get("path"), code=item.get("code"),
                         name=item.get("filepath", item.get("name")), options=item.get("options"))
    raise TypeError(f"a batch item must be a path, (filepath, code) or BatchFile, not {type(item).__name__}")


# -- the work on one file (runs in a worker process, or here with jobs=1) -------------
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
    from .api import chunk_parsed, parse  # the engine proper; imported late for lean workers

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
    return read_regular_file(job.path, max_bytes)


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
    from .languages import GRAMMARS, UNSAFE_GRAMMARS, detect_language, get_parser

    head = data[:256] if isinstance(data, bytes) else data[:256].encode("utf-8", "surrogatepass")
    language = options.language or detect_language(label, head)
    if language in GRAMMARS and language not in UNSAFE_GRAMMARS and options.strategy == "ast":
        get_parser(language)


def _failed(result: BatchResult, kind: str, message: str, started: float) -> BatchResult:
    result.chunks = None
    result.error_kind = kind
    result.error = message
    result.seconds = time.perf_counter() - started
    return result


# -- running -----------------------------------------------------------------------------
def _run_here(inputs: Iterator[BatchFile], total: int | None, settings: BatchSettings,
              on_progress: ProgressCallback | None) -> Generator[BatchResult, None, None]:
    for index, job in enumerate(inputs):
        (result,) = chunk_task([job], settings)
        result.index = index
        if on_progress is not None:
            on_progress(index + 1, total, result)
        yield result


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


def _pool_context() -> multiprocessing.context.BaseContext:
    """fork where it is safe (one thread: nothing to inherit half-locked) since workers
    then start instantly with the engine already imported; forkserver otherwise (the
    explorer calls this from a thread), spawn where neither exists."""
    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    if "forkserver" in methods:
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["explorer.engine.api", "explorer.engine.batch"])
        return context
    return multiprocessing.get_context("spawn")


def _init_worker() -> None:
    # Ctrl-C is the parent's to handle; workers are shut down by it.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@dataclass(slots=True)
class _Pool:
    jobs: int
    context: Any = field(default_factory=_pool_context)
    executor: ProcessPoolExecutor | None = None

    def get(self) -> ProcessPoolExecutor:
        if self.executor is None:
            self.executor = ProcessPoolExecutor(self.jobs, mp_context=self.context, initializer=_init_worker)
        return self.executor

    def close(self) -> None:
        """Stop the workers and wait for them: an executor left to the interpreter's exit
        may print ``Exception ignored ... Bad file descriptor`` from its manager thread."""
        if self.executor is not None:
            executor, self.executor = self.executor, None
            executor.shutdown(wait=True, cancel_futures=True)


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


def _run_pool(inputs: Iterator[BatchFile], total: int | None, settings: BatchSettings,
              on_progress: ProgressCallback | None, jobs: int) -> Generator[BatchResult, None, None]:
    pool = _Pool(jobs)
    window = jobs * 2  # tasks in flight: one running and one queued per worker
    tasks = tasks_of(inputs, total, jobs)
    results_in_order = InOrder(total, on_progress, window * TASK_FILES * 2)
    finish = results_in_order.finish
    inflight: dict[Future[list[BatchResult]], Task] = {}
    exhausted = False

    def recover(suspects: list[Task]) -> None:
        # A worker died. Every unfinished file is a suspect: rerun them one at a time in
        # a fresh pool, so only the file that kills a worker is marked failed.
        files = [item for task in suspects + list(inflight.values()) for item in task]
        inflight.clear()
        pool.close()
        for index, job in sorted(files, key=lambda s: s[0]):
            finish(index, _run_isolated(pool, job, settings))

    try:
        while True:
            while not exhausted and len(inflight) < window and not results_in_order.full:
                task = next(tasks, None)
                if task is None:
                    exhausted = True
                    break
                try:
                    future = pool.get().submit(chunk_task, [job for _, job in task], settings)
                except BrokenProcessPool:  # broke since the last wait: this task never ran
                    recover([task])
                    continue
                inflight[future] = task
            if not inflight and not results_in_order.waiting:
                break
            if inflight:
                done, _ = wait(list(inflight), return_when=FIRST_COMPLETED)
                suspects: list[Task] = []
                for future in done:
                    task = inflight.pop(future)
                    try:
                        results = future.result()
                    except BrokenProcessPool:
                        suspects.append(task)
                        continue
                    except Exception as exc:  # e.g. an analysis result that cannot be pickled
                        results = [_failed(BatchResult(job.label, None, None), ERROR,
                                           f"{type(exc).__name__}: {exc}", time.perf_counter()) for _, job in task]
                    for (index, _), result in zip(task, results):
                        finish(index, result)
                if suspects:
                    recover(suspects)
            yield from results_in_order.ready()
    finally:
        pool.close()


def crashed(label: str, started: float) -> BatchResult:
    return _failed(BatchResult(label, None, None), CRASH,
                   "the worker process died while chunking this file (a crash in a parser?)", started)


def _run_isolated(pool: _Pool, job: BatchFile, settings: BatchSettings) -> BatchResult:
    started = time.perf_counter()
    try:
        (result,) = pool.get().submit(chunk_task, [job], settings).result()
        return result
    except BrokenProcessPool:
        pool.close()
        return crashed(job.label, started)
    except Exception as exc:
        return _failed(BatchResult(job.label, None, None), ERROR, f"{type(exc).__name__}: {exc}", started)


# -- analyzers for quality measures (module-level, so worker processes can receive them) --
def analyze_metrics(parsed: ParsedFile, chunks: list[Chunk], options: ChunkOptions,
                    seconds: dict[str, float]) -> Any:
    """The file's quality measures (:func:`explorer.engine.metrics.measure_file`)."""
    from .metrics import measure_file

    return measure_file(parsed, chunks, options, seconds=seconds)


def analyze_metrics_with_lines(parsed: ParsedFile, chunks: list[Chunk], options: ChunkOptions,
                               seconds: dict[str, float]) -> Any:
    """``(measures, line-packing baseline measures)``: the baseline chunks the same
    source by packing lines and is measured against the same syntax tree."""
    from dataclasses import replace

    from .api import chunk_parsed
    from .metrics import measure_file

    lines_options = replace(options, strategy="lines")
    started = time.perf_counter()
    baseline = chunk_parsed(replace(parsed, tree=None, fallback="lines strategy"), lines_options)
    baseline_seconds = {"chunk": time.perf_counter() - started}
    return (
        measure_file(parsed, chunks, options, seconds=seconds),
        measure_file(parsed, baseline, lines_options, seconds=baseline_seconds),
    )
