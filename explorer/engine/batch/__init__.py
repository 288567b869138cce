"""Chunking many files: in parallel processes, results in input order, errors per file.

The front of the batch: it checks the arguments and hands the work to a runner, the
local process pool (:mod:`explorer.engine.batch.local`) or, with ``engine="ray"``, a Ray
cluster (:mod:`explorer.engine.batch.ray`); both run the same tasks
(:mod:`explorer.engine.batch.task`). Small files travel in tasks of several files, so a
worker spends its time chunking rather than waiting for the next file. Results come back
in the order the files were given; ``on_progress`` is called in completion order. A file
that fails (unreadable, binary, a bug, a time-out, even a worker process that dies)
becomes a result with an error; the batch itself never fails. The parent holds at most a
window of results: memory does not grow with the batch.

    results = explorer.chunk_batch(["a.py", ("b.ts", source)], jobs=4, max_size=1000)
    for result in explorer.chunk_batch_stream(paths):
        ...

Heavy per-file work (quality measures, JSON encoding) belongs in ``analyze``: it runs in
the worker, and only its return value comes back (:mod:`explorer.engine.measure.analyzers`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping, Sized
from typing import TYPE_CHECKING, Any

from ..files import DEFAULT_MAX_BYTES
from ..options import ChunkOptions
from .descriptors import kept_from_workers

if TYPE_CHECKING:
    from .task import (
        BINARY,
        CRASH,
        ERROR,
        NOT_TEXT,
        OPTIONS,
        READ,
        TASK_BYTES,
        TASK_FILES,
        TIMEOUT,
        UNDECODABLE,
        UNSUPPORTED,
        Analyzer,
        BatchFile,
        BatchResult,
        ProgressCallback,
        tasks_of,
    )

__all__ = [
    "BINARY", "CRASH", "ENGINES", "ERROR", "NOT_TEXT", "OPTIONS", "READ", "TASK_BYTES", "TASK_FILES", "TIMEOUT",
    "UNDECODABLE", "UNSUPPORTED", "Analyzer", "BatchFile", "BatchResult", "ProgressCallback", "chunk_batch",
    "as_batch_file", "checked_options", "chunk_batch_stream", "default_jobs", "kept_from_workers", "run_jobs",
    "tasks_of", "BatchRunner",
]

#: The names of :mod:`.task` this package gives, imported on first use: the parser, the
#: grammars and the worker pool load only when files are chunked (a run that finds nothing
#: to chunk, as an unchanged ``--state`` run, never needs them).
_FROM_TASK = frozenset({"BINARY", "CRASH", "ERROR", "NOT_TEXT", "OPTIONS", "READ", "TASK_BYTES", "TASK_FILES",
                        "TIMEOUT", "UNDECODABLE", "UNSUPPORTED", "Analyzer", "BatchFile", "BatchResult",
                        "ProgressCallback", "tasks_of"})


def __getattr__(name: str) -> Any:
    if name not in _FROM_TASK:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from . import task

    value = getattr(task, name)
    globals()[name] = value  # found once: later lookups do not come here
    return value

#: What runs a batch for a caller: :func:`chunk_batch_stream` itself, or anything with its
#: signature and results (a results cache that answers the files it already knows).
BatchRunner = Callable[..., "Iterator[BatchResult]"]


#: The runners ``engine=`` chooses from.
ENGINES = ("local", "ray")


#: The environment variable that caps the default number of jobs (a served explorer sets
#: it to 1 for its visitors' apps: one core each, and no worker processes to outlive them).
JOBS_VARIABLE = "CHUNK_EXPLORER_JOBS"


def default_jobs() -> int:
    """The cores this process may use, at most ``$CHUNK_EXPLORER_JOBS`` when that is a positive number."""
    try:
        cores = max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        cores = max(1, os.cpu_count() or 1)
    cap = os.environ.get(JOBS_VARIABLE, "").strip()
    return min(cores, int(cap)) if cap.isdigit() and int(cap) > 0 else cores


#: Below this many files a process pool costs more than it saves (when jobs are not given).
POOL_THRESHOLD = 16


def run_jobs(jobs: int | None, files: int, engine: str = "local", ray_address: str | None = None) -> int:
    """The workers a batch of ``files`` files runs with: ``jobs`` when given; otherwise every
    CPU of the Ray cluster (joined, or started, here), or locally one process for a few
    files and every core for more. The export and the incremental run both choose here."""
    if jobs is not None:
        return int(jobs)
    if engine == "ray":
        from .ray import cluster_cpus  # Ray is imported only when asked for

        return cluster_cpus(ray_address)
    return 1 if files < POOL_THRESHOLD else default_jobs()


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
    opts = checked_options(jobs, timeout, engine, **options)
    from .task import BatchSettings

    settings = BatchSettings(opts, analyze, keep_chunks, timeout, max_bytes)
    total = len(files) if isinstance(files, Sized) else None
    inputs = (as_batch_file(item) for item in files)
    if engine == "ray":
        from .ray import run_ray  # Ray is imported only when asked for

        return run_ray(inputs, total, settings, on_progress, jobs=jobs, address=ray_address,
                       shared_storage=shared_storage)
    from .local import run_here, run_pool

    jobs = default_jobs() if jobs is None else int(jobs)
    if jobs == 1 or (total is not None and total <= 1):
        return run_here(inputs, total, settings, on_progress)
    return run_pool(inputs, total, settings, on_progress, jobs)


def checked_options(jobs: int | None = None, timeout: float | None = None, engine: str = "local",
                    **options: Any) -> ChunkOptions:
    """The options of a batch (``options=`` a base, with overrides), once its arguments are
    checked: invalid ones raise ValueError here, before any work, not per file."""
    base = options.pop("options", None)
    opts = ChunkOptions.build(base, **options)
    if jobs is not None and int(jobs) < 1:
        raise ValueError(f"jobs must be >= 1, not {jobs}")
    if timeout is not None and not timeout > 0:
        raise ValueError(f"timeout must be a positive number of seconds, not {timeout!r}")
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {', '.join(ENGINES)}, not {engine!r}")
    return opts


def as_batch_file(item: Any) -> BatchFile:
    """A batch item (see :func:`chunk_batch`) as a :class:`BatchFile`."""
    from .task import BatchFile

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
