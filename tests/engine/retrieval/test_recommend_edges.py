"""The recommendation and the fusion at their edges: ties, the order of the evidence, the
settings compared, keeping settings that are within the noise of the best without being it."""

from __future__ import annotations

import numpy as np
import pytest

from explorer.engine.options import ChunkOptions
from explorer.engine.retrieval import EvalConfig, EvalResult, Query, QueryOutcome, SettingEval
from explorer.engine.retrieval.hybrid import DEPTH_FACTOR, HybridRetriever, fuse
from explorer.engine.retrieval.ranking import Ranking
from explorer.engine.retrieval.recommend import EVIDENCE, moved_queries, recommend
from explorer.engine.retrieval.relevance import METRIC_NAMES
from explorer.engine.retrieval.statistics import Bootstrap

from .test_recommend import N, _hits, _result


# -- fusion ------------------------------------------------------------------------------------
def test_tied_fused_scores_follow_the_first_ranking_not_the_ids():
    # 6 and 5 have the same fused score (first and second in one ranking, the reverse in the other)
    assert fuse([np.array([[6, 5]]), np.array([[5, 6]])], 2)[0].tolist() == [6, 5]
    assert fuse([np.array([[5, 6]]), np.array([[6, 5]])], 2)[0].tolist() == [5, 6]
    # each found by one side only, at the same position: the first ranking's comes first
    assert fuse([np.array([[9, -1]]), np.array([[3, -1]])], 2)[0].tolist() == [9, 3]
    assert fuse([np.array([[-1, 9]]), np.array([[3, -1]])], 2)[0].tolist() == [3, 9]  # 1/61 beats 1/62
    # a tie within the second ranking alone cannot happen; a tie across positions goes to the better one
    assert fuse([np.array([[2, 4]]), np.array([[4, 2]])], 1)[0].tolist() == [2]


def test_fusion_depth_and_padding():
    lexical, dense = np.array([[0, 1, -1]]), np.array([[1, -1, -1]])
    assert fuse([lexical, dense], 0).shape == (1, 0)
    assert fuse([lexical, dense], 1)[0].tolist() == [1]
    assert fuse([lexical, dense], 4)[0].tolist() == [1, 0, -1, -1]
    assert fuse([], 3).shape == (0, 3)
    assert fuse([np.zeros((0, 4), dtype=np.int64)], 2).shape == (0, 2)


class Recorder:
    """A retriever that returns a fixed ranking and records the depth asked."""

    def __init__(self, ranked: list[int], notes: dict[str, int] | None = None):
        self.ranked, self.asked, self.notes = ranked, [], notes or {}

    def search(self, documents, queries, k, *, on_progress=None, should_stop=None) -> Ranking:
        self.asked.append(k)
        row = (self.ranked + [-1] * k)[:k]
        return Ranking(np.array([row] * len(queries), dtype=np.int64), dict(self.notes))


@pytest.mark.parametrize("documents, k, deeper", [(500, 10, 100), (500, 50, 100), (500, 51, 102),
                                                  (500, 80, 160), (50, 10, 50), (0, 5, 5)])
def test_each_side_is_asked_deeper_than_the_fused_ranking(documents: int, k: int, deeper: int):
    lexical, dense = Recorder([0, 1], {"lexical": 1}), Recorder([1, 2], {"dense": 2})
    hybrid = HybridRetriever(lexical, dense, rrf_k=60)
    ranking = hybrid.search(["doc"] * documents, ["q"], k)
    assert lexical.asked == dense.asked == [deeper]
    assert DEPTH_FACTOR == 2
    assert ranking.ids.shape == (1, k) and ranking.ids[0, :2].tolist() == [1, 0]
    assert ranking.notes == {"lexical": 1, "dense": 2}


@pytest.mark.parametrize("rrf_k", [0, -1, -0.5])
def test_the_fusion_constant_must_be_above_zero(rrf_k: float):
    with pytest.raises(ValueError, match="above 0"):
        HybridRetriever(Recorder([]), Recorder([]), rrf_k=rrf_k)
    HybridRetriever(Recorder([]), Recorder([]), rrf_k=0.001)


# -- the evidence ------------------------------------------------------------------------------
def graded(before: list[float], after: list[float], ranks_before: list[int | None],
           ranks_after: list[int | None]) -> EvalResult:
    """Two settings whose per-query measures are the given fractions (several targets per query)."""
    n = len(before)
    queries = [Query(f"query {q}", f"m{q}.py", q, q + 3, q, q + 1) for q in range(n)]
    bootstrap = Bootstrap(n, seed=0)
    settings = []
    for index, (values, ranks) in enumerate(((before, ranks_before), (after, ranks_after))):
        per_query = {name: np.asarray(values, dtype=float) for name in METRIC_NAMES}
        settings.append(SettingEval(index, ChunkOptions(max_size=400 * (index + 1)), 100 * (index + 1),
                                    {name: bootstrap.estimate(v) for name, v in per_query.items()}, {}, per_query,
                                    [QueryOutcome(rank, ()) for rank in ranks], depth=50))  # as evaluations rank
    return EvalResult(queries, settings, 0, EvalConfig(), "bm25", "docs")


def test_the_evidence_is_the_largest_changes_first_gains_before_losses_then_the_longest_jump():
    before = [0.0, 0.5, 1.0, 0.0, 0.2, 0.5, 0.5]
    after = [1.0, 0.5, 0.0, 0.5, 0.2, 1.0, 1.0]
    ranks_before = [None, 3, 1, 9, 4, 8, 20]
    ranks_after = [1, 3, None, 4, 4, 1, 1]
    result = graded(before, after, ranks_before, ranks_after)
    moved = moved_queries(result, "recall@5", 0, 1, count=10)
    # +1 then -1 (equal size: the gain first), then the three +0.5: the longest rank jump first
    # (20 -> 1 before 8 -> 1 before 9 -> 4); unchanged queries are left out
    assert [m.query for m in moved] == [0, 2, 6, 5, 3]
    first = moved[0]
    assert (first.before, first.after, first.rank_before, first.rank_after) == (0.0, 1.0, None, 1)
    assert (first.text, first.path, first.line) == ("query 0", "m0.py", 1)
    assert moved[1].to_dict() == {"query": 2, "text": "query 2", "path": "m2.py", "line": 3, "before": 1.0,
                                  "after": 0.0, "rank_before": 1, "rank_after": None}
    assert [m.query for m in moved_queries(result, "recall@5", 0, 1)] == [0, 2, 6][:EVIDENCE]
    assert moved_queries(result, "recall@5", 0, 0) == []  # a setting against itself: nothing moved


def test_the_rank_jump_counts_a_miss_as_one_past_the_deeper_ranking():
    # both gains of 1: the miss (None, beyond depth 50) to rank 2 jumps 49, rank 40 to 1 jumps 39
    result = graded([0.0, 0.0], [1.0, 1.0], [40, None], [1, 2])
    assert [m.query for m in moved_queries(result, "recall@5", 0, 1)] == [1, 0]
    result.settings[1].depth = 100  # a deeper ranking: the miss now jumps 99
    assert [m.query for m in moved_queries(result, "recall@5", 0, 1)] == [1, 0]
    result = graded([0.0, 0.0], [1.0, 1.0], [60, None], [1, 50])
    # 60 -> 1 jumps 59, miss (51) -> 50 jumps 1: the first
    assert [m.query for m in moved_queries(result, "recall@5", 0, 1)] == [0, 1]


def test_the_recommendation_evidence_compares_with_the_current_then_the_reference_then_the_runner_up():
    result = _result([_hits(120), _hits(200), _hits(160), _hits(60)], [900, 400, 300, 200], reference=0)
    advice = recommend(result, "top5", current=3)
    assert advice.setting == 1 and advice.compared == 3  # the current settings, when they are not chosen
    assert advice.evidence and all(m.after > m.before for m in advice.evidence)
    assert recommend(result, "top5").compared == 0  # no current settings: the reference
    result.reference = 1
    assert recommend(result, "top5").compared == 2  # the reference is the one chosen: the runner-up
    assert recommend(result, "top5", current=1).compared == 2  # current, chosen and reference all one
    advice = recommend(result, "top5", current=1)
    assert advice.keep_current and [m.query for m in advice.evidence] == [
        m.query for m in moved_queries(result, "recall@5", 2, 1)]


def test_the_runner_up_on_a_tie_is_the_lower_number():
    result = _result([_hits(300), _hits(100), _hits(100)], [500, 400, 300], reference=0)
    assert recommend(result, "top5").compared == 1


def test_a_single_setting_has_nothing_to_compare():
    result = _result([_hits(100)], [500])
    advice = recommend(result, "top5", current=0)
    assert advice.setting == 0 and advice.compared is None and advice.evidence == []
    assert advice.keep_current and advice.tied == [0]


# -- keeping the current settings --------------------------------------------------------------
def test_current_settings_within_the_noise_of_the_best_are_kept_even_when_neither_best_nor_cheapest():
    # #1 is the best (200 hits); #2 (196) the cheapest of those as good; #3 (198) is in use
    result = _result([_hits(200), _hits(196, offset=2), _hits(198, offset=1), _hits(90)], [900, 400, 950, 100])
    advice = recommend(result, "top5", current=2)
    assert advice.best == 0 and advice.tied == [0, 1, 2]
    assert advice.keep_current and advice.setting == 2 and advice.compared == 0
    assert advice.reason == ("no setting is better beyond the noise on recall@5 "
                             "(best #1 50.0%, yours 49.5%); #2 would do as well with 550 fewer chunks")
    assert advice.to_dict(result)["keep_current"] is True and advice.to_dict(result)["index"] == 2
    # without current settings the cheapest of those as good is advised
    fresh = recommend(result, "top5")
    assert not fresh.keep_current and fresh.setting == 1
    # current settings beyond the noise are not kept
    moved = recommend(result, "top5", current=3)
    assert not moved.keep_current and moved.setting == 1 and moved.compared == 3


def test_kept_settings_that_are_also_the_cheapest_name_no_cheaper_one():
    result = _result([_hits(200), _hits(198, offset=1)], [900, 400])
    advice = recommend(result, "top5", current=1)
    assert advice.keep_current and advice.setting == 1
    assert "would do as well" not in advice.reason
    assert advice.reason.endswith("(best #1 50.0%, yours 49.5%)")


def test_the_tied_list_is_in_number_order_and_the_choice_prefers_fewer_chunks_then_the_better_mean():
    # all three as good; #2 and #3 have the same chunks: the better mean (#3) wins
    result = _result([_hits(200), _hits(196, offset=2), _hits(198, offset=1)], [900, 400, 400])
    advice = recommend(result, "top5")
    assert advice.tied == [0, 1, 2] and advice.setting == 2
    assert N == 400


def _rendered(renderable) -> str:  # type: ignore[no-untyped-def]
    import io

    from rich.console import Console

    console = Console(file=io.StringIO(), width=400, color_system=None)
    console.print(renderable)
    return console.file.getvalue()  # type: ignore[attr-defined]


def test_keeping_the_current_settings_is_said_once_in_every_face():
    from explorer.display import recommendation_lines, recommendation_sentence, source_advice_lines
    from explorer.engine.retrieval.recommend import SourceAdvice
    from explorer.tui.queries.model import RetrievalRun
    from explorer.tui.sweep.advice import advice_line
    from explorer.tui.sweep.whiskers import whisker_chart

    result = _result([_hits(200), _hits(196, offset=2), _hits(198, offset=1), _hits(90)], [900, 400, 950, 100])
    advice = recommend(result, "top5", current=2)
    assert advice.keep_current
    why = ("no setting is better beyond the noise on recall@5 (best #1 50.0%, yours 49.5%); "
           "#2 would do as well with 550 fewer chunks")
    cli = recommendation_lines(result, advice)[0]
    assert cli == f"Keep your current settings (max_size=1500; 950 chunks) for --objective top5: {why}."
    assert recommendation_sentence(result, advice) == f"Keep your current settings (#3): {why}"
    per_source = source_advice_lines(result.varied, [SourceAdvice("docs", N, result, advice)] * 2, None)
    assert per_source[1] == f"  docs ({N} queries): keep your current settings (max_size=1500): {why}"
    faces = {"cli": cli, "per source": per_source[1],
             "advice line": _rendered(advice_line(RetrievalRun("/", result, advice))),
             # (the notes under the whiskers: this result has no intervals to draw)
             "whiskers": "".join(_rendered(part) for part in whisker_chart(result, advice).renderables[1:])}
    for face, text in faces.items():
        assert text.lower().count("current settings") == 1, (face, text)
    # a recommendation to move says so once too
    moved = recommend(result, "top5", current=3)
    assert recommendation_lines(result, moved)[0].startswith("Recommended: #2 (max_size=1000; 400 chunks) for "
                                                              "--objective top5: #2 retrieves as well as the best")
    assert recommendation_sentence(result, moved).startswith("#2 retrieves as well as the best (#1, 50.0%)")
