"""The walk from the command line: links leaving the root, bad ignore lines (issue 12)."""

from __future__ import annotations

import os

import pytest


def paths_of(doc) -> list[str]:
    return sorted(f["path"] for f in doc["files"])


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symlinks")
def test_links_leaving_the_root_need_follow_symlinks(cli, tmp_path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "lib.py").write_text("x = 1\n")
    root = tmp_path / "root"
    root.mkdir()
    (root / "main.py").write_text("y = 2\n")
    os.symlink(outside, root / "linked")
    doc = cli("chunk", root).json()
    assert paths_of(doc) == ["main.py"]
    assert {s["path"]: s["reason"] for s in doc["skipped"]} == {"linked/": "outside-root"}
    followed = cli("chunk", root, "--follow-symlinks").json()
    assert paths_of(followed) == ["linked/lib.py", "main.py"]


def test_a_bad_ignore_line_does_not_stop_the_walk(cli, tmp_path) -> None:
    (tmp_path / ".gitignore").write_bytes(b"[z-a]\n\xef\xbb\xbfnot-a-bom\n*.gen.py\n")
    (tmp_path / "a.py").write_text("a = 1\n")
    (tmp_path / "b.gen.py").write_text("b = 1\n")
    run = cli("chunk", tmp_path, "--exclude", ".gitignore")
    assert run.code == 0, run.err
    assert paths_of(run.json()) == ["a.py"]
