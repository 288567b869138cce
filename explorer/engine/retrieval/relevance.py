"""Span relevance and the per-query measures, in non-whitespace characters (nws).

A retrieved chunk is a **hit** when its overlap with the target is at least
``threshold`` of the target or at least ``threshold`` of the chunk. The first
clause lets a chunk that holds the whole (or most of the) definition hit; the
second is the only way to hit a definition bigger than a chunk, and still asks
that the chunk be mostly that definition. Any-overlap relevance would hand big
chunks free hits.

Per query, from the ranked chunks (each given as its nws and its overlap with the
target; chunks of other files overlap 0):

- ``recall@k`` (k = 1, 5, 10): 1 when a hit is ranked k or better (hit@k);
- ``mrr@10``: 1 / the rank of the first hit, 0 beyond 10;
- ``ndcg@10``: binary gains, the ideal ranking being every chunk of the corpus that
  is a hit (``relevant``) first;
- ``recall@budget``: chunks are taken in rank order while their nws fit in the
  budget (the first one that does not fit ends the list): the share of the
  target's nws they cover. It compares chunk sizes at equal context cost;
- ``precision@5`` and ``iou@5``: the top 5 chunks' nws that are target, over the
  chunks' nws (precision) or over the union of chunks and target (IoU).

A setting's chunks never share bytes, so overlaps add up without double counting.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

#: Every per-query measure, in report order.
METRIC_NAMES: tuple[str, ...] = (
    "recall@1", "recall@5", "recall@10", "mrr@10", "ndcg@10", "recall@budget", "precision@5", "iou@5",
)
#: The measures every view shows (the eval table and chart, the sweep's columns, the
#: explorer's whiskers), most telling first: a view with room for n measures shows the first n.
#: Hit rate at the usual top 5 and recall at equal context cost come first: they disagree on
#: chunk size, and both must be seen.
HEADLINE_METRICS: tuple[str, ...] = ("recall@5", "recall@budget", "iou@5", "mrr@10", "ndcg@10", "precision@5")
DEFAULT_THRESHOLD = 0.5
DEFAULT_BUDGET = 4000
#: How deep the ranking must go for the rank measures.
RANK_DEPTH = 10
#: How many chunks precision and IoU look at (and a queries view shows).
TOP = 5

_DISCOUNT = [1.0 / math.log2(i + 2) for i in range(RANK_DEPTH)]


def is_hit(overlap: int, target_nws: int, chunk_nws: int, threshold: float = DEFAULT_THRESHOLD) -> bool:
    """The hit rule (see the module docstring); no overlap is never a hit."""
    return overlap > 0 and (overlap >= threshold * target_nws or overlap >= threshold * chunk_nws)


def score_query(
    ranked: Sequence[tuple[int, int]],
    target_nws: int,
    relevant: int,
    *,
    threshold: float = DEFAULT_THRESHOLD,
    budget: int = DEFAULT_BUDGET,
    costs: Sequence[int] | None = None,
    hits: Sequence[bool] | None = None,
) -> tuple[int | None, dict[str, float]]:
    """``(rank of the first hit or None, {measure: value})`` for one query.

    ``ranked``: ``(chunk nws, overlap nws with the target)`` in rank order, deep
    enough for the budget; ``relevant``: how many chunks of the corpus are hits;
    ``costs``: what each ranked chunk spends of the budget when it is not counted in
    nws (a budget in chars or lines: the chunks' sizes in that unit); ``hits``: whether
    each ranked chunk is a hit, when the caller decided it (a query with several targets,
    each with its own share); otherwise the hit rule against the one target.
    The rank is searched through all of ``ranked`` (a rank of 14 tells more than
    "not in the top 10"); the rank measures only count the top 10."""
    first: int | None = None
    dcg = 0.0
    for position, (nws, overlap) in enumerate(ranked):
        if hits[position] if hits is not None else is_hit(overlap, target_nws, nws, threshold):
            if position >= RANK_DEPTH:
                first = first or position + 1
                break
            dcg += _DISCOUNT[position]
            if first is None:
                first = position + 1
    ideal = sum(_DISCOUNT[: min(relevant, RANK_DEPTH)])
    spent = covered = 0
    for position, (nws, overlap) in enumerate(ranked):
        cost = nws if costs is None else costs[position]
        if spent + cost > budget:
            break
        spent += cost
        covered += overlap
    top = ranked[:TOP]
    top_nws = sum(n for n, _ in top)
    top_overlap = sum(o for _, o in top)
    union = top_nws + target_nws - top_overlap
    return first, {
        "recall@1": float(first is not None and first <= 1),
        "recall@5": float(first is not None and first <= 5),
        "recall@10": float(first is not None and first <= RANK_DEPTH),
        "mrr@10": 1.0 / first if first is not None and first <= RANK_DEPTH else 0.0,
        "ndcg@10": dcg / ideal if ideal else 0.0,
        "recall@budget": min(1.0, covered / target_nws) if target_nws else 0.0,
        "precision@5": top_overlap / top_nws if top_nws else 0.0,
        "iou@5": top_overlap / union if union else 0.0,
    }
