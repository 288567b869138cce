"""Sweeping paths: directories are walked like everywhere else (.gitignore, default
excludes), the walk's skip records reach the result, errors are per file."""

from __future__ import annotations

import os

import pytest

from explorer.workspace.sweep import sweep_paths
from explorer.workspace.walk import plan

PY = '''"""A module."""

import os


def f(x):
    """Doc."""
    total = 0
    for i in range(x):
        total += i * 2
    return total


class Box:
    def size(self):
        return len(os.sep)
'''
TS = """export function twice(n: number): number {
  return n * 2;
}
"""


@pytest.fixture()
def tree(tmp_path):
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "a.py").write_text(PY)
    (tmp_path / "src" / "b.ts").write_text(TS)
    (tmp_path / "src" / "generated.py").write_text(PY * 5)
    (tmp_path / "src" / "logo.py").write_bytes(b"\x89PNG\x00\x00binary")
    (tmp_path / "node_modules").mkdir()
    (tmp_path / "node_modules" / "dep.js").write_text("module.exports = 1;\n")
    (tmp_path / ".gitignore").write_text("generated.py\n")
    return tmp_path


def test_directory_sweep_walks_like_the_other_commands(tree):
    result = sweep_paths(str(tree), [{"max_size": 100}, {"max_size": 1000}], jobs=1)
    assert result.root == str(tree)
    languages = result.settings[0].summary.languages
    assert languages["python"].files == 1 and languages["typescript"].files == 1  # a.py, b.ts
    reasons = {os.path.basename(s.path.rstrip("/")): s.reason for s in result.skipped}
    assert reasons["generated.py"] == "gitignored"
    assert reasons["node_modules"] == "excluded-dir"
    assert reasons["logo.py"] == "binary"


def test_parallel_sweep_gives_the_same_figures(tree):
    grid = [{"max_size": 80}, {"max_size": 400, "strategy": "lines"}]
    one = sweep_paths(str(tree), grid, jobs=1)
    two = sweep_paths(str(tree), grid, jobs=2)
    for a, b in zip(one.settings, two.settings):
        assert a.chunks == b.chunks and a.contextualized_bytes == b.contextualized_bytes
        assert a.summary.overall.sizes == b.summary.overall.sizes
        assert a.summary.overall.any_split == b.summary.overall.any_split


def test_a_file_that_vanishes_is_a_failure_not_a_crash(tree):
    walked = plan([str(tree)])
    os.remove(tree / "src" / "a.py")
    result = sweep_paths(walked, [{"max_size": 300}], jobs=1)
    assert result.files == len(walked.files) - 2  # not the vanished a.py, nor the binary logo.py
    assert [os.path.basename(s.path) for s in result.skipped if s.reason == "binary"] == ["logo.py"]
    assert [(os.path.basename(f.path), f.error_kind) for f in result.failed] == [("a.py", "read")]


def test_missing_path_is_reported(tmp_path):
    with pytest.raises(FileNotFoundError, match="no such file"):
        sweep_paths(str(tmp_path / "nope"), [{"max_size": 300}], jobs=1)
