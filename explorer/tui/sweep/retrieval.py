"""The sweep's retrieval panel: the settings evaluated with queries from the directory's own
code (the sources chosen in the sweep), as whiskers.

The sweep screen hands it the settings once they are measured; the panel runs the
evaluation in its own worker (cancelled by a newer run or when the screen goes),
shows progress, then the whisker chart (:mod:`.whiskers`) with the reason for the
advice and its evidence, the trade-off against cost and each source's advice
(:mod:`.tradeoff`). ``run`` is the last finished evaluation (the queries view
opens on it). Its messages go on to the screen, which shows the advice line.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.style import Style
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import ProgressBar, Static

from explorer.engine.options import ChunkOptions
from explorer.workspace.walk import WalkOptions

from ..queries.messages import RetrievalEvaluated, RetrievalFailed, RetrievalProgressed
from ..queries.model import RetrievalRun
from ..queries.runner import Evaluation
from .tradeoff import advice_text, tradeoff_table
from .whiskers import whisker_chart

NOTE = Style(dim=True)


def retrieval_view(run: RetrievalRun) -> RenderableType:
    """The whiskers, the trade-off, each source's advice and the history's count."""
    result = run.result
    parts: list[RenderableType] = [whisker_chart(result, run.recommendation)]
    if result.queries and run.front is not None:
        parts += [Text(""), tradeoff_table(result, run.front)]
    if run.advice:
        parts.append(advice_text(result, run.advice, run.disagreement))
    if result.history is not None and result.history.commits:
        parts.append(Text(result.history.lines()[0], style=NOTE))
    return Group(*parts)


class RetrievalPanel(Vertical):
    """Recall@5, recall@budget, IoU@5 and MRR@10 per setting, with intervals, the trade-off
    and each source's advice (the sweep's ``queries`` field says what retrieval is asked)."""

    DEFAULT_CSS = """
    RetrievalPanel {
        height: auto;
        padding: 0 1;
        border: round $panel-lighten-2;
        border-title-color: $text-muted;
        border-title-style: bold;
        #retrieval-progress { height: 1; }
        #retrieval-progress.-idle { display: none; }
        #retrieval-chart { height: auto; }
    }
    """

    def __init__(self, *, id: str | None = None):
        super().__init__(id=id)
        self.run: RetrievalRun | None = None
        self.evaluation = Evaluation(self)

    def compose(self) -> ComposeResult:
        yield ProgressBar(id="retrieval-progress", show_eta=False, classes="-idle")
        yield Static(Text("Retrieval is evaluated once the sweep has measured the settings.", style=NOTE),
                     id="retrieval-chart")

    def on_mount(self) -> None:
        self.border_title = "Retrieval (v: query by query)"

    @property
    def recommended(self) -> ChunkOptions | None:
        """The recommended setting of the last finished evaluation (None: none yet)."""
        if self.run is None or self.run.recommendation is None:
            return None
        return self.run.settings[self.run.recommendation.setting].options

    def evaluate(self, root: str, settings: Sequence[ChunkOptions], *, reference: int = 0,
                 current: int | None = None, walk: WalkOptions | None = None, jobs: int | None = None,
                 queries: str = "docs") -> None:
        """Start evaluating ``settings`` with the ``queries`` sources (a running evaluation is
        cancelled); ``current``: the index of the settings in use, if listed."""
        progress = self.query_one(ProgressBar)
        progress.remove_class("-idle")
        progress.update(total=100, progress=0)
        self.run = None
        self._chart(Text(f"Evaluating retrieval of {len(settings)} settings …", style=NOTE))
        self.evaluation.evaluate(root, settings, reference=reference, current=current, walk=walk, jobs=jobs,
                                 queries=queries)

    def advise(self, current: int | None) -> None:
        """The settings in use changed (``current``: their number in the sweep, or None):
        figure the advice again and show its reason."""
        if self.run is not None:
            self.run.advise(current)
            self._chart(retrieval_view(self.run))

    def reset(self) -> None:
        """A new sweep started: stop the evaluation of the old settings, wait for the new ones."""
        self.evaluation.cancel()
        self.run = None
        self.query_one(ProgressBar).add_class("-idle")
        self._chart(Text("Retrieval is evaluated once the sweep has measured the settings.", style=NOTE))

    def _chart(self, renderable: RenderableType) -> None:
        self.query_one("#retrieval-chart", Static).update(renderable)

    @on(RetrievalProgressed)
    def _progressed(self, message: RetrievalProgressed) -> None:
        if not self.evaluation.is_current(message.generation):
            message.stop()
            return
        self.query_one(ProgressBar).update(progress=round(100 * message.progress.fraction))
        self._chart(Text(f"Evaluating retrieval: {message.progress.text} …", style=NOTE))

    @on(RetrievalEvaluated)
    def _evaluated(self, message: RetrievalEvaluated) -> None:
        if not self.evaluation.is_current(message.generation):
            message.stop()
            return
        self.run = message.run
        self.query_one(ProgressBar).add_class("-idle")
        self._chart(retrieval_view(message.run))

    @on(RetrievalFailed)
    def _failed(self, message: RetrievalFailed) -> None:
        if not self.evaluation.is_current(message.generation):
            message.stop()
        else:
            self.query_one(ProgressBar).add_class("-idle")
            self._chart(Text(f"Retrieval could not be evaluated: {message.reason}", style=NOTE))
            self.notify(message.reason, title="Retrieval evaluation failed", severity="error", markup=False)
