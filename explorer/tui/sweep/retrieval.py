"""The sweep's retrieval panel: the settings evaluated on the directory's own docs, as whiskers.

The sweep screen hands it the settings once they are measured; the panel runs the
evaluation in its own worker (cancelled by a newer run or when the screen goes),
shows progress, then the whisker chart (:mod:`.whiskers`). ``run`` is the last
finished evaluation (the queries view opens on it).
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.style import Style
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Input, Label, ProgressBar, Static

from explorer.engine.options import ChunkOptions
from explorer.engine.retrieval.evaluate import QUERY_SOURCES, parse_sources
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


#: The query sources the panel starts with.
DEFAULT_QUERIES = "docs"


class RetrievalPanel(Vertical):
    """Recall@5, recall@budget, MRR@10 and nDCG@10 per setting, with intervals; its
    ``queries`` field says what retrieval is asked (enter evaluates the same settings again)."""

    DEFAULT_CSS = """
    RetrievalPanel {
        height: auto;
        padding: 0 1;
        border: round $panel-lighten-2;
        border-title-color: $text-muted;
        border-title-style: bold;
        #retrieval-sources { height: 3; }
        #retrieval-sources Label { padding: 1 1 0 0; }
        #retrieval-queries { width: 1fr; max-width: 40; }
        #retrieval-progress { height: 1; }
        #retrieval-progress.-idle { display: none; }
        #retrieval-chart { height: auto; }
    }
    """

    def __init__(self, *, id: str | None = None):
        super().__init__(id=id)
        self.run: RetrievalRun | None = None
        self.evaluation = Evaluation(self)
        self._asked: tuple[str, list[ChunkOptions], dict[str, object]] | None = None  # the last evaluation asked

    def compose(self) -> ComposeResult:
        with Horizontal(id="retrieval-sources"):
            yield Label("queries:")
            yield Input(DEFAULT_QUERIES, id="retrieval-queries",
                        tooltip=f"What retrieval is asked, comma-separated: {', '.join(QUERY_SOURCES)} (history: the "
                                "git history's commit messages, asking for the definitions they changed); enter "
                                "evaluates again")
        yield ProgressBar(id="retrieval-progress", show_eta=False, classes="-idle")
        yield Static(Text("Retrieval is evaluated once the sweep has measured the settings.", style=NOTE),
                     id="retrieval-chart")

    def on_mount(self) -> None:
        self.border_title = "Retrieval (v: queries view)"

    @property
    def recommended(self) -> ChunkOptions | None:
        """The recommended setting of the last finished evaluation (None: none yet)."""
        if self.run is None or self.run.recommendation is None:
            return None
        return self.run.settings[self.run.recommendation.setting].options

    @property
    def queries(self) -> str:
        """The query sources listed in the field (ValueError naming the valid ones otherwise)."""
        return ",".join(parse_sources(self.query_one("#retrieval-queries", Input).value))

    @on(Input.Submitted, "#retrieval-queries")
    def _queries_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if self._asked is None:
            return  # the sweep has not measured the settings yet: it evaluates them when it has
        try:
            parse_sources(self.query_one("#retrieval-queries", Input).value)
        except ValueError as error:
            self.notify(str(error), title="Cannot evaluate", severity="error", markup=False)
            return
        root, settings, options = self._asked
        self.evaluate(root, settings, **options)  # type: ignore[arg-type]

    def evaluate(self, root: str, settings: Sequence[ChunkOptions], *, reference: int = 0,
                 current: int | None = None, walk: WalkOptions | None = None, jobs: int | None = None) -> None:
        """Start evaluating ``settings`` with the listed query sources (a running evaluation
        is cancelled); ``current``: the index of the settings in use, if listed."""
        try:
            queries = self.queries
        except ValueError as error:
            self._chart(Text(f"Retrieval is not evaluated: {error}", style=NOTE))
            return
        self._asked = (root, list(settings), {"reference": reference, "current": current, "walk": walk, "jobs": jobs})
        progress = self.query_one(ProgressBar)
        progress.remove_class("-idle")
        progress.update(total=100, progress=0)
        self._chart(Text(f"Evaluating retrieval of {len(settings)} settings …", style=NOTE))
        self.evaluation.evaluate(root, settings, reference=reference, current=current, walk=walk, jobs=jobs,
                                 queries=queries)

    def reset(self) -> None:
        """A new sweep started: stop the evaluation of the old settings, wait for the new ones."""
        self.evaluation.cancel()
        self.run = None
        self._asked = None
        self.query_one(ProgressBar).add_class("-idle")
        self._chart(Text("Retrieval is evaluated once the sweep has measured the settings.", style=NOTE))

    def _chart(self, renderable: RenderableType) -> None:
        self.query_one("#retrieval-chart", Static).update(renderable)

    @on(RetrievalProgressed)
    def _progressed(self, message: RetrievalProgressed) -> None:
        message.stop()
        if self.evaluation.is_current(message.generation):
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
        message.stop()
        if self.evaluation.is_current(message.generation):
            self.query_one(ProgressBar).add_class("-idle")
            self._chart(Text(f"Retrieval could not be evaluated: {message.reason}", style=NOTE))
            self.notify(message.reason, title="Retrieval evaluation failed", severity="error")
