"""Running the retrieval evaluation in a thread worker of a widget or screen.

The worker polls its cancellation through the engine's ``should_stop`` (between
files, settings and retrieval steps), posts :class:`RetrievalProgressed` while it
runs and :class:`RetrievalEvaluated` or :class:`RetrievalFailed` at the end, all
stamped with a generation so the owner drops results of a superseded run. A new
run in the same group cancels the previous one; removing the owner cancels it too.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

from textual.dom import DOMNode
from textual.worker import Worker, get_current_worker

from explorer.engine.options import ChunkOptions
from explorer.workspace.walk import WalkOptions

from ..workers import describe_failure
from .messages import RetrievalEvaluated, RetrievalFailed, RetrievalProgressed
from .model import RunProgress, evaluate_directory

GROUP = "retrieval"


def start_evaluation(
    owner: DOMNode,
    root: str,
    settings: Sequence[ChunkOptions],
    generation: int,
    *,
    reference: int = 0,
    current: int | None = None,
    walk: WalkOptions | None = None,
    jobs: int | None = None,
) -> Worker[None]:
    """Evaluate ``settings`` on ``root`` in a worker of ``owner``, which gets the messages."""
    job = partial(_evaluate, owner, root, list(settings), generation, reference, current, walk, jobs)
    return owner.run_worker(job, name="retrieval", group=GROUP, exclusive=True, thread=True, exit_on_error=False,
                            description="evaluate retrieval over the explored directory")


def _evaluate(owner: DOMNode, root: str, settings: list[ChunkOptions], generation: int, reference: int,
              current: int | None, walk: WalkOptions | None, jobs: int | None) -> None:
    worker = get_current_worker()

    def stopped() -> bool:
        return worker.is_cancelled

    def progressed(progress: RunProgress) -> None:
        owner.post_message(RetrievalProgressed(progress, generation))

    try:
        run = evaluate_directory(
            root, settings, reference=reference, current=current, walk=walk, jobs=jobs, should_stop=stopped,
            on_progress=progressed,
        )
    except Exception as error:  # an unreadable tree, a vanished directory: say so
        if not stopped():
            owner.post_message(RetrievalFailed(describe_failure(error), generation))
        return
    if run is not None and not stopped():
        owner.post_message(RetrievalEvaluated(run, generation))
