"""The local runner: a batch on this machine's cores, in a process pool.

Parsing holds the GIL, so threads would not help: tasks of files (see
:func:`~explorer.engine.batch.task.tasks_of`) go to worker processes, a window of them
in flight (one running and one queued per worker). A worker that dies takes no other
file down with it: the unfinished files are rerun one at a time in a fresh pool, so
only the file that kills a worker is marked failed.

Workers end with the process that started them, however it ends (even SIGKILL): the
parent-death signal on Linux, a thread watching the parent's id everywhere. They hold
neither its stdout nor the descriptors it keeps to itself (:func:`~.descriptors.kept_from_workers`).
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Generator, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any

from .descriptors import PARENT_ONLY
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
    errored,
    tasks_of,
)


def run_here(inputs: Iterator[BatchFile], total: int | None, settings: BatchSettings,
             on_progress: ProgressCallback | None) -> Generator[BatchResult, None, None]:
    for index, job in enumerate(inputs):
        (result,) = chunk_task([job], settings)
        result.index = index
        if on_progress is not None:
            on_progress(index + 1, total, result)
        yield result


def _pool_context() -> multiprocessing.context.BaseContext:
    """fork where it is safe (one thread: nothing to inherit half-locked) since workers
    then start instantly with the engine already imported; forkserver otherwise (the
    explorer calls this from a thread), spawn where neither exists."""
    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    if "forkserver" in methods:
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["explorer.engine.api", "explorer.engine.batch.task"])
        return context
    return multiprocessing.get_context("spawn")


#: How often (seconds) a worker checks that the process that started it is still there.
PARENT_CHECK_SECONDS = 1.0
_PR_SET_PDEATHSIG = 1


def _init_worker(parent: int | None, parent_only: frozenset[int]) -> None:
    # Ctrl-C is the parent's to handle; workers are shut down by it.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for fd in parent_only:  # only set with fork: the descriptors of the parent itself
        with contextlib.suppress(OSError):
            os.close(fd)
    _detach_stdout()
    _die_with(parent)


def _detach_stdout() -> None:
    """Workers never write the output: a worker left holding the parent's stdout would
    keep a reader from ever seeing its end."""
    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.close(devnull)


def _die_with(parent: int | None) -> None:
    """End this worker when ``parent`` ends, however it ends (SIGKILL, the OOM killer):
    the kernel's parent-death signal on Linux, and everywhere a thread that notices the
    parent is gone (re-parented workers get another parent id). None: the parent is a
    forkserver, which itself ends with the process that started it."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError, TypeError):
            libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if parent is None:
        parent = os.getppid()
    elif os.getppid() != parent:  # the parent died before the signal was asked for
        os._exit(1)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


@dataclass(slots=True)
class _Pool:
    jobs: int
    context: Any = field(default_factory=_pool_context)
    executor: ProcessPoolExecutor | None = None

    def get(self) -> ProcessPoolExecutor:
        if self.executor is None:
            method = self.context.get_start_method()
            # Only a forked worker has the parent's descriptors to close.
            parent_only = frozenset(PARENT_ONLY) if method == "fork" else frozenset()
            parent = None if method == "forkserver" else os.getpid()
            self.executor = ProcessPoolExecutor(self.jobs, mp_context=self.context, initializer=_init_worker,
                                                initargs=(parent, parent_only))
        return self.executor

    def close(self) -> None:
        """Stop the workers and wait for them: an executor left to the interpreter's exit
        may print ``Exception ignored ... Bad file descriptor`` from its manager thread."""
        if self.executor is not None:
            executor, self.executor = self.executor, None
            executor.shutdown(wait=True, cancel_futures=True)


def run_pool(inputs: Iterator[BatchFile], total: int | None, settings: BatchSettings,
             on_progress: ProgressCallback | None, jobs: int) -> Generator[BatchResult, None, None]:
    pool = _Pool(jobs)
    window = jobs * 2  # tasks in flight: one running and one queued per worker
    results_in_order = InOrder(total, on_progress, window * TASK_FILES * 2)
    feed = TaskFeed(tasks_of(inputs, total, jobs), window, results_in_order)
    finish = results_in_order.finish
    inflight: dict[Future[list[BatchResult]], Task] = {}

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
            for task in feed.more(inflight.__len__):
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
                        results = [errored(job.label, exc, time.perf_counter()) for _, job in task]
                    for (index, _), result in zip(task, results):
                        finish(index, result)
                if suspects:
                    recover(suspects)
            yield from results_in_order.ready()
    finally:
        pool.close()


def _run_isolated(pool: _Pool, job: BatchFile, settings: BatchSettings) -> BatchResult:
    started = time.perf_counter()
    try:
        (result,) = pool.get().submit(chunk_task, [job], settings).result()
        return result
    except BrokenProcessPool:
        pool.close()
        return crashed(job.label, started)
    except Exception as exc:
        return errored(job.label, exc, started)
