"""The parameter sweep: per-setting figures equal what chunking and measuring each
setting separately gives; errors are per file. (Walking directories for a sweep is
tested in tests/workspace/test_sweep_paths.py.)"""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

import explorer
from explorer.engine.api import chunk_parsed, parse
from explorer.engine.batch import BatchFile
from explorer.engine.batch.skips import SkippedInput
from explorer.engine.measure.per_setting import varied_fields
from explorer.engine.measure.problems import find_problems
from explorer.engine.measure.quality import measure_file, summarize
from explorer.engine.measure.sweep import DEFAULT_EMBEDDING_DIM, settings_grid, sweep
from explorer.engine.options import ChunkOptions

PY = '''"""A module."""

import os


# Comment above f.
def f(x):
    """Doc."""
    total = 0
    for i in range(x):
        total += i * 2
        if total > 100:
            break
    return total


class Box:
    def __init__(self, items):
        self.items = list(items)

    def size(self):
        return len(self.items)


def g():
    return [os.sep] * 3
'''
TS = """// Greeter.
export class Greeter {
  constructor(private readonly name: string) {}
  greet(): string {
    return `hello ${this.name}`;
  }
}

export function twice(n: number): number {
  return n * 2;
}
"""
INPUTS = [("pkg/a.py", PY), ("pkg/b.ts", TS), ("pkg/c.py", PY.replace("def g", "def h") * 3)]


def expected_summary(options: ChunkOptions, inputs=INPUTS):
    """What measuring each file separately under one setting gives."""
    measures, text_bytes = [], 0
    for name, code in inputs:
        parsed = parse(name, code, options)
        chunks = chunk_parsed(parsed, options)
        measures.append(measure_file(parsed, chunks, options))
        text_bytes += sum(len(c.contextualized_text.encode()) for c in chunks)
    return summarize(measures), text_bytes


# -- settings ----------------------------------------------------------------------------
def test_settings_grid_is_the_cartesian_product_in_axis_order():
    base = ChunkOptions(context_mode="minimal")
    grid = settings_grid(base, {"max_size": [100, 200], "overlap_lines": [0, 2]})
    assert [(s.max_size, s.overlap_lines) for s in grid] == [(100, 0), (100, 2), (200, 0), (200, 2)]
    assert all(s.context_mode == "minimal" for s in grid)  # the base carries over
    assert settings_grid(base, {"max_size": [100, 100, 200]}) == [
        ChunkOptions.build(base, max_size=100), ChunkOptions.build(base, max_size=200)]


@pytest.mark.parametrize("axes", [{"max_size": [0]}, {"max_size": []}, {"colour": ["red"]}, {"size_unit": ["words"]}])
def test_settings_grid_rejects_invalid_values(axes):
    with pytest.raises(ValueError):
        settings_grid(None, axes)


def test_varied_fields():
    grid = settings_grid(None, {"max_size": [100, 200], "strategy": ["ast", "lines"]})
    assert varied_fields(grid) == ["max_size", "strategy"]
    assert varied_fields(grid[:1]) == ["max_size"]


# -- results equal separate runs ----------------------------------------------------------
def test_each_setting_matches_chunking_and_measuring_it_alone():
    grid = settings_grid(None, {"max_size": [60, 150, 1500], "overlap_lines": [0, 2]})
    result = sweep(INPUTS, grid, jobs=1)
    assert result.files == 3 and result.complete and not result.failed
    assert [s.options for s in result.settings] == grid
    for setting in result.settings:
        summary, text_bytes = expected_summary(setting.options)
        assert setting.summary.to_dict()["overall"] | {"throughputMBs": None} == \
            summary.to_dict()["overall"] | {"throughputMBs": None}
        assert setting.chunks == sum(len(explorer.chunk(n, c, **setting.options.to_dict())) for n, c in INPUTS)
        assert setting.contextualized_bytes == text_bytes
        assert setting.index_bytes == setting.chunks * DEFAULT_EMBEDDING_DIM * 4 + text_bytes
    counts = [s.chunks for s in result.settings]
    assert counts[0] > counts[2] > counts[4]  # smaller limit, more chunks
    overlap = result.settings[0], result.settings[1]
    assert overlap[0].chunks == overlap[1].chunks and overlap[1].contextualized_bytes > overlap[0].contextualized_bytes


def test_index_size_uses_the_embedding_dimension():
    small = sweep(INPUTS, [{"max_size": 200}], jobs=1, embedding_dim=8).settings[0]
    large = sweep(INPUTS, [{"max_size": 200}], jobs=1, embedding_dim=1536).settings[0]
    assert small.vector_bytes == small.chunks * 8 * 4
    assert large.index_bytes - small.index_bytes == small.chunks * (1536 - 8) * 4


def test_lines_setting_is_measured_against_the_syntax_tree():
    result = sweep(INPUTS, [{"max_size": 90}, {"max_size": 90, "strategy": "lines"}], jobs=1)
    ast, lines = (s.summary.overall for s in result.settings)
    assert lines.files_without_tree == 0  # line packing, but definitions still found
    assert lines.any_fit == ast.any_fit > 0
    assert ast.any_split == 0 and lines.any_split > 0  # the trade-off the sweep exists to show


def test_a_forced_language_parses_again():
    inputs = [("notes.txt", PY)]
    result = sweep(inputs, [{"max_size": 200}, {"max_size": 200, "language": "python"}], jobs=1)
    detected, forced = (s.summary.overall for s in result.settings)
    assert detected.files_without_tree == 1 and forced.files_without_tree == 0
    assert list(result.settings[1].summary.languages) == ["python"]


def test_duplicate_settings_are_run_once():
    result = sweep(INPUTS, [{"max_size": 300}, ChunkOptions(max_size=300), {"max_size": 400}], jobs=1)
    assert [s.options.max_size for s in result.settings] == [300, 400]


@pytest.mark.parametrize("settings, kwargs", [([], {}), ([{"max_size": -1}], {}), ([{"nope": 1}], {}),
                                              ([{"max_size": 10}], {"embedding_dim": 0})])
def test_invalid_requests_fail_before_any_work(settings, kwargs):
    with pytest.raises(ValueError):
        sweep(INPUTS, settings, jobs=1, **kwargs)


# -- inputs --------------------------------------------------------------------------------
def test_files_are_read_from_their_paths_and_binaries_are_skipped(tmp_path):
    """The engine reads the files it is given (it never walks); a binary one is skipped,
    a vanished one failed, and the caller's own skip records are carried into the result."""
    (tmp_path / "a.py").write_text(PY)
    (tmp_path / "logo.py").write_bytes(b"\x89PNG\x00\x00binary")

    class Walked:  # what a walk reports for a file it left out
        path, reason = "big.py", "too-large"

        def to_dict(self) -> dict[str, object]:
            return {"path": self.path, "reason": self.reason}

    files = [BatchFile(path=str(tmp_path / name), name=name) for name in ("a.py", "logo.py", "gone.py")]
    result = sweep(files + [("pkg/b.ts", TS)], [{"max_size": 300}], root=str(tmp_path), skipped=[Walked()], jobs=1)
    assert result.root == str(tmp_path)
    assert result.files == 2  # a.py and the in-memory b.ts
    assert [(s.path, s.reason) for s in result.skipped] == [("big.py", "too-large"), ("logo.py", "binary")]
    assert isinstance(result.skipped[1], SkippedInput)
    assert [(f.path, f.error_kind) for f in result.failed] == [("gone.py", "read")]
    assert result.to_dict()["run"]["skipped"] == {"binary": 1, "too-large": 1}


def test_a_path_string_is_not_an_input():
    with pytest.raises(TypeError, match="BatchFile or"):
        sweep(["src/a.py"], [{"max_size": 300}], jobs=1)  # type: ignore[list-item]


def test_progress_and_stopping_early():
    seen = []
    result = sweep(INPUTS, [{"max_size": 300}], jobs=1,
                   on_progress=lambda done, total, item: seen.append((done, total, item.path)),
                   should_stop=lambda: len(seen) >= 2)
    assert seen == [(1, 3, "pkg/a.py"), (2, 3, "pkg/b.ts")]
    assert not result.complete and result.files == 2


def test_to_dict_is_json_with_the_key_figures():
    result = sweep(INPUTS, settings_grid(None, {"max_size": [100, 500]}), jobs=1)
    document = json.loads(json.dumps(result.to_dict()))
    assert document["varied"] == ["max_size"]
    assert document["indexSizeFormula"] == "chunks * embeddingDim * 4 + contextualizedBytes"
    first = document["settings"][0]
    for key in ("chunks", "size", "tinyPct", "overPct", "splitDefinitions", "splitAnyPct", "docSplitPct",
                "indexBytes", "contextualizedBytes", "options"):
        assert key in first
    assert set(first["size"]) == {"min", "median", "p95", "max"}
    assert first["options"]["max_size"] == 100
    assert document["run"]["files"] == 3


def test_definitions_cut_because_too_big_per_setting_next_to_those_split_though_they_fit():
    settings = settings_grid(ChunkOptions(), {"max_size": [40, 5000], "strategy": ["ast", "lines"]})
    result = sweep(INPUTS, settings, jobs=1)
    for row in result.settings:
        options = row.options
        want_cut = want_total = 0
        for name, code in INPUTS:
            parsed = parse(name, code, replace(options, strategy="ast"))
            chunks = chunk_parsed(replace(parsed, tree=None, fallback="lines") if options.strategy == "lines"
                                  else parsed, options)
            found = find_problems(parsed, chunks, options)
            want_cut += found.counts()["too-big"]
            want_total += found.definitions
        assert (row.cut_too_big, row.definitions) == (want_cut, want_total), options
        record = row.to_dict()
        assert record["cutTooBig"] == want_cut and record["definitions"] == want_total
    small, large = (next(r for r in result.settings if r.options.max_size == size and r.options.strategy == "ast")
                    for size in (40, 5000))
    assert small.cut_too_big > 0 and large.cut_too_big == 0
    assert small.split_definitions == 0  # the AST chunker never splits a definition that fits
    assert small.cut_too_big_pct == pytest.approx(100 * small.cut_too_big / small.definitions)
