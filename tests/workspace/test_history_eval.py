"""History queries in the whole evaluation: matched against the evaluated tree, the
controls (each query's own target indexed alone must be found; shuffled targets must
not), figures and advice per source with the disagreement warning, and the trade-off."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from explorer.engine.options import ChunkOptions
from explorer.engine.retrieval import Bootstrap, EvalConfig, EvalResult, Query, QueryOutcome, SettingEval
from explorer.engine.retrieval.bm25 import BM25Retriever
from explorer.engine.retrieval.evaluate import evaluate_prepared, with_isolated_targets, with_shuffled_targets
from explorer.engine.retrieval.pareto import COSTS, pareto
from explorer.engine.retrieval.recommend import advice_by_source, recommend, sources_disagree
from explorer.engine.retrieval.results import HISTORY_UNNAMED
from explorer.workspace.evaluate import evaluate_paths

SETTINGS = [ChunkOptions(max_size=60), ChunkOptions(max_size=300), ChunkOptions(max_size=3000)]


def test_history_queries_ask_for_definitions_still_in_the_tree(history_repo: Path, history_topics):
    run = evaluate_paths(str(history_repo), SETTINGS, queries="docs,history", jobs=1, keep_prepared=True)
    result = run.result
    history = [q for q in result.queries if q.origin == "history"]
    assert len(history) == len(history_topics) + 3  # the obsolete helper is gone from the tree
    assert result.history is not None and result.history.counts["gone"] == 2
    assert result.history.queries == len(history) and result.history.names_target == 1
    named = [q for q in history if q.names_target]
    assert [q.subject for q in named] == ["Escape every shell metacharacter in a quoted argument"]
    for query in history:  # the target span is the definition, in the file as it is now
        data = (history_repo / query.path).read_bytes()[query.start:query.end].decode()
        assert data.startswith(("def ", "VERSION")), query
    groups = result.groups()
    assert list(groups) == ["history", HISTORY_UNNAMED]  # the code has no docs: history only
    assert len(groups[HISTORY_UNNAMED]) == len(history) - 1
    document = result.to_dict()
    assert document["history"]["queries"] == len(history)
    assert set(document["sources"]) == {"history", HISTORY_UNNAMED}


def test_the_positive_and_negative_controls_behave(history_repo: Path):
    run = evaluate_paths(str(history_repo), SETTINGS[1:], queries="history", jobs=1, keep_prepared=True)
    prepared = run.prepared
    assert prepared is not None
    asked = run.result
    alone = evaluate_prepared(with_isolated_targets(prepared), BM25Retriever())
    shuffled = evaluate_prepared(with_shuffled_targets(prepared), BM25Retriever())
    for k in range(len(asked.settings)):
        value = asked.settings[k].metrics["recall@5"].value
        assert alone.settings[k].metrics["recall@5"].value >= 0.95
        assert value >= 0.6
        noise = shuffled.settings[k].metrics["recall@5"]
        assert noise.high < asked.settings[k].metrics["recall@5"].low  # far below, beyond the noise
        if asked.settings[k].chunks >= 50:  # with few chunks, a top 5 holds much of the code by chance
            assert noise.value <= 0.1


def test_without_git_the_other_sources_still_run(tmp_path: Path, history_repo: Path):
    plain = tmp_path / "plain"
    shutil.copytree(history_repo / "src", plain)
    (plain / "doc.py").write_text('def documented():\n    """Return the answer to every question in the world."""\n'
                                  "    return 42\n")
    result = evaluate_paths(str(plain), SETTINGS[:2], queries="docs,history", jobs=1).result
    assert {q.origin for q in result.queries} == {"docs"}
    assert any("no history queries" in w and "not inside a git repository" in w for w in result.warnings)
    assert result.history is not None and "not inside a git repository" in (result.history.problem or "")


# -- per source: advice and disagreement ------------------------------------------------------
def made_result(per_source: dict[str, list[list[float]]], chunks: list[int]) -> EvalResult:
    """A result whose recall@5 per query is given, per source and setting."""
    queries = [Query(f"q{source}{i}", "a.py", 0, 1, 0, 0, origin=source)
               for source, values in per_source.items() for i in range(len(values[0]))]
    config = EvalConfig(resamples=200)
    bootstrap = Bootstrap(len(queries), resamples=200, seed=0)
    settings = []
    columns = [np.concatenate([np.asarray(values[k], float) for values in per_source.values()])
               for k in range(len(chunks))]
    for k, count in enumerate(chunks):
        per_query = {name: columns[k] for name in ("recall@5", "recall@budget")}
        settings.append(SettingEval(
            k, ChunkOptions(max_size=500 * (k + 1)), count,
            {n: bootstrap.estimate(v) for n, v in per_query.items()},
            {n: bootstrap.paired(v, columns[0]) for n, v in per_query.items()},
            per_query, [QueryOutcome(1, ()) for _ in queries], retrieved=np.full(len(queries), 100.0 * (k + 1)),
            retrieved_cost=bootstrap.estimate(np.full(len(queries), 100.0 * (k + 1))), embedded=1000 - 100 * k))
    return EvalResult(queries, settings, 0, config, "bm25", ",".join(per_source))


def test_sources_that_recommend_different_settings_are_warned_about():
    n = 60
    docs = [[1.0] * n, [0.0] * n]  # docs: the first setting finds everything
    history = [[0.0] * n, [1.0] * n]  # history: the second does
    result = made_result({"docs": docs, "history": history}, chunks=[100, 50])
    advice = advice_by_source(result, "top5")
    assert [a.source for a in advice] == ["docs", "history"]
    assert [a.result.settings[a.recommendation.setting].index for a in advice] == [0, 1]
    warning = sources_disagree(result, advice)
    assert warning is not None and "docs (60 queries) recommends #1" in warning
    assert "history (60 queries) recommends #2" in warning and "your call" in warning
    agreeing = made_result({"docs": docs, "history": docs}, chunks=[100, 50])
    assert sources_disagree(agreeing, advice_by_source(agreeing, "top5")) is None


def test_the_fronts_hold_what_no_other_setting_beats(history_repo: Path):
    result = evaluate_paths(str(history_repo), SETTINGS, queries="history", jobs=1).result
    front = pareto(result, recommend(result, "top5"))
    for axis in COSTS:
        on = front.fronts[axis]
        assert on and [front.points[p].cost(axis) for p in on] == sorted(front.points[p].cost(axis) for p in on)
        for point in front.points:
            others = [o for o in front.points if o.position != point.position]
            beaten = any(o.value.value >= point.value.value and o.cost(axis) <= point.cost(axis)
                         and (o.value.value > point.value.value or o.cost(axis) < point.cost(axis)) for o in others)
            assert (point.position in on) is (not beaten)
            if beaten:
                by = front.points[point.dominated_by[axis]]
                assert by.value.value >= point.value.value and by.cost(axis) <= point.cost(axis)
    document = front.to_dict(result)
    assert [p["index"] for p in document["points"]] == [s.index for s in result.settings]
    assert document["recommended"] is not None and front.note


@pytest.mark.parametrize("objective", ["top5", "budget"])
def test_every_source_gets_its_own_advice(history_repo: Path, objective: str):
    result = evaluate_paths(str(history_repo), SETTINGS, queries="history", jobs=1).result
    advice = advice_by_source(result, objective)
    assert [a.source for a in advice] == ["history", HISTORY_UNNAMED]
    whole = recommend(result, objective)
    assert whole is not None and advice[0].recommendation is not None
    assert advice[0].recommendation.setting == whole.setting  # one source: its advice is the overall one
