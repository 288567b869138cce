"""The hit rule and the per-query measures on hand-made spans (sizes in nws)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from explorer.engine.retrieval import Bootstrap, is_hit, score_query


@pytest.mark.parametrize(
    ("overlap", "target", "chunk", "hit"),
    [
        (50, 100, 1000, True),    # exactly half the target
        (49, 100, 1000, False),   # just under half the target, a small share of the chunk
        (100, 1000, 200, True),   # exactly half the chunk: a chunk inside a big definition
        (99, 1000, 200, False),   # just under half of either
        (1, 1, 500, True),        # a one-character target inside a big chunk
        (0, 10, 10, False),       # no overlap is never a hit
    ],
)
def test_hit_rule_at_the_threshold_edges(overlap, target, chunk, hit):
    assert is_hit(overlap, target, chunk, 0.5) is hit


def test_hit_threshold_is_a_parameter():
    assert is_hit(30, 100, 1000, 0.3)
    assert not is_hit(30, 100, 1000, 0.31)


def test_rank_measures_from_the_first_hit():
    # target of 100 nws; the hit is ranked 3rd, a 20-nws sliver of the target at 2nd is no hit
    ranked = [(300, 0), (400, 20), (120, 100), (200, 0)]
    rank, m = score_query(ranked, 100, relevant=1, budget=10_000)
    assert rank == 3
    assert m["recall@1"] == 0 and m["recall@5"] == 1 and m["recall@10"] == 1
    assert m["mrr@10"] == pytest.approx(1 / 3)
    assert m["ndcg@10"] == pytest.approx(1 / math.log2(4))


def test_ndcg_ideal_counts_every_relevant_chunk_in_the_corpus():
    # a definition split over two chunks, both hits; only one is retrieved (first)
    ranked = [(100, 100), (50, 0)]
    _, m = score_query(ranked, 200, relevant=2, budget=10_000)
    assert m["ndcg@10"] == pytest.approx(1 / (1 + 1 / math.log2(3)))


def test_a_hit_beyond_ten_has_a_rank_but_scores_no_rank_measure():
    ranked = [(10, 0)] * 13 + [(10, 10)]
    rank, m = score_query(ranked, 10, relevant=1, budget=10_000)
    assert rank == 14
    assert m["recall@10"] == 0 and m["mrr@10"] == 0 and m["ndcg@10"] == 0
    assert m["recall@budget"] == 1.0  # 140 nws fit in the budget
    rank, _ = score_query(ranked[:13], 10, relevant=1, budget=10_000)
    assert rank is None


def test_budget_stops_at_the_first_chunk_that_does_not_fit():
    # target 300 nws, in the 2nd (200 of it) and 4th (100) chunks
    ranked = [(1000, 0), (2500, 200), (900, 0), (400, 100)]
    _, m = score_query(ranked, 300, relevant=2, budget=4000)
    # 1000 + 2500 = 3500 fit; 900 would make 4400: the list ends there, the 4th never counts
    assert m["recall@budget"] == pytest.approx(200 / 300)
    _, m = score_query(ranked, 300, relevant=2, budget=4400)
    assert m["recall@budget"] == pytest.approx(200 / 300)  # 4400 fits, 400 more does not
    _, m = score_query(ranked, 300, relevant=2, budget=4800)
    assert m["recall@budget"] == pytest.approx(1.0)


def test_budget_smaller_than_the_first_chunk_covers_nothing():
    _, m = score_query([(5000, 300)], 300, relevant=1, budget=4000)
    assert m["recall@budget"] == 0


def test_precision_and_iou_of_the_top_five():
    # top 5: 5 chunks of 100 nws; 60 and 40 nws of a 150-nws target; the 6th is ignored
    ranked = [(100, 60), (100, 0), (100, 40), (100, 0), (100, 0), (100, 50)]
    _, m = score_query(ranked, 150, relevant=3, budget=10_000)
    assert m["precision@5"] == pytest.approx(100 / 500)
    assert m["iou@5"] == pytest.approx(100 / (500 + 150 - 100))


def test_empty_ranking_scores_zero():
    rank, m = score_query([], 50, relevant=1)
    assert rank is None and all(v == 0 for v in m.values())


def test_bootstrap_is_deterministic_and_paired():
    values = np.array([1.0] * 60 + [0.0] * 40)
    a = Bootstrap(100, seed=7).estimate(values)
    b = Bootstrap(100, seed=7).estimate(values)
    assert a == b and a.value == pytest.approx(0.6) and a.low < 0.6 < a.high
    assert Bootstrap(100, seed=8).estimate(values) != a
    # the same values shifted on every query: the paired difference has no spread
    delta = Bootstrap(100, seed=7).paired(values * 0 + 1, values * 0)
    assert (delta.value, delta.low, delta.high) == (1.0, 1.0, 1.0) and delta.separated
    noise = Bootstrap(100, seed=7).paired(values, values[::-1])
    assert not noise.separated


def test_bootstrap_without_kept_resamples_gives_the_same_intervals(monkeypatch):
    from explorer.engine.retrieval import statistics

    values = np.random.default_rng(1).random(300)
    kept = Bootstrap(300, seed=3).estimate(values)
    monkeypatch.setattr(statistics, "_KEEP_ENTRIES", 0)
    assert Bootstrap(300, seed=3).estimate(values) == kept
