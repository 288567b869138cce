"""Pure parts of the retrieval views: whisker drawing, pieces of a target."""

from __future__ import annotations

from pathlib import Path

from explorer.engine.options import ChunkOptions
from explorer.engine.retrieval import Estimate
from explorer.tui.queries.model import NO_QUERIES, _pieces, evaluate_directory, kept_or_cut, rank_text
from explorer.tui.queries.table import shown, shown_tail
from explorer.tui.sweep.whiskers import whisker, whisker_chart


def test_whisker_places_mean_and_interval_on_the_scale():
    assert whisker(Estimate(0.5, 0.25, 0.75), 0.0, 1.0, width=9) == "  ├─●─┤  "
    assert whisker(Estimate(0.0, 0.0, 1.0), 0.0, 1.0, width=5) == "●───┤"
    assert whisker(Estimate(0.3, 0.3, 0.3), 0.2, 0.4, width=5) == "  ●  "  # no interval: the dot alone
    # Values outside the scale stay on the track.
    assert whisker(Estimate(0.9, 0.8, 1.0), 0.0, 0.5, width=5) == "    ●"


def test_pieces_counts_the_chunks_overlapping_a_target():
    spans = [(0, 10, 5), (10, 20, 5), (20, 30, 5), (35, 40, 2)]
    assert _pieces(spans, 12, 18) == 1
    assert _pieces(spans, 5, 25) == 3
    assert _pieces(spans, 30, 35) == 0  # a gap between chunks
    assert _pieces(spans, 0, 40) == 4
    assert _pieces([], 0, 10) == 0


def test_words():
    assert rank_text(None) == ">10" and rank_text(3) == "3"
    assert kept_or_cut(1) == "kept it whole"
    assert kept_or_cut(3, "this definition") == "cut this definition into 3 pieces"


def test_file_text_in_cells_is_made_safe_and_cut():
    assert shown("a\x1b[31m  b\n c", 20) == "a␛[31m b c"
    assert shown("abcdefgh", 5) == "abcd…"
    assert shown_tail("src/deep/module.py:10", 12) == "…odule.py:10"


def test_a_directory_without_docs_says_there_is_nothing_to_retrieve(tmp_path: Path):
    (tmp_path / "m.py").write_text("def f(x):\n    return x\n")
    run = evaluate_directory(str(tmp_path), [ChunkOptions(max_size=300), ChunkOptions(max_size=600)], jobs=1)
    assert run is not None and run.result.queries == []
    chart = whisker_chart(run.result)
    assert [str(part) for part in chart.renderables] == [
        "No queries. docs: no function, method or class here has a doc of 8 words or more. Another source may give "
        "some (docs, calls, types, history: a git checkout's commits)."]


def test_without_git_the_view_gives_the_historys_reason(tmp_path: Path):
    (tmp_path / "m.py").write_text("def f(x):\n    return x\n")
    run = evaluate_directory(str(tmp_path), [ChunkOptions(max_size=300), ChunkOptions(max_size=600)], jobs=1,
                             queries="history")
    assert run is not None and run.result.queries == []
    (text,) = [str(part) for part in whisker_chart(run.result).renderables]
    assert text.startswith("No queries. history: ") and "is not inside a git repository" in text
    assert NO_QUERIES not in text


def test_a_stopped_evaluation_gives_nothing(tmp_path: Path):
    (tmp_path / "m.py").write_text('def f(x):\n    """Return the value it was given, unchanged, to the caller."""\n    return x\n')
    assert evaluate_directory(str(tmp_path), [ChunkOptions()], jobs=1, should_stop=lambda: True) is None
    run = evaluate_directory(str(tmp_path), [ChunkOptions()], jobs=1)
    assert run is not None and len(run.result.queries) == 1
