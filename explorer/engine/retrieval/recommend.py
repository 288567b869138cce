"""One recommended setting for an objective, from an evaluation's figures.

The user states what they do with the retrieved chunks:

- ``top5``: they take the top 5 chunks; the measure is recall@5;
- ``budget``: they fill a context budget (``EvalConfig.budget``, in the size unit);
  the measure is recall@budget.

The rule: find the best setting on the measure; the settings *not separated* from it
(the paired 95% interval of their difference with the best includes 0) are as good as
far as these queries can tell; among them take the one with the fewest chunks (the
cheaper index: fewer vectors to embed and store), then the better mean, then the
lower number. When the settings in effect now are among those as good as the best,
the advice is to keep them: no setting is better beyond the noise, and re-indexing
costs something. The same result always gives the same advice (the bootstrap has a
fixed seed). The queries whose measure moved most between the recommended setting
and the one compared (the current settings, else the reference, else the runner-up)
are the evidence.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .results import EvalResult
from .statistics import Bootstrap, Estimate

#: Objective -> the measure it maximises.
OBJECTIVES: dict[str, str] = {"top5": "recall@5", "budget": "recall@budget"}
#: How many moved queries are given as evidence.
EVIDENCE = 3


@dataclass(frozen=True, slots=True)
class MovedQuery:
    """A query whose measure changed between the compared settings (positions in
    ``EvalResult.queries``; ranks ``None`` beyond the ranking)."""

    query: int
    text: str
    path: str
    line: int  # 1-based
    before: float
    after: float
    rank_before: int | None
    rank_after: int | None

    def to_dict(self) -> dict[str, Any]:
        return {"query": self.query, "text": self.text, "path": self.path, "line": self.line,
                "before": round(self.before, 4), "after": round(self.after, 4),
                "rank_before": self.rank_before, "rank_after": self.rank_after}


@dataclass(slots=True)
class Recommendation:
    """``setting``: the recommended position in ``EvalResult.settings``; ``best``: the
    best on the measure; ``tied``: every setting not separated from the best (best
    included); ``keep_current``: the advice is the settings in effect now;
    ``compared``: the setting the evidence compares with (None: nothing to compare)."""

    objective: str
    measure: str
    setting: int
    best: int
    tied: list[int]
    keep_current: bool
    compared: int | None
    reason: str
    against_best: dict[int, Estimate] = field(default_factory=dict)
    evidence: list[MovedQuery] = field(default_factory=list)

    def to_dict(self, result: EvalResult) -> dict[str, Any]:
        def number(position: int | None) -> int | None:
            return None if position is None else result.settings[position].index

        return {
            "index": number(self.setting),
            "objective": self.objective,
            "measure": self.measure,
            **({"budget": result.config.budget, "budget_unit": result.config.budget_unit}
               if self.objective == "budget" else {}),
            "keep_current": self.keep_current,
            "best": number(self.best),
            "tied_with_best": [number(i) for i in self.tied],
            "against_best": {str(number(i)): {**e.to_dict(), "separated": e.separated}
                             for i, e in self.against_best.items()},
            "compared_with": number(self.compared),
            "reason": self.reason,
            "evidence": [moved.to_dict() for moved in self.evidence],
        }


def recommend(result: EvalResult, objective: str = "top5", current: int | None = None) -> Recommendation | None:
    """The advice for ``objective`` (see the module docstring); ``current``: the
    position in ``result.settings`` of the settings in effect now, if evaluated. None
    when there is nothing to choose from (no settings or no queries)."""
    if objective not in OBJECTIVES:
        raise ValueError(f"objective must be one of {', '.join(OBJECTIVES)}, not {objective!r}")
    measure = OBJECTIVES[objective]
    settings = result.settings
    if not settings or not result.queries:
        return None
    best = max(range(len(settings)), key=lambda i: (settings[i].metrics[measure].value, -i))
    bootstrap = Bootstrap(len(result.queries), resamples=result.config.resamples, seed=result.config.seed)
    best_values = settings[best].per_query[measure]
    against = {i: bootstrap.paired(s.per_query[measure], best_values) for i, s in enumerate(settings) if i != best}
    tied = [best] + [i for i, e in against.items() if not e.separated]
    tied.sort(key=lambda i: (settings[i].chunks, -settings[i].metrics[measure].value, i))
    keep = current is not None and current in tied
    chosen = current if keep and current is not None else tied[0]
    others = [i for i in range(len(settings)) if i != chosen]
    if current is not None and current != chosen:
        compared: int | None = current
    elif result.reference != chosen:
        compared = result.reference
    else:  # the runner-up on the measure
        compared = max(others, key=lambda i: (settings[i].metrics[measure].value, -i)) if others else None
    recommendation = Recommendation(objective, measure, chosen, best, sorted(tied), keep, compared, "", against)
    recommendation.reason = _reason(result, recommendation)
    if compared is not None:
        recommendation.evidence = moved_queries(result, measure, compared, chosen)
    return recommendation


def moved_queries(result: EvalResult, measure: str, before: int, after: int, count: int = EVIDENCE) -> list[MovedQuery]:
    """The queries whose ``measure`` changed most from setting ``before`` to ``after``
    (unchanged queries are not listed)."""
    old, new = result.settings[before].per_query[measure], result.settings[after].per_query[measure]
    change = new - old
    first, second = result.settings[before].outcomes, result.settings[after].outcomes
    far = max(result.settings[before].depth, result.settings[after].depth) + 1

    def jump(q: int) -> int:
        return abs((first[q].rank or far) - (second[q].rank or far))

    # the largest changes first; among equal ones, gains before losses, then the longest rank jump
    order = sorted((q for q in range(len(result.queries)) if change[q] != 0),
                   key=lambda q: (-abs(change[q]), change[q] < 0, -jump(q), q))
    moved = []
    for q in order[:count]:
        query = result.queries[q]
        moved.append(MovedQuery(q, query.text, query.path, query.line_start + 1, float(old[q]), float(new[q]),
                                result.settings[before].outcomes[q].rank, result.settings[after].outcomes[q].rank))
    return moved


def _pct(value: float) -> str:
    return f"{100 * value:.1f}%"


def _reason(result: EvalResult, r: Recommendation) -> str:
    settings = result.settings
    name = {i: f"#{settings[i].index + 1}" for i in range(len(settings))}
    best = settings[r.best].metrics[r.measure].value
    what = f"{r.measure}" + (f" (budget {result.config.budget:,} {result.config.budget_unit})"
                             if r.objective == "budget" else "")
    others = [i for i in r.tied if i != r.setting]
    if r.keep_current:  # (the verdict, keep them, is the head's: the reason says why)
        text = (f"no setting is better beyond the noise on {what} "
                f"(best {name[r.best]} {_pct(best)}, yours {_pct(settings[r.setting].metrics[r.measure].value)})")
        # the one the rule would pick without current settings: the fewest chunks, then the better mean
        cheapest = min(r.tied, key=lambda i: (settings[i].chunks, -settings[i].metrics[r.measure].value, i))
        saved = settings[r.setting].chunks - settings[cheapest].chunks
        if saved > 0:
            text += f"; {name[cheapest]} would do as well with {saved:,} fewer chunks"
        return text
    if r.setting == r.best:
        text = f"{name[r.setting]} has the best {what}: {_pct(best)}"
        if others:
            text += (f"; {', '.join(name[i] for i in others)} {'is' if len(others) == 1 else 'are'} within the noise "
                     f"of it but none has fewer chunks")
        else:
            text += ", ahead of every other setting beyond the noise"
        return text
    delta = r.against_best[r.setting]
    return (f"{name[r.setting]} retrieves as well as the best ({name[r.best]}, {_pct(best)}) on {what}: "
            f"{_pct(settings[r.setting].metrics[r.measure].value)}, a difference of {100 * delta.value:+.1f} points "
            f"[{100 * delta.low:+.1f}, {100 * delta.high:+.1f}] within the noise, with "
            f"{settings[r.best].chunks - settings[r.setting].chunks:,} fewer chunks to embed and store")


# -- per query source ------------------------------------------------------------------------
@dataclass(slots=True)
class SourceAdvice:
    """The advice one group of queries gives (a source, or the history's queries whose
    message does not name a target): ``result`` is the evaluation restricted to them."""

    source: str
    queries: int
    result: EvalResult
    recommendation: Recommendation | None

    def to_dict(self) -> dict[str, Any]:
        r = self.recommendation
        if r is None:
            return {"queries": self.queries, "index": None}
        settings = self.result.settings
        return {"queries": self.queries, "index": settings[r.setting].index, "keep_current": r.keep_current,
                "best": settings[r.best].index, "tied_with_best": [settings[i].index for i in r.tied],
                "reason": r.reason}


def advice_by_source(result: EvalResult, objective: str = "top5", current: int | None = None) -> list[SourceAdvice]:
    """The recommendation of each group of queries (:meth:`EvalResult.groups`), by the same
    rule as :func:`recommend`, on that group's queries alone."""
    advice = []
    for source, report in result.by_source().items():
        part = report.result
        assert part is not None
        advice.append(SourceAdvice(source, report.queries, part, recommend(part, objective, current)))
    return advice


#: How the warning of :func:`sources_disagree` starts (views that print it apart find it by this).
DISAGREEMENT = "the query sources disagree"


def sources_disagree(result: EvalResult, advice: list[SourceAdvice]) -> str | None:
    """A warning when the query sources recommend different settings (None when they
    agree, or there is one source): which setting the index should serve depends on
    which questions it will be asked, and the overall advice weighs each source by its
    number of queries."""
    from .history import HISTORY

    sources = [a for a in advice if a.recommendation is not None and a.source in result.origins()]
    chosen = {a.result.settings[a.recommendation.setting].index for a in sources if a.recommendation is not None}
    varied = result.varied
    if len(chosen) < 2 or sources[0].recommendation is None:
        return None
    objective = sources[0].recommendation.objective

    def says(a: SourceAdvice) -> str:
        assert a.recommendation is not None
        setting = a.result.settings[a.recommendation.setting]
        verb = "keeps" if a.recommendation.keep_current else "recommends"
        return f"{a.source} ({a.queries:,} queries) {verb} #{setting.index + 1} ({setting.label(varied)})"

    what = {HISTORY: "change descriptions, what a team asks", "docs": "what the code says of itself",
            "calls": "the code around a call", "types": "the code around a type's use"}
    asked = "; ".join(f"{a.source}: {what[a.source]}" if a.source in what else a.source for a in sources)
    return (f"{DISAGREEMENT} on the setting for --objective {objective}: "
            + "; ".join(says(a) for a in sources)
            + f". Which questions your index must answer is your call ({asked}); the overall recommendation "
              "weighs each source by its number of queries")
