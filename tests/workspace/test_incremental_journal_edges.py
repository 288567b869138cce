"""The incremental run at the edges of its state and its journal: a state of any size up
to its cap is read (a big repository's state is well over the cap of a file to chunk), one
over it is refused with a message, and a commit before every record was read is refused
and leaves the state and the journal as they were. A first run killed before its commit,
a state of another version or root, the files kept as they were (gone after the walk, not
readable by the chunker) with their reasons, a touched file (hashed whole, its chunks'
places remembered) and the summary's JSON."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from explorer.engine.batch import task as engine_task
from explorer.engine.files import DEFAULT_MAX_BYTES, UnreadableFileError
from explorer.engine.options import ChunkOptions
from explorer.workspace.ids import content_hash
from explorer.workspace.incremental import RunSummary, StateError, open_incremental, read_state
from explorer.workspace.walk import WalkOptions, plan

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


def test_a_first_run_killed_before_its_commit_is_finished_by_the_next(tmp_path: Path) -> None:
    """No state yet, only the journal of the run that made none: the next run sends
    everything again and leaves a state and no journal."""
    root = tmp_path / "tree"
    make_tree(root)
    state = tmp_path / "s.json"
    with open_incremental([str(root)], str(state), OPTIONS, jobs=1) as run:
        first = [r.to_dict() for r in run.records()]  # consumed, never committed
    assert not state.exists() and os.path.exists(str(state) + ".journal")
    again = run_once(root, state)
    assert again == first
    assert {r["change"] for r in again} == {"new"}
    assert sorted(os.listdir(tmp_path)) == ["s.json", "tree"]
    assert run_once(root, state) == []


def test_a_state_of_another_version_is_rebuilt_from_the_ids_the_index_holds(tmp_path: Path) -> None:
    root = tmp_path / "tree"
    make_tree(root)
    state = tmp_path / "s.json"
    ids = {r["id"] for r in run_once(root, state)}
    state.write_text(json.dumps({**json.loads(state.read_text()), "version": 99}))
    with pytest.raises(StateError, match="version 99"):
        run_once(root, state)
    with open_incremental([str(root)], str(state), OPTIONS, jobs=1, held=frozenset(ids)) as run:
        records = [r.to_dict() for r in run.records()]
        run.commit()
    assert {r["id"] for r in records} == ids and {r["change"] for r in records} == {"moved"}
    assert run_once(root, state) == []


def test_a_state_of_another_root_names_both(tmp_path: Path) -> None:
    root, other = tmp_path / "tree", tmp_path / "other"
    make_tree(root)
    make_tree(other)
    state = tmp_path / "s.json"
    run_once(other, state)
    with pytest.raises(StateError) as caught:
        run_once(root, state)
    assert str(caught.value) == (
        f"state file {state} was made for root {str(other)!r}, not {str(root)!r}; use one state file per root "
        "(or move that root away: a state follows its tree)"
    )


def test_the_reason_every_file_is_chunked_again_names_the_settings_changed(tmp_path: Path) -> None:
    root = tmp_path / "tree"
    make_tree(root)
    state = tmp_path / "s.json"
    run_once(root, state)
    with open_incremental([str(root)], str(state), ChunkOptions(max_size=200), jobs=1) as run:
        list(run.records())
    assert run.summary.rechunk_reason == "settings changed since the state was written (max_size 120 -> 200)"


def test_a_file_gone_after_the_walk_keeps_its_chunks_with_the_reason(tmp_path: Path) -> None:
    root = tmp_path / "tree"
    make_tree(root)
    state = tmp_path / "s.json"
    run_once(root, state)
    (root / "b.py").write_text("def b():\n    return 20\n")
    files = plan([str(root)], root=str(root))
    (root / "b.py").unlink()  # between the walk and its stat
    with open_incremental(files, str(state), OPTIONS, jobs=1) as run:
        assert list(run.records()) == []
        run.commit()
    assert run.summary.kept == [("b.py", "No such file or directory")]
    assert "b.py" in read_state(str(state), str(root)).files  # its chunks stay in the index


def test_a_file_the_chunker_cannot_read_keeps_its_chunks_with_the_message(tmp_path: Path, monkeypatch) -> None:
    root = tmp_path / "tree"
    make_tree(root)
    state = tmp_path / "s.json"
    run_once(root, state)
    (root / "b.py").write_text("def b():\n    return 20\n")
    real = engine_task.read_source

    def refuse(job, max_bytes):
        if job.label == "b.py":
            raise UnreadableFileError(job.label, "permission denied")
        return real(job, max_bytes)

    monkeypatch.setattr(engine_task, "read_source", refuse)
    with open_incremental([str(root)], str(state), OPTIONS, jobs=1) as run:
        assert list(run.records()) == []
    assert run.summary.kept == [("b.py", "cannot read b.py: permission denied")]


def test_a_touched_file_over_the_default_read_cap_is_hashed_whole(tmp_path: Path) -> None:
    """Its status changed, its content did not: read whole (the walk took it), it is
    touched, not kept as unreadable."""
    root = tmp_path / "tree"
    make_tree(root)
    state = tmp_path / "s.json"
    walk = WalkOptions(max_file_size=64 * 2**20)
    with open_incremental([str(root)], str(state), OPTIONS, walk, jobs=1) as run:
        list(run.records())
        run.commit()
    big = b"x = 1\n" * (DEFAULT_MAX_BYTES // 6 + 1)
    (root / "b.py").write_bytes(big)
    saved = json.loads(state.read_text())
    saved["files"]["b.py"]["hash"] = content_hash(big)  # as if the state had chunked this content
    state.write_text(json.dumps(saved))
    with open_incremental([str(root)], str(state), OPTIONS, walk, jobs=1) as run:
        assert list(run.records()) == []
    # (a.py too: made just now, its status was not trusted, so it was hashed again)
    assert (run.summary.touched, run.summary.kept) == (2, [])


def test_a_touched_file_remembers_where_its_chunks_are(tmp_path: Path) -> None:
    """After a touch (same content, new status) a later edit elsewhere in the file still
    tells the chunk left in place ("metadata") from a moved one."""
    root = tmp_path / "tree"
    root.mkdir()
    body = "    return alpha + beta + gamma + delta + epsilon + zeta + eta + theta + iota + kappa\n"
    source = f"def first():\n{body}\n\ndef second():\n{body}"
    (root / "a.py").write_text(source)
    state = tmp_path / "s.json"
    run_once(root, state)
    os.utime(root / "a.py", ns=(1_000_000_000, 1_000_000_000))  # touched
    assert run_once(root, state) == []
    (root / "a.py").write_text(source[: -len(body)] + body.replace("kappa", "lambda_"))
    changes = {r["text"].split("(")[0]: r["change"] for r in run_once(root, state) if r["op"] == "upsert"}
    assert changes == {"def first": "metadata", "def second": "new"}


def test_the_summary_as_json() -> None:
    summary = RunSummary(
        files=1,
        unchanged=2,
        touched=3,
        chunked=4,
        deleted_files=5,
        upserts=6,
        new_texts=7,
        deletes=8,
        rechunk_reason="why",
        kept=[("a.py", "gone")],
        seconds=1.23456,
    )
    assert summary.to_dict() == {
        "files": 1,
        "unchanged": 2,
        "touched": 3,
        "chunked": 4,
        "deletedFiles": 5,
        "upserts": 6,
        "newTexts": 7,
        "deletes": 8,
        "rechunkAll": "why",
        "kept": 1,
        "seconds": 1.235,
    }
