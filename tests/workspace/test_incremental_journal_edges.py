"""The incremental run at the edges of its state and its journal: a state of any size up
to its cap is read (a big repository's state is well over the cap of a file to chunk), one
over it is refused with a message, and a commit before every record was read is refused
and leaves the state and the journal as they were."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from explorer.engine.files import DEFAULT_MAX_BYTES
from explorer.engine.options import ChunkOptions
from explorer.workspace.incremental import StateError, open_incremental, read_state

OPTIONS = ChunkOptions(max_size=120)


def make_tree(root: Path) -> None:
    root.mkdir()
    (root / "a.py").write_text("def a():\n    return 1\n")
    (root / "b.py").write_text("def b():\n    return 2\n")


def run_once(root: Path, state: Path) -> list[dict]:
    with open_incremental([str(root)], str(state), OPTIONS, jobs=1) as run:
        records = [r.to_dict() for r in run.records()]
        run.commit()
    return records


def test_a_state_larger_than_a_file_to_chunk_is_read(tmp_path: Path) -> None:
    root = tmp_path / "tree"
    make_tree(root)
    state = tmp_path / "s.json"
    run_once(root, state)
    # JSON allows any whitespace after the value: the same state, past the cap of a source file.
    with open(state, "ab") as handle:
        handle.write(b" " * (DEFAULT_MAX_BYTES + 1))
    assert read_state(str(state), str(root)) is not None
    assert run_once(root, state) == []  # nothing changed: the state was read, not refused


def test_a_state_over_its_cap_is_refused_unread(tmp_path: Path) -> None:
    root = tmp_path / "tree"
    make_tree(root)
    state = tmp_path / "s.json"
    with open(state, "wb") as handle:
        handle.truncate((1 << 30) + 1)  # sparse: nothing must be read of it
    with pytest.raises(StateError) as caught:
        read_state(str(state), str(root))
    assert str(caught.value) == f"cannot read state file {state}: too large; give another --state file"


def test_a_commit_before_every_record_was_read_is_refused(tmp_path: Path) -> None:
    root = tmp_path / "tree"
    make_tree(root)
    state = tmp_path / "s.json"
    run_once(root, state)
    saved = state.read_bytes()
    (root / "a.py").write_text("def a():\n    return 10\n")
    (root / "b.py").write_text("def b():\n    return 20\n")
    with open_incremental([str(root)], str(state), OPTIONS, jobs=1) as run:
        with pytest.raises(RuntimeError) as early:
            run.commit()  # not one record read
        records = run.records()
        first = next(records)
        with pytest.raises(RuntimeError) as midway:
            run.commit()  # a's records out, b's not yet
        records.close()
    message = "commit() before every record was read: the state would skip changes"
    assert str(early.value) == str(midway.value) == message
    assert state.read_bytes() == saved
    # What was emitted is journaled: the next run sends both files, and a.py's again.
    journal = [json.loads(line) for line in Path(str(state) + ".journal").read_text().splitlines()]
    assert [line.get("path") for line in journal] == [None, first.path]
    again = run_once(root, state)
    assert {r["path"] for r in again if r["op"] == "upsert"} == {"a.py", "b.py"}
    assert not os.path.exists(str(state) + ".journal")
