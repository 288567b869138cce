"""The Ray runner: a batch on a Ray cluster, with the same results, in the same order,
as the local pool (:mod:`explorer.engine.batch.local`).

Nothing here is imported unless ``engine="ray"`` (or :func:`chunk_dataset`) is used, and
Ray itself only then (``pip install 'chunk-explorer[ray]'``).

- Files travel in the same tasks as locally (:func:`explorer.engine.batch.task.tasks_of`),
  each task one Ray task. Their contents are read here and shipped with the task through
  Ray's object store, since a cluster's workers need not see this machine's disk; with
  ``shared_storage=True`` only the paths go, and the workers read them.
- Failure isolation: a task whose worker dies (a crashing parser), or that outlives its
  deadline (per-file ``timeout`` x files + a margin), is cancelled and its files are run
  again one per task, so only the guilty file gets an error and every other file of the
  task still comes out. Within a task, a file over its time limit is stopped by a timer
  in the worker (as locally), and the task goes on.
- The driver holds a window of tasks in flight and of results waiting for an earlier
  one: memory is bounded as locally.

:func:`chunk_dataset` is the Ray Data entry point: ``{path, content}`` rows in, one row per
chunk out (the JSONL record), for pipelines that embed and index without leaving Ray.
"""

from __future__ import annotations

import contextlib
import signal
import threading
import time
from collections.abc import Generator, Iterator
from typing import Any, cast

from ..options import ChunkOptions
from .task import (
    TASK_FILES,
    BatchFile,
    BatchResult,
    BatchSettings,
    InOrder,
    ProgressCallback,
    Task,
    TaskFeed,
    chunk_task,
    crashed,
    read_failed,
    read_source,
    tasks_of,
    timed_out,
)

#: Added to a task's deadline (scheduling, a worker's first imports).
DEADLINE_MARGIN = 30.0


def import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise ImportError("the Ray engine needs Ray: pip install 'chunk-explorer[ray]'") from None
    return ray


#: Whether the Ray this process is connected to was joined or started by :func:`connect`
#: (a batch then shuts it down when it ends), not by the caller's own ``ray.init``.
_connected_here = False


def connect(address: str | None = None, num_cpus: int | None = None) -> bool:
    """Join the cluster at ``address`` (``"auto"``: the running one), or start a local
    one. Returns True when Ray was connected by this module, here or by an earlier call
    (the caller then shuts it down); a Ray the caller initialised is used as it is."""
    global _connected_here
    ray = import_ray()
    if ray.is_initialized():
        return _connected_here
    with _sigterm_kept():
        if address is None:
            ray.init(num_cpus=num_cpus, include_dashboard=False, log_to_driver=False, logging_level="ERROR")
        else:
            ray.init(address=address, log_to_driver=False, logging_level="ERROR")
    _connected_here = True
    return True


def disconnect() -> None:
    """Shut down the Ray :func:`connect` connected (its local cluster, when it started one)."""
    global _connected_here
    if _connected_here:
        _connected_here = False
        import_ray().shutdown()


@contextlib.contextmanager
def _sigterm_kept() -> Iterator[None]:
    """``ray.init`` replaces this process's SIGTERM handler with one that exits at once
    (status 15, after a stack dump on stderr): the caller's handler is put back, so SIGTERM
    ends a Ray run as it ends a local one, through the caller's cleanup (the CLI's
    ``terminated``, exit status 143, Ray shut down on the way out)."""
    if threading.current_thread() is not threading.main_thread():
        yield  # Ray sets no handler from another thread either
        return
    previous = signal.getsignal(signal.SIGTERM)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous if previous is not None else signal.SIG_DFL)


def _cpus(ray: Any) -> int:
    return max(1, int(ray.cluster_resources().get("CPU", 1)))


def cluster_cpus(address: str | None = None) -> int:
    """The CPUs of the cluster at ``address`` (connecting, or starting a local Ray, first:
    the batch that follows shuts it down)."""
    connect(address)
    return _cpus(import_ray())


def run_ray(inputs: Iterator[BatchFile], total: int | None, settings: BatchSettings,
            on_progress: ProgressCallback | None, *, jobs: int | None, address: str | None,
            shared_storage: bool) -> Generator[BatchResult, None, None]:
    ray = import_ray()
    started_here = connect(address, num_cpus=jobs)
    remote_task = ray.remote(num_cpus=1, max_retries=0)(chunk_task)
    parallel = jobs or _cpus(ray)
    window = parallel * 2
    results_in_order = InOrder(total, on_progress, window * TASK_FILES * 2)
    feed = TaskFeed(tasks_of(inputs, total, parallel), window, results_in_order)
    finish = results_in_order.finish
    inflight: dict[Any, tuple[Task, float]] = {}  # ObjectRef -> (task, deadline)

    def submit(task: Task) -> None:
        sendable: Task = []
        for index, job in task:
            try:
                sendable.append((index, _shippable(job, settings, shared_storage)))
            except OSError as exc:  # reported as the worker would have
                finish(index, read_failed(job.label, exc))
        if sendable:
            ref = remote_task.remote([job for _, job in sendable], settings)
            inflight[ref] = (sendable, _deadline(settings, len(sendable)))

    def isolate(task: Task) -> None:
        # The task crashed or hung: each of its files alone, so only the guilty one fails.
        for index, job in task:
            finish(index, _run_alone(ray, remote_task, job, settings, shared_storage))

    try:
        while True:
            for task in feed.more(inflight.__len__):
                submit(task)
            if not inflight and not results_in_order.waiting:
                break
            if inflight:
                first_deadline = min(deadline for _, deadline in inflight.values())
                timeout = None if first_deadline == float("inf") else max(0.0, first_deadline - time.monotonic())
                done, _ = ray.wait(list(inflight), num_returns=1, timeout=timeout)
                for ref in done:
                    task, _ = inflight.pop(ref)
                    try:
                        results = ray.get(ref)
                    except Exception:  # the worker died, or the task could not run: find the file
                        isolate(task)
                        continue
                    for (index, _), result in zip(task, results):
                        finish(index, result)
                now = time.monotonic()
                for ref, (task, deadline) in list(inflight.items()):
                    if now >= deadline:
                        del inflight[ref]
                        ray.cancel(ref, force=True)
                        isolate(task)
            yield from results_in_order.ready()
    finally:
        for ref in inflight:
            ray.cancel(ref, force=True)
        if started_here:
            disconnect()


def _deadline(settings: BatchSettings, files: int) -> float:
    if settings.timeout is None:
        return float("inf")
    return time.monotonic() + settings.timeout * files + DEADLINE_MARGIN


def _shippable(job: BatchFile, settings: BatchSettings, shared_storage: bool) -> BatchFile:
    """The file as a task sends it: its content read here, unless the workers see the same disk."""
    if shared_storage or job.code is not None:
        return job
    return BatchFile(code=read_source(job, settings.max_bytes), name=job.label, options=job.options)


def _run_alone(ray: Any, remote_task: Any, job: BatchFile, settings: BatchSettings,
               shared_storage: bool) -> BatchResult:
    started = time.perf_counter()
    try:
        job = _shippable(job, settings, shared_storage)
    except OSError as exc:
        return read_failed(job.label, exc)
    ref = remote_task.remote([job], settings)
    wait = None if settings.timeout is None else settings.timeout + DEADLINE_MARGIN
    done, _ = ray.wait([ref], num_returns=1, timeout=wait)
    if not done:
        ray.cancel(ref, force=True)
        return timed_out(job.label, settings.timeout, started)
    try:
        (result,) = ray.get(ref)
    except Exception:
        return crashed(job.label, started)
    return cast(BatchResult, result)


# -- Ray Data --------------------------------------------------------------------------------
def chunk_dataset(dataset: Any, *, path_column: str = "path", content_column: str = "content",
                  timeout: float | None = None, **options: Any) -> Any:
    """A Ray Data dataset of ``{path, content}`` rows (content: str or bytes) -> a dataset
    with one row per chunk: the JSONL record ``{"path", "language", **Chunk.to_dict()}``.
    Options as for :func:`explorer.chunk`. A file that cannot be chunked (binary, broken)
    gives no rows; the others are not affected."""
    settings = BatchSettings(ChunkOptions.build(options.pop("options", None), **options), timeout=timeout)
    return dataset.flat_map(_ChunkRows(settings, path_column, content_column))


class _ChunkRows:
    """The row function of :func:`chunk_dataset` (a class, so Ray ships the settings once)."""

    def __init__(self, settings: BatchSettings, path_column: str, content_column: str) -> None:
        self.settings = settings
        self.path_column = path_column
        self.content_column = content_column

    def __call__(self, row: dict[str, Any]) -> list[dict[str, Any]]:
        path = str(row[self.path_column])
        content = row[self.content_column]
        if not isinstance(content, (str, bytes)):
            content = bytes(content)  # arrow binary columns arrive as numpy/bytes-like values
        (result,) = chunk_task([BatchFile(code=content, name=path)], self.settings)
        if not result.ok:
            return []
        return [{"path": path, "language": result.language, **chunk.to_dict()} for chunk in result.chunks or ()]
