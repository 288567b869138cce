"""The recommendation rule on hand-made figures: the best, its ties, the cheaper index,
keeping the current settings, the evidence; and deterministic on a real run."""

from __future__ import annotations

import numpy as np
import pytest

from explorer.engine.options import ChunkOptions
from explorer.engine.retrieval import EvalConfig, EvalResult, Query, QueryOutcome, SettingEval
from explorer.engine.retrieval.recommend import recommend
from explorer.engine.retrieval.relevance import METRIC_NAMES
from explorer.engine.retrieval.statistics import Bootstrap

N = 400


def _result(recalls: list[list[float]], chunks: list[int], reference: int = 0) -> EvalResult:
    """Settings whose per-query recall@5 and recall@budget are the given 0/1 lists."""
    queries = [Query(f"query {q}", f"f{q % 7}.py", 0, 10, q, q + 1) for q in range(N)]
    bootstrap = Bootstrap(N, seed=0)
    settings = []
    for index, (values, count) in enumerate(zip(recalls, chunks)):
        per_query = {name: np.asarray(values, dtype=float) for name in METRIC_NAMES}
        settings.append(SettingEval(
            index, ChunkOptions(max_size=500 * (index + 1)), count,
            {name: bootstrap.estimate(v) for name, v in per_query.items()}, {}, per_query,
            [QueryOutcome(1 if v else None, ()) for v in values]))
    return EvalResult(queries, settings, reference, EvalConfig(), "bm25", "docs")


def _hits(count: int, *, offset: int = 0) -> list[float]:
    return [1.0 if (q + offset) % N < count else 0.0 for q in range(N)]


def test_the_best_beyond_the_noise_wins():
    result = _result([_hits(120), _hits(200), _hits(124)], [900, 400, 200])
    advice = recommend(result, "top5")
    assert advice is not None and advice.setting == 1 and advice.best == 1 and advice.tied == [1]
    assert not advice.keep_current and "#2 has the best recall@5: 50.0%" in advice.reason
    assert advice.compared == 0 and advice.evidence and all(m.after > m.before for m in advice.evidence)


def test_among_settings_as_good_as_the_best_the_fewest_chunks():
    # 200 and 196 hits out of 400 on mostly the same queries: not separated
    result = _result([_hits(200), _hits(196, offset=2), _hits(100)], [900, 400, 200])
    advice = recommend(result, "top5")
    assert advice.best == 0 and advice.tied == [0, 1] and advice.setting == 1
    assert "with 500 fewer chunks" in advice.reason and "within the noise" in advice.reason
    assert recommend(result, "top5").to_dict(result) == advice.to_dict(result)  # deterministic


def test_keep_the_current_settings_when_none_is_better_beyond_the_noise():
    result = _result([_hits(200), _hits(198, offset=1), _hits(100)], [900, 400, 200])
    advice = recommend(result, "top5", current=0)
    assert advice.keep_current and advice.setting == 0
    assert advice.reason.startswith("no setting is better beyond the noise")
    assert "#2 would do as well with 500 fewer chunks" in advice.reason
    assert recommend(result, "top5", current=2).setting == 1  # the current one is clearly worse: move


def test_the_objective_picks_the_measure():
    result = _result([_hits(100), _hits(300)], [900, 300])
    result.settings[0].per_query["recall@budget"] = np.asarray(_hits(300))
    result.settings[1].per_query["recall@budget"] = np.asarray(_hits(50))
    for setting in result.settings:
        setting.metrics["recall@budget"] = Bootstrap(N).estimate(setting.per_query["recall@budget"])
    assert recommend(result, "top5").setting == 1
    budget = recommend(result, "budget")
    assert budget.setting == 0 and budget.measure == "recall@budget"
    assert budget.to_dict(result)["budget"] == 4000 and budget.to_dict(result)["budget_unit"] == "nws"
    with pytest.raises(ValueError, match="top5, budget"):
        recommend(result, "recall")
    assert recommend(_result([], []), "top5") is None
