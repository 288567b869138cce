"""``chunk --state`` at its edges, through the command's output: a state file kept inside
the tree it indexes (its lock file beside it is no source file either), and a state path
that cannot be opened, named with the system's reason in plain words."""

from __future__ import annotations

import json
import os
from pathlib import Path

SOURCE = "def first():\n    return 1\n\n\ndef second():\n    return 2\n"


def records(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines()]


def test_a_state_inside_its_tree_indexes_neither_itself_nor_its_lock_file(cli, tmp_path) -> None:
    tree = tmp_path / "repo"
    tree.mkdir()
    (tree / "a.py").write_text(SOURCE)
    state = tree / "index.state.json"
    first = cli("chunk", tree, "--state", state, "--format", "jsonl", "-q")
    assert first.code == 0, first.err
    assert {r["path"] for r in records(first.out)} == {"a.py"}
    lock = tree / "index.state.json.lock"
    assert not lock.exists()  # a run removes its lock file
    lock.write_bytes(b"")  # as a killed run leaves it: the next walk finds it in the tree
    (tree / "a.py").write_text(SOURCE + "\n\ndef third():\n    return 3\n")
    summary_file = tmp_path / "summary.json"
    second = cli("chunk", tree, "--state", state, "--format", "jsonl", "-q", "--summary-json", summary_file)
    assert second.code == 0, second.err
    upserts = [r for r in records(second.out) if r.get("op") == "upsert"]
    assert upserts and {r["path"] for r in upserts} == {"a.py"}
    assert json.loads(summary_file.read_text())["files"] == 1
    assert not lock.exists()
    third = cli("chunk", tree, "--state", state, "--format", "jsonl", "-q")
    assert third.code == 0 and third.out == ""


def test_a_state_path_that_cannot_be_opened_is_named_with_the_reason_in_words(cli, tmp_path) -> None:
    tree = tmp_path / "repo"
    tree.mkdir()
    (tree / "a.py").write_text(SOURCE)
    loop = tmp_path / "loop.json"
    os.symlink(loop.name, loop)  # a link to itself: opening it fails with ELOOP
    run = cli("chunk", tree, "--state", loop, "-q")
    assert run.code == 2
    assert run.out == ""
    assert f"cannot read state file {loop}: Too many levels of symbolic links" in run.err
    assert "Errno" not in run.err
    assert os.path.islink(loop) and not Path(str(loop) + ".lock").exists()
