"""Running the retrieval evaluation in a thread worker of a widget or screen.

An :class:`Evaluation` is a :class:`~explorer.tui.jobs.LatestJob`: a new run cancels
the previous one; removing the owner cancels it too. The worker polls its
cancellation through the engine's ``should_stop`` (between files, settings and
retrieval steps), posts :class:`RetrievalProgressed` while it runs and
:class:`RetrievalEvaluated` or :class:`RetrievalFailed` at the end, all stamped with
the run's generation so the owner drops results of a superseded run.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

from textual.dom import DOMNode

from explorer.engine.options import ChunkOptions
from explorer.workspace.walk import WalkOptions

from ..jobs import JobRun, LatestJob
from .messages import RetrievalEvaluated, RetrievalFailed, RetrievalProgressed
from .model import RetrievalRun, RunProgress, evaluate_directory

GROUP = "retrieval"


class Evaluation(LatestJob[RetrievalRun]):
    """The retrieval evaluations of one owner, which gets the messages."""

    def __init__(self, owner: DOMNode):
        super().__init__(owner, GROUP, RetrievalEvaluated, RetrievalFailed)

    def evaluate(
        self,
        root: str,
        settings: Sequence[ChunkOptions],
        *,
        reference: int = 0,
        current: int | None = None,
        walk: WalkOptions | None = None,
        jobs: int | None = None,
        queries: str = "docs",
    ) -> int:
        """Evaluate ``settings`` on ``root`` with the ``queries`` sources; returns the run's generation."""
        return self.start(partial(_evaluate, root, list(settings), reference, current, walk, jobs, queries),
                          "evaluate retrieval over the explored directory", name="retrieval")


def _evaluate(root: str, settings: list[ChunkOptions], reference: int, current: int | None,
              walk: WalkOptions | None, jobs: int | None, queries: str, run: JobRun) -> RetrievalRun | None:
    def progressed(progress: RunProgress) -> None:
        run.post(RetrievalProgressed(progress, run.generation))

    return evaluate_directory(root, settings, reference=reference, current=current, walk=walk, jobs=jobs,
                              queries=queries, should_stop=run, on_progress=progressed)
