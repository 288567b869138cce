"""Background jobs where the latest request wins: the one piece every computing worker of the explorer uses.

Loading a file, re-chunking it, tracing for teach mode, the compare view, the sweep,
the retrieval evaluation, the repository scan, the finder's file list and the exports
all recompute when the user asks again, possibly while the previous run is still going
(only the directory watcher, which runs as long as the app, is a worker of its own). Each request gets a generation number; the
messages a run posts carry it, and handlers ignore those :meth:`LatestJob.is_current`
rejects. Thread workers cannot be interrupted, so the computation gets a probe
(:class:`JobRun`) to stop early, and a cancelled run posts nothing.

Two policies: *exclusive* (the default) cancels the run in flight; *coalesce* lets it
finish and runs only the newest of the requests made meanwhile (re-chunking: every
finished run is a valid picture, and cancelling would show nothing while keys repeat).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

from textual.dom import DOMNode
from textual.message import Message
from textual.worker import Worker, get_current_worker

from .failures import describe_failure

Result = TypeVar("Result")


class JobRun:
    """What a computation gets: call it to learn whether the run was cancelled; ``post``
    sends a message (progress, say) stamped by the caller with ``generation``."""

    def __init__(self, owner: DOMNode, generation: int, cancelled: Callable[[], bool]):
        self.owner = owner
        self.generation = generation
        self._cancelled = cancelled

    def __call__(self) -> bool:
        return self._cancelled()

    def post(self, message: Message) -> None:
        """Post ``message`` to the owner unless the run was cancelled (thread-safe)."""
        if not self._cancelled():
            self.owner.post_message(message)


Compute = Callable[[JobRun], Result | None]


class LatestJob(Generic[Result]):
    """Runs ``compute(run)`` in a thread worker of ``owner`` and posts ``ready(result, generation)``
    or ``failed(reason, generation)``. A result of None (stopped early, or the computation
    posted its own messages) posts nothing; so does a cancelled run. Without ``failed`` an
    exception is left to the worker (the computation reports its own failures)."""

    def __init__(
        self,
        owner: DOMNode,
        group: str,
        ready: Callable[[Result, int], Message] | None = None,
        failed: Callable[[str, int], Message] | None = None,
        *,
        coalesce: bool = False,
    ):
        self.owner = owner
        self.group = group
        self.ready = ready
        self.failed = failed
        self.coalesce = coalesce
        #: Bumped for every request; messages of older requests are stale.
        self.generation = 0
        #: Requests up to this generation were forgotten (see :meth:`forget`).
        self._floor = 0
        self._in_flight: int | None = None
        self._pending: tuple[Compute[Result], str, str, int] | None = None
        #: The worker of the latest run started (None before the first).
        self.worker: Worker[None] | None = None

    def start(self, compute: Compute[Result], description: str, *, name: str | None = None) -> int:
        """Run ``compute`` in a worker; returns its generation. Exclusive: the previous run is
        cancelled. Coalescing: if a run is in flight, this one waits and replaces any waiting one."""
        self.generation += 1
        if self.coalesce and self._in_flight is not None:
            self._pending = (compute, description, name or self.group, self.generation)
        else:
            self._launch(compute, description, name or self.group, self.generation)
        return self.generation

    def _launch(self, compute: Compute[Result], description: str, name: str, generation: int) -> None:
        if self.coalesce:
            self._in_flight = generation

        def work() -> None:
            worker = get_current_worker()
            run = JobRun(self.owner, generation, lambda: worker.is_cancelled)
            try:
                result = compute(run)
            except Exception as error:  # shown to the user; the screen stays open
                if self.failed is None:
                    raise
                run.post(self.failed(describe_failure(error), generation))
                return
            if result is not None and self.ready is not None:
                run.post(self.ready(result, generation))

        self.worker = self.owner.run_worker(work, name=name, group=self.group, exclusive=not self.coalesce, thread=True,
                                            exit_on_error=False, description=description)

    def is_current(self, generation: int) -> bool:
        """Whether a message of ``generation`` answers the latest request."""
        return generation == self.generation

    def is_fresh(self, generation: int) -> bool:
        """Whether ``generation`` was requested after the last :meth:`forget`."""
        return generation > self._floor

    def finished(self, generation: int) -> None:
        """Coalescing: the handler of a run's last message says it ended; the newest waiting
        request starts."""
        if generation == self._in_flight:
            self._in_flight = None
            if self._pending is not None:
                compute, description, name, pending = self._pending
                self._pending = None
                self._launch(compute, description, name, pending)

    def cancel(self) -> None:
        """Stop the run in flight (its thread stops at its next look at the probe); any message
        it still posts is stale."""
        self.generation += 1
        self.owner.workers.cancel_group(self.owner, self.group)

    def forget(self) -> None:
        """Drop the waiting request and stop waiting for the one in flight: their results are
        no longer wanted (the input they worked on was replaced)."""
        self._floor = self.generation
        self._pending = None
        self._in_flight = None

    @property
    def busy(self) -> bool:
        """A run is in flight or waiting (coalescing jobs only know this)."""
        return self._in_flight is not None or self._pending is not None
