"""One file under several settings: the lines strategy over a kept tree, one parse per
language, and the names of the settings that differ."""

from __future__ import annotations

import explorer
from explorer.engine.api import parse
from explorer.engine.batch.skips import SkippedInput, count_reasons
from explorer.engine.measure.per_setting import chunk_setting, chunk_settings, setting_label, varied_fields
from explorer.engine.options import ChunkOptions

PY = "import os\n\n\ndef f(x):\n    return x + 1\n\n\nclass A:\n    def m(self):\n        return [1, 2, 3]\n" * 4


def spans(chunks) -> list[tuple[int, int]]:
    return [(c.byte_range.start, c.byte_range.end) for c in chunks]


def test_a_lines_setting_packs_lines_like_the_api_and_leaves_the_tree_to_the_caller() -> None:
    parsed = parse("a.py", PY, ChunkOptions())
    lines = ChunkOptions(strategy="lines", max_size=40)
    chunks = chunk_setting(parsed, lines)
    assert parsed.tree is not None  # still there to measure the line-packed chunks against
    assert spans(chunks) == spans(explorer.chunk("a.py", PY, strategy="lines", max_size=40))
    assert {(c.strategy, c.fallback_reason) for c in chunks} == {("lines", "lines strategy")}
    ast = chunk_setting(parsed, ChunkOptions(max_size=40))
    assert spans(ast) == spans(explorer.chunk("a.py", PY, max_size=40)) != spans(chunks)
    assert {c.strategy for c in ast} == {"ast"}


def test_a_file_without_a_grammar_keeps_its_own_reason() -> None:
    parsed = parse("notes.unknownext", "some words\nmore words\n", ChunkOptions())
    chunks = chunk_setting(parsed, ChunkOptions(strategy="lines"))
    assert [c.fallback_reason for c in chunks] == [parsed.fallback] == ["unknown language"]


def test_each_language_is_parsed_once_and_given_chunkings_are_reused() -> None:
    parsed = parse("a.py", PY, ChunkOptions())
    given = chunk_setting(parsed, ChunkOptions())
    settings = [
        ChunkOptions(),
        ChunkOptions(max_size=40),
        ChunkOptions(language="python", strategy="lines"),  # the detected language: the same tree
        ChunkOptions(language="javascript"),
        ChunkOptions(language="javascript", max_size=40),
    ]
    made = list(chunk_settings(parsed, settings, chunked={ChunkOptions(): given}))
    assert [m.options for m in made] == settings
    assert made[0].chunks is given and made[0].chunk_seconds == 0.0
    assert made[1].tree is parsed and made[2].tree is parsed
    assert made[3].tree is made[4].tree is not parsed
    assert made[3].tree.language == "javascript"
    assert [m.parse_seconds > 0 for m in made] == [False, False, False, True, False]
    assert made[1].chunks != made[0].chunks


def test_a_setting_that_detects_is_not_given_a_forced_languages_tree() -> None:
    forced = parse("a.py", PY, ChunkOptions(language="javascript"))
    made = list(chunk_settings(forced, [ChunkOptions(language="javascript"), ChunkOptions()],
                               parsed_language="javascript"))
    assert made[0].tree is forced
    assert made[1].tree.language == "python"


def test_varied_fields_and_labels() -> None:
    settings = [ChunkOptions(max_size=500), ChunkOptions(max_size=500, overlap_lines=2), ChunkOptions(max_size=900)]
    varied = varied_fields(settings)
    assert varied == ["max_size", "overlap_lines"]
    assert setting_label(settings[1], varied, 1) == "max_size=500 overlap_lines=2"
    assert varied_fields(settings[:1]) == ["max_size"]
    assert setting_label(settings[0], [], 4) == "setting 5"


def test_skip_reasons_are_counted_most_frequent_first() -> None:
    skipped = [SkippedInput("a", "binary"), SkippedInput("b", "undecodable"), SkippedInput("c", "undecodable"),
               SkippedInput("d", "aaa")]
    assert list(count_reasons(skipped).items()) == [("undecodable", 2), ("aaa", 1), ("binary", 1)]
