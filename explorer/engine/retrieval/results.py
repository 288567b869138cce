"""What an evaluation gives back: per-setting estimates, per-query outcomes, comparisons.

The result classes of :func:`~.evaluate.evaluate` and the comparisons on a subset of
the queries (:func:`compare_on`, e.g. where ``lines`` cuts a definition that ``ast``
keeps whole). The steps that compute them are in :mod:`.evaluate`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from ..batch.skips import SkippedInput
from ..measure.per_setting import setting_label, varied_fields
from ..options import SIZE_UNITS, ChunkOptions
from .history import HISTORY, HistoryFunnel
from .queries import DEFAULT_MIN_WORDS, Query
from .relevance import DEFAULT_BUDGET, DEFAULT_THRESHOLD, METRIC_NAMES, RANK_DEPTH, TOP
from .statistics import CONFIDENCE, DEFAULT_RESAMPLES, DEFAULT_SEED, Bootstrap, Estimate

#: Progress stages.
CHUNKING, RETRIEVING, SCORING = "chunking", "retrieving", "scoring"
#: Reading the history (``done`` commits or files parsed), between chunking and retrieving.
READING_HISTORY = "reading history"
#: The history's queries whose message does not name one of their targets.
HISTORY_UNNAMED = f"{HISTORY}, target not named"

@dataclass(frozen=True, slots=True)
class EvalConfig:
    """How queries are made and scored. ``budget`` is counted in ``budget_unit``: nws,
    or the settings' own size unit (every setting must then be sized in it)."""

    budget: int = DEFAULT_BUDGET
    hit_threshold: float = DEFAULT_THRESHOLD
    min_doc_words: int = DEFAULT_MIN_WORDS
    resamples: int = DEFAULT_RESAMPLES
    seed: int = DEFAULT_SEED
    budget_unit: str = "nws"
    #: What costs are counted with (a tokenizer name or tokenizer.json path); None: the
    #: settings' tokenizer, else cl100k_base when installed, else nws.
    cost_tokenizer: str | None = None

    def __post_init__(self) -> None:
        if isinstance(self.budget, bool) or not isinstance(self.budget, int) or self.budget < 1:
            raise ValueError(f"budget must be a whole number >= 1, not {self.budget!r}")
        if not 0 < self.hit_threshold <= 1:
            raise ValueError(f"hit threshold must be above 0 and at most 1, not {self.hit_threshold!r}")
        if self.min_doc_words < 1 or self.resamples < 1:
            raise ValueError("min_doc_words and resamples must be >= 1")
        if self.budget_unit not in SIZE_UNITS:
            raise ValueError(f"budget unit must be one of {', '.join(SIZE_UNITS)}, not {self.budget_unit!r}")


@dataclass(frozen=True, slots=True)
class EvalProgress:
    """``stage`` is :data:`CHUNKING` (``done``/``total`` files, ``path`` the last one),
    :data:`READING_HISTORY` (``done`` commits read or changed files parsed),
    :data:`RETRIEVING` (per ``setting``: units of the retriever's work, e.g. chunks
    embedded) or :data:`SCORING` (per ``setting``: queries scored)."""

    stage: str
    done: int
    total: int | None
    setting: int | None = None
    path: str | None = None


@dataclass(frozen=True, slots=True)
class RetrievedChunk:
    """One of a query's top chunks, in the *original* file's coordinates (bytes end
    exclusive, lines 0-based inclusive); ``overlap``: nws shared with the target."""

    rank: int
    path: str
    start: int
    end: int
    line_start: int
    line_end: int
    nws: int
    overlap: int
    hit: bool


@dataclass(frozen=True, slots=True)
class QueryOutcome:
    """A query under one setting: the rank of its first hit (1-based; ``None`` when no
    hit is within the ranking's depth, ``SettingEval.depth``, at least 50), its top 5
    chunks, and whether one chunk holds the whole target (``whole``: False when the
    setting cut the definition)."""

    rank: int | None
    top: tuple[RetrievedChunk, ...]
    whole: bool = True


@dataclass(slots=True)
class SettingEval:
    """One setting's results. ``metrics``: mean and interval per measure;
    ``delta``: paired difference against the reference (zeros for the reference);
    ``per_query``: each measure per query (in ``EvalResult.queries`` order);
    ``outcomes``: ranks and top chunks per query. Costs, in the result's ``cost_unit``:
    ``embedded``, the indexed text of every chunk (what embedding the index costs);
    ``retrieved`` per query and ``retrieved_cost`` on average, the top 5 chunks' indexed
    text (what a prompt of the top 5 costs)."""

    index: int
    options: ChunkOptions
    chunks: int
    metrics: dict[str, Estimate]
    delta: dict[str, Estimate]
    per_query: dict[str, np.ndarray]
    outcomes: list[QueryOutcome]
    depth: int = RANK_DEPTH
    notes: dict[str, int] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)
    embedded: int = 0
    retrieved: np.ndarray = field(default_factory=lambda: np.zeros(0))
    retrieved_cost: Estimate = Estimate(0.0, 0.0, 0.0)

    def label(self, varied: Sequence[str]) -> str:
        return setting_label(self.options, varied, self.index)

    def to_dict(self) -> dict[str, Any]:
        options = self.options
        return {
            "index": self.index,
            "max_size": options.max_size,
            "size_unit": options.size_unit,
            "strategy": options.strategy,
            "context_mode": options.context_mode,
            "overlap_lines": options.overlap_lines,
            "options": options.to_dict(),
            "chunks": self.chunks,
            "metrics": {name: estimate.to_dict() for name, estimate in self.metrics.items()},
            "delta": {name: {**estimate.to_dict(), "separated": estimate.separated}
                      for name, estimate in self.delta.items()},
            "notes": dict(self.notes),
            "seconds": {name: round(value, 3) for name, value in self.seconds.items()},
            "costs": {"embedded": self.embedded, f"retrieved@{TOP}": self.retrieved_cost.to_dict(1)},
        }


@dataclass(slots=True)
class EvalResult:
    queries: list[Query]
    settings: list[SettingEval]
    reference: int
    config: EvalConfig
    retriever: str
    query_source: str
    files: int = 0
    bytes: int = 0
    masked_docs: int = 0
    dropped_duplicates: int = 0
    failed: list[tuple[str, str]] = field(default_factory=list)  # (path, message)
    not_text: list[SkippedInput] = field(default_factory=list)  # files found binary or not UTF-8
    warnings: list[str] = field(default_factory=list)
    seconds: float = 0.0
    chunk_seconds: float = 0.0  # wall time of the chunking step
    jobs: int = 1
    complete: bool = True
    history: HistoryFunnel | None = None  # how the history's commits were screened
    cost_unit: str = "nws"  # what the costs count: a tokenizer's name, or nws
    #: With the queries of a part of a result (:meth:`restricted`): their positions in the whole.
    positions: list[int] | None = None

    @property
    def varied(self) -> list[str]:
        return varied_fields([s.options for s in self.settings])

    def position(self, index: int | None) -> int | None:
        """Where the setting numbered ``index`` sits in ``settings`` (None: not evaluated)."""
        return next((i for i, s in enumerate(self.settings) if s.index == index), None)

    def best(self, metric: str) -> int | None:
        """The index (in ``settings``) of the best setting on a measure (the first on a tie)."""
        if not self.settings:
            return None
        return max(range(len(self.settings)), key=lambda i: (self.settings[i].metrics[metric].value, -i))

    def cut_comparisons(self) -> list[SubsetComparison]:
        """For each ``ast`` setting with a ``lines`` twin: ast against lines on the
        queries whose definition ``lines`` cuts and ``ast`` keeps whole."""
        out = []
        for ast, lines in strategy_pairs(self):
            queries = cut_by(self, lines, ast)
            if queries:
                out.append(compare_on(self, queries, ast, lines))
        return out

    def origins(self) -> list[str]:
        """The query sources present, in order of first appearance."""
        return list(dict.fromkeys(q.origin for q in self.queries))

    def groups(self) -> dict[str, list[int]]:
        """The queries reported on their own: each source's, and the history's whose
        message does not name a target (the figures a lexical retriever does not get
        for free). Name -> positions in ``queries``."""
        out: dict[str, list[int]] = {}
        for q, query in enumerate(self.queries):
            out.setdefault(query.origin, []).append(q)
        unnamed = [q for q in out.get(HISTORY, []) if not self.queries[q].names_target]
        if HISTORY in out and len(unnamed) < len(out[HISTORY]):
            out[HISTORY_UNNAMED] = unnamed
        return out

    def restricted(self, positions: Sequence[int]) -> EvalResult:
        """The same settings scored on some of the queries only: every measure, cost and
        difference against the reference bootstrapped over those queries (same seed), the
        outcomes kept; ``positions`` of the result says where they sit in this one."""
        chosen = np.asarray(list(positions), dtype=np.int64)
        bootstrap = Bootstrap(len(chosen), resamples=self.config.resamples, seed=self.config.seed)
        reference = self.settings[self.reference].per_query if self.settings else {}
        settings = []
        for setting in self.settings:
            values = {name: v[chosen] for name, v in setting.per_query.items()}
            retrieved = setting.retrieved[chosen] if len(setting.retrieved) == len(self.queries) else setting.retrieved
            settings.append(replace(
                setting,
                metrics={name: bootstrap.estimate(v) for name, v in values.items()},
                delta={name: bootstrap.paired(v, reference[name][chosen]) for name, v in values.items()},
                per_query=values, outcomes=[setting.outcomes[q] for q in chosen], retrieved=retrieved,
                retrieved_cost=bootstrap.estimate(retrieved) if len(retrieved) == len(chosen) else setting.retrieved_cost,
            ))
        whole = self.positions
        return replace(self, queries=[self.queries[q] for q in chosen], settings=settings, warnings=[],
                       positions=[int(q) if whole is None else whole[q] for q in chosen])

    def by_source(self) -> dict[str, SourceReport]:
        """Each group's queries (:meth:`groups`: each source, and the history's whose
        message does not name a target) scored on their own: per setting, the means with
        intervals over those queries and the paired differences against the reference
        (same seed)."""
        reports: dict[str, SourceReport] = {}
        for name, positions in self.groups().items():
            part = self.restricted(positions)
            reports[name] = SourceReport(name, len(positions), [s.metrics for s in part.settings],
                                         [s.delta for s in part.settings], part)
        return reports

    def to_dict(self) -> dict[str, Any]:
        extra: dict[str, Any] = {}
        if self.queries:
            extra["sources"] = {name: report.to_dict(self) for name, report in self.by_source().items()}
        if self.history is not None:
            extra["history"] = self.history.to_dict()
        return {
            "queries": len(self.queries),
            "query_source": self.query_source,
            "retriever": self.retriever,
            "budget": self.config.budget,
            "budget_unit": self.config.budget_unit,  # a number is never shown without its unit
            "hit_threshold": self.config.hit_threshold,
            "confidence": CONFIDENCE,
            "resamples": self.config.resamples,
            "seed": self.config.seed,
            "cost_unit": self.cost_unit,
            "reference": self.reference,
            "varied": self.varied,
            "settings": [s.to_dict() for s in self.settings],
            "best": {name: self.best(name) for name in METRIC_NAMES} if self.settings else {},
            "cut_by_lines": [c.to_dict() for c in self.cut_comparisons()],
            "warnings": list(self.warnings),
            **extra,
            "run": {
                "files": self.files,
                "bytes": self.bytes,
                "masked_docs": self.masked_docs,
                "dropped_duplicate_queries": self.dropped_duplicates,
                "not_text": len(self.not_text),
                "failed": [{"path": p, "message": m} for p, m in self.failed],
                "seconds": round(self.seconds, 3),
                "chunk_seconds": round(self.chunk_seconds, 3),
                "jobs": self.jobs,
                "complete": self.complete,
            },
        }


@dataclass(slots=True)
class SourceReport:
    """One query source's figures: per setting (``EvalResult.settings`` order) each
    measure's estimate and paired difference against the reference, over its queries;
    ``result``: the evaluation restricted to them (:meth:`EvalResult.restricted`), for
    a recommendation or a trade-off of its own."""

    source: str
    queries: int
    metrics: list[dict[str, Estimate]] = field(default_factory=list)
    delta: list[dict[str, Estimate]] = field(default_factory=list)
    result: EvalResult | None = None

    def to_dict(self, result: EvalResult) -> dict[str, Any]:
        part = self.result
        return {
            "queries": self.queries,
            "settings": [
                {"index": setting.index,
                 "metrics": {name: e.to_dict() for name, e in metrics.items()},
                 "delta": {name: {**e.to_dict(), "separated": e.separated} for name, e in delta.items()},
                 **({"costs": {f"retrieved@{TOP}": part.settings[k].retrieved_cost.to_dict(1)}} if part else {})}
                for k, (setting, metrics, delta) in enumerate(zip(result.settings, self.metrics, self.delta))
            ],
        }


# -- on a subset of the queries -----------------------------------------------------------
@dataclass(frozen=True, slots=True)
class SubsetComparison:
    """``setting`` against ``reference`` (positions in ``EvalResult.settings``) on some
    queries only: the paired differences, with intervals over those queries."""

    setting: int
    reference: int
    queries: list[int]
    delta: dict[str, Estimate]

    def to_dict(self) -> dict[str, Any]:
        return {"setting": self.setting, "reference": self.reference, "queries": len(self.queries),
                "delta": {name: {**e.to_dict(), "separated": e.separated} for name, e in self.delta.items()}}


def compare_on(result: EvalResult, queries: Sequence[int], setting: int, reference: int) -> SubsetComparison:
    """Paired differences of ``setting`` against ``reference`` on the given queries
    (indices into ``result.queries``), bootstrapped with the run's seed."""
    chosen = np.asarray(list(queries), dtype=np.int64)
    bootstrap = Bootstrap(len(chosen), resamples=result.config.resamples, seed=result.config.seed)
    ours, theirs = result.settings[setting].per_query, result.settings[reference].per_query
    delta = {name: bootstrap.paired(ours[name][chosen], theirs[name][chosen]) for name in ours}
    return SubsetComparison(setting, reference, [int(q) for q in chosen], delta)


def cut_by(result: EvalResult, cutting: int, keeping: int) -> list[int]:
    """The queries whose target setting ``keeping`` holds in one chunk and setting
    ``cutting`` splits (positions in ``result.settings``): where the two strategies differ."""
    kept, cut = result.settings[keeping].outcomes, result.settings[cutting].outcomes
    return [q for q in range(len(result.queries)) if kept[q].whole and not cut[q].whole]


def strategy_pairs(result: EvalResult) -> list[tuple[int, int]]:
    """``(ast, lines)`` positions of settings that differ only in their strategy."""
    pairs = []
    for i, a in enumerate(result.settings):
        for j, b in enumerate(result.settings):
            if a.options.strategy == "ast" and b.options.strategy == "lines" \
                    and replace(b.options, strategy="ast") == a.options:
                pairs.append((i, j))
    return pairs
