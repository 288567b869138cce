"""``eval --queries history`` and ``sweep --retrieval --queries history``: the history's
figures and funnel, the trade-off in text and JSON agreeing point for point, each source's
advice, and what happens without git."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

SIZES = "60,300,3000"


def front_marks(text: str) -> dict[int, tuple[bool, bool, bool]]:
    """The trade-off table's rows: setting number -> on the front of (chunks, embedded, top 5)."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("Trade-off:"))
    rows = {}
    for line in lines[start + 2:]:
        if not re.match(r"\s*\d+\s", line):
            break
        cells = re.split(r"\s{2,}", line.strip())
        number = int(cells[0])
        costs = cells[-3:]
        rows[number] = tuple(cell.startswith("◆") for cell in costs)
    return rows


def test_eval_history_prints_the_tradeoff_as_its_json_says(cli, history_repo: Path):
    text = cli("eval", history_repo, "--queries", "history", "--max-size", SIZES, "--no-settings", "--no-chart")
    assert text.code == 0, text.err
    data = cli("eval", history_repo, "--queries", "history", "--max-size", SIZES, "--no-settings", "--json")
    assert data.code == 0
    document = data.json()
    assert document["query_source"] == "history" and document["queries"] == document["history"]["queries"] > 30
    assert document["history"]["screened_out"]["merge"] == 1
    fronts = document["pareto"]["fronts"]
    marks = front_marks(text.out)
    assert sorted(marks) == [1, 2, 3]
    for point in document["pareto"]["points"]:
        expected = tuple(point["index"] in fronts[axis] for axis in ("chunks", "embedded", "retrieved"))
        assert marks[point["index"] + 1] == expected
        assert expected == tuple(axis in point["fronts"] for axis in ("chunks", "embedded", "retrieved"))
    recommendation = document["recommendation"]
    assert set(recommendation["by_source"]) == {"history", "history, target not named"}
    assert recommendation["disagreement"] is None
    assert f"#{recommendation['index'] + 1} (" in document["pareto"]["note"]
    # the text says the same: the funnel, the advice per source
    assert "History: " in text.err and "commits read" in text.err and "1 merges" in text.err
    assert "Per query source (--objective top5):" in text.out
    assert "history, target not named" in text.out


def test_eval_history_without_git_says_why(cli, history_repo: Path, tmp_path: Path):
    plain = tmp_path / "plain"
    shutil.copytree(history_repo / "src", plain)
    only = cli("eval", plain, "--queries", "history", "--no-settings", "-q")
    assert only.code == 1
    assert "No queries:" in only.err and "is not inside a git repository" in only.err
    (plain / "doc.py").write_text('def documented():\n    """Return the answer to every question in the world."""\n'
                                  "    return 42\n")
    mixed = cli("eval", plain, "--queries", "docs,history", "--no-settings", "--json")
    assert mixed.code == 0
    document = mixed.json()
    assert document["queries"] == 1 and "not inside a git repository" in document["history"]["problem"]
    assert any("no history queries" in w for w in document["warnings"])


def test_history_flags_shape_the_queries(cli, history_repo: Path):
    limited = cli("eval", history_repo, "--queries", "history", "--history-limit", "5", "--no-settings", "--json")
    assert limited.json()["queries"] == 5
    strict = cli("eval", history_repo, "--queries", "history", "--history-min-words", "40", "--no-settings", "-q")
    assert strict.code == 1 and "messages too short" in strict.err
    bad = cli("eval", history_repo, "--queries", "history", "--history-limit", "0")
    assert bad.code == 2


def test_sweep_retrieval_takes_history_queries(cli, history_repo: Path):
    run = cli("sweep", history_repo, "--retrieval", "--queries", "history", "--max-size", SIZES, "--no-settings",
              "--json")
    assert run.code == 0, run.err
    retrieval = run.json()["retrieval"]
    assert retrieval["query_source"] == "history" and retrieval["queries"] > 30
    assert len(retrieval["pareto"]["points"]) == 3
    assert "by_source" in retrieval["recommendation"]
