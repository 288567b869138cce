"""The retrieval evaluation as the explorer runs and shows it (no Textual imports).

:func:`evaluate_directory` runs the workspace's evaluation
(:func:`explorer.workspace.evaluate.evaluate_paths`) over the explored directory and a
grid of settings. Besides the engine's :class:`EvalResult` it keeps what the queries view
draws: for every setting, the chunks of each file that holds a query target (in
the original file's bytes) and how many of them the target was cut into, and the
target files' bytes, the trade-off (:func:`~explorer.engine.retrieval.pareto.pareto`) and
each query source's own advice. Everything else the engine built is dropped.

:func:`lesson` says, for one query, what the settings did to its definition ("the
lines strategy cut this definition into 3 pieces: not in the top 10; AST kept it
whole: rank 2").
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from explorer.engine.cancel import ShouldStop
from explorer.engine.options import ChunkOptions
from explorer.engine.retrieval import CHUNKING, EvalConfig, EvalProgress, EvalResult, SettingEval
from explorer.engine.retrieval.history import HistoryRules
from explorer.engine.retrieval.pareto import ParetoFront, pareto
from explorer.engine.retrieval.recommend import (
    Recommendation,
    SourceAdvice,
    advice_by_source,
    recommend,
    sources_disagree,
)
from explorer.engine.retrieval.results import READING_HISTORY
from explorer.workspace.evaluate import evaluate_paths
from explorer.workspace.results_cache import ResultsCache
from explorer.workspace.walk import WalkOptions, plan

#: Share of the progress bar given to chunking; the settings share the rest.
CHUNKING_SHARE = 0.4
#: Rank measures are computed to this depth: a target found lower shows as "> 10".
RANK_DEPTH = 10


@dataclass(frozen=True, slots=True)
class RunProgress:
    """``fraction`` of the run done (0..1) and what is going on."""

    fraction: float
    text: str


@dataclass(slots=True)
class RetrievalRun:
    """An evaluation and what the queries view needs to draw it.

    ``pieces[s][q]``: how many chunks of setting ``s`` (index in
    ``result.settings``) overlap query ``q``'s target; ``chunks[s][path]``: the
    chunks of a target file under setting ``s`` as original-file byte ranges;
    ``sources[path]``: a target file's bytes; ``recommendation``: the setting to use
    for the top 5 (None: no queries); ``front``: recall@5 against cost; ``advice``: each
    query source's recommendation, and ``disagreement`` the warning when they differ."""

    root: str
    result: EvalResult
    recommendation: Recommendation | None = None
    front: ParetoFront | None = None
    advice: list[SourceAdvice] = field(default_factory=list)
    disagreement: str | None = None
    pieces: list[list[int]] = field(default_factory=list)
    chunks: list[dict[str, list[tuple[int, int]]]] = field(default_factory=list)
    sources: dict[str, bytes] = field(default_factory=dict)

    @property
    def settings(self) -> list[SettingEval]:
        return self.result.settings

    def advise(self, current: int | None) -> Recommendation | None:
        """The advice again for the settings in use now: ``current`` is the number of the
        setting in use (its ``index``), None when the explorer uses none of them."""
        position = self.result.position(current)
        self.recommendation = recommend(self.result, "top5", position)
        self.front = pareto(self.result, self.recommendation)
        self.advice = advice_by_source(self.result, "top5", position) if self.recommendation is not None else []
        self.disagreement = sources_disagree(self.result, self.advice)
        return self.recommendation

    def labels(self) -> list[str]:
        """Each setting named by the fields that vary in the grid (``max_size=500 strategy=lines``)."""
        varied = self.result.varied
        return [setting.label(varied) for setting in self.settings]


def evaluate_directory(
    root: str,
    settings: Sequence[ChunkOptions],
    *,
    reference: int = 0,
    current: int | None = None,
    walk: WalkOptions | None = None,
    jobs: int | None = None,
    config: EvalConfig | None = None,
    queries: str = "docs",
    history: HistoryRules | None = None,
    on_progress: Callable[[RunProgress], None] | None = None,
    should_stop: ShouldStop = lambda: False,
) -> RetrievalRun | None:
    """Evaluate ``settings`` on the files under ``root`` with BM25 and the query
    ``queries`` sources (comma-separated: docs, calls, types, history), and recommend one
    for the top 5 (``current``: the index of the settings in use, if listed, which the
    advice keeps when no setting is better beyond the noise). None when stopped
    (``should_stop`` is polled between files, settings and steps)."""
    walk = walk or WalkOptions()
    settings = list(dict.fromkeys(settings))
    if not settings:
        raise ValueError("nothing to evaluate: no settings")
    files_plan = plan([root], walk, root=root)
    if should_stop():
        return None
    finished = 0

    def report(fraction: float, text: str) -> None:
        if on_progress is not None:
            on_progress(RunProgress(min(1.0, fraction), text))

    def progressed(event: EvalProgress) -> None:
        if event.stage == CHUNKING:
            total = event.total or len(files_plan.files) or 1
            report(CHUNKING_SHARE * event.done / total, f"chunking {event.done:,}/{total:,} files")
        elif event.stage == READING_HISTORY:
            what = "commits read" if event.total else "changed files parsed"
            report(CHUNKING_SHARE, f"reading the history: {event.done:,} {what}")
        else:
            share = (1 - CHUNKING_SHARE) / len(settings)
            step = 0.5 * event.done / event.total if event.total else 0.0
            report(CHUNKING_SHARE + share * (finished + step),
                   f"setting {finished + 1}/{len(settings)}: {event.stage}")

    def setting_done(_: SettingEval) -> None:
        nonlocal finished
        finished += 1
        report(CHUNKING_SHARE + (1 - CHUNKING_SHARE) * finished / len(settings),
               f"{finished}/{len(settings)} settings scored")

    report(0.0, f"reading {len(files_plan.files):,} files")
    evaluation = evaluate_paths(files_plan, settings, walk=walk, config=config, queries=queries, reference=reference,
                                jobs=jobs, on_progress=progressed, on_setting=setting_done, should_stop=should_stop,
                                keep_prepared=True, history=history, results_cache=ResultsCache.default())
    result, prepared = evaluation.result, evaluation.prepared
    if not result.complete or prepared is None or should_stop():
        return None
    run = RetrievalRun(root, result)
    run.advise(current)
    target_files = sorted({span[0] for target in prepared.targets for span in target.spans})
    for setting in result.settings:
        index = setting.index  # the setting's position in prepared.settings
        spans_by_file: dict[str, list[tuple[int, int]]] = {}
        for file_index in target_files:
            corpus_file = prepared.files[file_index]
            masked = corpus_file.masked
            spans_by_file[corpus_file.path] = [
                (masked.to_original(start), masked.to_original(end, end=True))
                for start, end, _ in corpus_file.chunks.spans[index]
            ]
        run.chunks.append(spans_by_file)
        run.pieces.append([
            _pieces(prepared.files[target.file].chunks.spans[index], target.start, target.end)
            for target in prepared.targets
        ])
    for file_index in target_files:
        corpus_file = prepared.files[file_index]
        run.sources[corpus_file.path] = corpus_file.masked.original
    return run


def _pieces(spans: list[tuple[int, int, int]], start: int, end: int) -> int:
    """How many of a file's chunks (sorted, disjoint) overlap the byte range [start, end)."""
    at = max(0, bisect_left(spans, (start,)) - 1)
    count = 0
    while at < len(spans) and spans[at][0] < end:
        if spans[at][1] > start:
            count += 1
        at += 1
    return count


# -- words for the view --------------------------------------------------------------------
NO_QUERIES = ("No queries: no source gave any here (docs need a function, method or class with a doc of 8 "
              "words or more; calls and types, definitions used from other files; history, a git checkout), so "
              "there is nothing to retrieve (chunk-explorer eval --queries FILE.jsonl takes your own).")
#: Why a source gives no query, as the views say it.
WHY_NONE = {
    "docs": "no function, method or class here has a doc of 8 words or more",
    "calls": "no function defined here once is called from another file",
    "types": "no type defined here once is used in another file",
}


def no_queries(result: EvalResult) -> str:
    """Why there is nothing to show: the history's own reason, or what each source asked needs."""
    asked = [name for name in result.query_source.split(",") if name]
    if result.history is not None and result.history.problem:
        reasons = [f"history: {result.history.problem}"] + [f"{s}: {WHY_NONE[s]}" for s in asked if s in WHY_NONE]
        return "No queries. " + "; ".join(reasons) + "."
    if asked and all(name in WHY_NONE for name in asked):
        return ("No queries. " + "; ".join(f"{s}: {WHY_NONE[s]}" for s in asked)
                + ". Another source may give some (docs, calls, types, history: a git checkout's commits).")
    return NO_QUERIES


def in_top(rank: int | None) -> bool:
    """Whether the target was found within the ranks the view reports (a hit)."""
    return rank is not None and rank <= RANK_DEPTH


def rank_text(rank: int | None) -> str:
    """The rank as shown everywhere: a number within the top RANK_DEPTH, ``>10`` beyond it
    (or not retrieved at all: the view does not tell the two apart)."""
    return str(rank) if in_top(rank) else f">{RANK_DEPTH}"


def kept_or_cut(pieces: int, what: str = "it") -> str:
    """``kept it whole`` or ``cut it into 3 pieces`` (``what``: how to name the definition)."""
    return f"kept {what} whole" if pieces <= 1 else f"cut {what} into {pieces} pieces"


def _order(rank: int | None) -> int:
    return rank if rank is not None and in_top(rank) else RANK_DEPTH + 1


def spread(run: RetrievalRun, query: int) -> int:
    """How far apart the settings rank a query's target (0: all the same; ranks past the
    top RANK_DEPTH count as one)."""
    ranks = [_order(setting.outcomes[query].rank) for setting in run.settings]
    return max(ranks) - min(ranks) if ranks else 0


def disagrees(run: RetrievalRun, query: int) -> bool:
    """Whether some settings find the query's target (in the top RANK_DEPTH) and others miss it."""
    hits = {in_top(setting.outcomes[query].rank) for setting in run.settings}
    return len(hits) == 2


def disagreement(run: RetrievalRun, query: int) -> tuple[bool, int]:
    """The sort key of "disagreements first": hit against miss first, then how far apart the ranks are."""
    return disagrees(run, query), spread(run, query)


def lesson(run: RetrievalRun, query: int) -> str:
    """One sentence on what the settings did to the query's definition: the worst
    setting against the best one, or that they agree."""
    settings = run.settings
    if not settings:
        return ""
    labels = run.labels()
    ranks = [setting.outcomes[query].rank for setting in settings]
    pieces = [run.pieces[s][query] for s in range(len(settings))]
    best = min(range(len(settings)), key=lambda s: (_order(ranks[s]), s))
    worst = max(range(len(settings)), key=lambda s: (_order(ranks[s]), -s))
    if len(settings) == 1 or _order(ranks[best]) == _order(ranks[worst]):
        where = _found(ranks[best])
        return f"Every setting: {where}."
    return (f"{labels[worst]} {kept_or_cut(pieces[worst], 'this definition')}: {_found(ranks[worst])}; "
            f"{labels[best]} {kept_or_cut(pieces[best])}: {_found(ranks[best])}.")


def _found(rank: int | None) -> str:
    return f"rank {rank}" if in_top(rank) else f"not in the top {RANK_DEPTH}"
