"""The whole trade-off: recall at 5 against what a setting costs, over the grid.

A single recommendation hides what the others would buy. Each setting has a recall@5
(with its interval) and three costs: the **chunks** in the index (vectors to embed and
store), the **embedded** size (every chunk's indexed text, in tokens when a tokenizer
counts them: what embedding the index costs), and the **retrieved** size (the indexed
text of a query's top 5 chunks, on average: what a prompt of the top 5 costs). For each
cost, a setting is *on the front* when no other setting has at least its recall@5 for
at most its cost, better in one of the two; the front, cheapest first, is every level
of recall one can buy and its lowest price. Dominance is judged on the means; each
point keeps its interval, and two points whose intervals overlap may well be equal
(the recommendation's rule is the one that accounts for the noise).

The recommendation is one point of the fronts: :attr:`ParetoFront.note` says where it
sits. The text output, the JSON and the explorer's sweep all draw this one object.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .recommend import Recommendation
from .relevance import TOP
from .results import EvalResult
from .statistics import Estimate

#: The measure the fronts trade against cost.
FRONT_MEASURE = f"recall@{TOP}"
#: The cost axes, in report order.
COSTS: tuple[str, ...] = ("chunks", "embedded", "retrieved")


def cost_label(axis: str, unit: str) -> str:
    """How a cost axis is named for a unit (a tokenizer's name, or nws)."""
    what = "tokens" if unit != "nws" else "nws"
    return {"chunks": "chunks", "embedded": f"embedded {what}", "retrieved": f"{what} in the top {TOP}"}[axis]


@dataclass(frozen=True, slots=True)
class FrontPoint:
    """One setting (``position`` in ``EvalResult.settings``) on the trade-off: its measure,
    its costs, the axes on whose front it is, and for the others the position of the
    setting that dominates it (the best such)."""

    position: int
    value: Estimate
    chunks: int
    embedded: int
    retrieved: Estimate
    fronts: tuple[str, ...]
    dominated_by: dict[str, int] = field(default_factory=dict)

    def cost(self, axis: str) -> float:
        return {"chunks": self.chunks, "embedded": self.embedded, "retrieved": self.retrieved.value}[axis]


@dataclass(slots=True)
class ParetoFront:
    """The trade-off of one evaluation (or of one query source's part of it)."""

    measure: str
    unit: str
    points: list[FrontPoint]
    #: axis -> positions on that axis's front, cheapest first.
    fronts: dict[str, list[int]]
    recommended: int | None = None
    note: str = ""
    #: Docs masked out of the code evaluated (doc queries): the chunks counted are of that code.
    masked_docs: int = 0

    def on_front(self, position: int, axis: str) -> bool:
        return position in self.fronts.get(axis, [])

    def to_dict(self, result: EvalResult) -> dict[str, Any]:
        number = {p: s.index for p, s in enumerate(result.settings)}
        return {
            "measure": self.measure,
            "cost_unit": self.unit,
            "costs": {axis: cost_label(axis, self.unit) for axis in COSTS},
            "points": [{"index": number[p.position], "value": p.value.to_dict(),
                        "chunks": p.chunks, "embedded": p.embedded, "retrieved": p.retrieved.to_dict(1),
                        "fronts": list(p.fronts),
                        "dominated_by": {axis: number[by] for axis, by in p.dominated_by.items()}}
                       for p in self.points],
            "fronts": {axis: [number[p] for p in positions] for axis, positions in self.fronts.items()},
            "recommended": None if self.recommended is None else number[self.recommended],
            "note": self.note,
            "masked_docs": self.masked_docs,
        }


def pareto(result: EvalResult, recommendation: Recommendation | None = None,
           measure: str = FRONT_MEASURE) -> ParetoFront:
    """The fronts of ``measure`` against each cost over the result's settings (see the
    module docstring); ``recommendation`` places the advice on them."""
    settings = result.settings
    values = [s.metrics[measure] for s in settings]
    costs = {"chunks": [float(s.chunks) for s in settings], "embedded": [float(s.embedded) for s in settings],
             "retrieved": [s.retrieved_cost.value for s in settings]}
    fronts: dict[str, list[int]] = {}
    dominated: list[dict[str, int]] = [{} for _ in settings]
    for axis in COSTS:
        cost = costs[axis]
        on: list[int] = []
        for p in range(len(settings)):
            better = [o for o in range(len(settings)) if o != p and _dominates(values[o].value, cost[o],
                                                                                 values[p].value, cost[p])]
            if better:
                dominated[p][axis] = max(better, key=lambda o: (values[o].value, -cost[o], -o))
            else:
                on.append(p)
        # cheapest first; equal points (same value and cost) keep grid order
        fronts[axis] = sorted(on, key=lambda p: (cost[p], -values[p].value, p))
    points = [FrontPoint(p, values[p], s.chunks, s.embedded, s.retrieved_cost,
                         tuple(axis for axis in COSTS if p in fronts[axis]), dominated[p])
              for p, s in enumerate(settings)]
    front = ParetoFront(measure, result.cost_unit, points, fronts,
                        None if recommendation is None else recommendation.setting, masked_docs=result.masked_docs)
    if recommendation is not None and settings:
        front.note = _note(result, front, recommendation)
    return front


def _dominates(value_a: float, cost_a: float, value_b: float, cost_b: float) -> bool:
    return value_a >= value_b and cost_a <= cost_b and (value_a > value_b or cost_a < cost_b)


def _note(result: EvalResult, front: ParetoFront, recommendation: Recommendation) -> str:
    """Where the recommended setting sits on the fronts, in one sentence."""
    point = front.points[recommendation.setting]
    name = {p: f"#{s.index + 1}" for p, s in enumerate(result.settings)}
    on = [cost_label(axis, front.unit) for axis in point.fronts]
    off = list(point.dominated_by.items())
    head = f"{name[point.position]} ({'your current settings' if recommendation.keep_current else 'recommended'})"
    if not off:
        return (f"{head} is on every front: no setting has as high a {front.measure} for fewer "
                + ", fewer ".join(on))
    by_dominator: dict[int, list[str]] = {}
    for axis, by in off:
        by_dominator.setdefault(by, []).append(cost_label(axis, front.unit))
    parts = []
    for by, labels in by_dominator.items():
        other = front.points[by]
        parts.append(f"{name[by]} has {'a higher' if other.value.value > point.value.value else 'the same'} "
                     f"{front.measure} ({100 * other.value.value:.1f}% against {100 * point.value.value:.1f}%) "
                     f"for fewer {' and fewer '.join(labels)}")
    text = f"{head} is " + (f"on the front for {', '.join(on)}; off it for the rest: " if on else "off every front: ")
    text += "; ".join(parts)
    if recommendation.objective != "top5":
        text += f" (it is chosen for {recommendation.measure}, not {front.measure})"
    elif recommendation.keep_current or recommendation.setting != recommendation.best:
        text += " (within the noise of the best, it is the cheaper index or the one in use)"
    return text
