"""The walk from the command line: links leaving the root, bad ignore lines."""

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


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symlinks")
def test_an_ignore_file_not_read_is_named_on_stderr(cli, tmp_path) -> None:
    (tmp_path / "a.py").write_text("x = 1\n")
    (tmp_path / "secret.py").write_text("y = 2\n")
    (tmp_path / "rules").write_text("secret.py\n")
    os.symlink(tmp_path / "rules", tmp_path / ".gitignore")  # git does not follow it either
    run = cli("chunk", tmp_path, "--format", "jsonl")
    assert run.code == 0
    assert '"path": "secret.py", "language"' in run.out  # its rule did not apply ...
    assert "warning: ignore file not read" in run.err and ".gitignore: a symbolic link" in run.err  # ... and it says so
    plain = tmp_path / ".gitignore"
    plain.unlink()
    plain.write_text("secret.py\n")
    run = cli("chunk", tmp_path, "--format", "jsonl")
    assert '"path": "secret.py", "language"' not in run.out and "warning" not in run.err
    assert '{"path": "secret.py", "skipped": {"reason": "gitignored"}}' in run.out.splitlines()
