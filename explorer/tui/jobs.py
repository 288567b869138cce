"""One computation at a time per screen, in a thread worker; only the latest request answers.

Teach mode (tracing), the compare view and the sweep panel each recompute when a
parameter changes, possibly while the previous run is still going. Each request
gets a generation number; the worker posts a Ready or Failed message carrying it,
and the screen's handlers ignore any message that :meth:`LatestJob.is_current`
rejects. Thread workers cannot be interrupted, so the computation is given a
``cancelled()`` probe to stop early, and a cancelled run posts nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

from textual.message import Message
from textual.widget import Widget
from textual.worker import get_current_worker

from .workers import describe_failure

Result = TypeVar("Result")


class LatestJob(Generic[Result]):
    """Runs ``compute(cancelled)`` for ``owner`` and posts ``ready(result, generation)`` or
    ``failed(reason, generation)``; a result of None (stopped early) posts nothing."""

    def __init__(
        self,
        owner: Widget,
        group: str,
        ready: Callable[[Result, int], Message],
        failed: Callable[[str, int], Message],
    ):
        self.owner = owner
        self.group = group
        self.ready = ready
        self.failed = failed
        #: Bumped for every request; messages of older requests are stale.
        self.generation = 0

    def start(self, compute: Callable[[Callable[[], bool]], Result | None], description: str) -> int:
        """Run ``compute`` in a worker (cancelling the previous run); returns its generation."""
        self.generation += 1
        generation = self.generation

        def work() -> None:
            worker = get_current_worker()
            try:
                result = compute(lambda: worker.is_cancelled)
            except Exception as error:  # shown to the user; the screen stays open
                if not worker.is_cancelled:
                    self.owner.post_message(self.failed(describe_failure(error), generation))
                return
            if result is not None and not worker.is_cancelled:
                self.owner.post_message(self.ready(result, generation))

        self.owner.run_worker(work, name=self.group, group=self.group, exclusive=True, thread=True,
                              exit_on_error=False, description=description)
        return generation

    def is_current(self, generation: int) -> bool:
        """Whether a message of ``generation`` answers the latest request."""
        return generation == self.generation
