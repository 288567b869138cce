"""Incremental re-chunking through the Python API: the difference since the last run,
faults that must lose nothing, and the state file's checks."""

from __future__ import annotations

import json
import os
import shutil

import pytest

from explorer.engine.batch import task as engine_batch
from explorer.engine.batch.skips import SkipReason
from explorer.engine.files import UnreadableFileError
from explorer.engine.options import ChunkOptions
from explorer.workspace import incremental, walk
from explorer.workspace.export_run import write_export
from explorer.workspace.incremental import StateError, open_incremental, read_state
from explorer.workspace.walk import Skipped, plan

OPTIONS = ChunkOptions(max_size=120)


def make_tree(root) -> None:
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "a.py").write_text("def a():\n    return 1\n\n\ndef a2():\n    return 11\n")
    (root / "pkg" / "b.py").write_text("def b():\n    return 2\n")
    (root / "c.py").write_text("class C:\n    x = 3\n")


def run_once(root, state, options=OPTIONS, **kwargs):
    """One incremental run, committed: (records as dicts, summary)."""
    with open_incremental([str(root)], str(state), options, jobs=1, **kwargs) as run:
        records = [r.to_dict() for r in run.records()]
        run.commit()
    return records, run.summary


def full_export(root, options=OPTIONS) -> dict[str, dict]:
    """Every chunk record of a full JSONL export, by id."""
    import io

    buffer = io.BytesIO()
    write_export(buffer, plan([str(root)], root=str(root)), options, fmt="jsonl", jobs=1)
    records = [json.loads(line) for line in buffer.getvalue().splitlines()]
    return {r["id"]: r for r in records if "id" in r}  # not the skipped files' lines


def apply(index: dict[str, dict], records) -> None:
    for record in records:
        if record["op"] == "upsert":
            index[record["id"]] = {k: v for k, v in record.items() if k not in ("op", "change")}
        else:
            index.pop(record["id"], None)


def test_first_run_upserts_everything_and_a_second_run_emits_nothing(tmp_path) -> None:
    root = tmp_path / "tree"
    make_tree(root)
    records, summary = run_once(root, tmp_path / "s.json")
    index: dict[str, dict] = {}
    apply(index, records)
    assert index == full_export(root)
    assert {r["op"] for r in records} == {"upsert"}
    again, summary = run_once(root, tmp_path / "s.json")
    assert again == [] and summary.chunked == 0 and summary.files == 3


def test_changes_give_exactly_the_difference_of_two_full_exports(tmp_path) -> None:
    root = tmp_path / "tree"
    make_tree(root)
    state = tmp_path / "s.json"
    index: dict[str, dict] = {}
    apply(index, run_once(root, state)[0])
    before = full_export(root)
    (root / "pkg" / "a.py").write_text("def a():\n    return 1\n\n\ndef a3():\n    return 33\n")  # one chunk kept
    (root / "pkg" / "b.py").unlink()
    (root / "d.py").write_text("d = 4\n")
    records, summary = run_once(root, state)
    after = full_export(root)
    apply(index, records)
    assert index == after
    deletes = {r["id"] for r in records if r["op"] == "delete"}
    assert deletes == set(before) - set(after)
    upserts = {r["id"] for r in records if r["op"] == "upsert"}
    assert upserts == {i for i, r in after.items() if r["path"] in ("pkg/a.py", "d.py")}
    assert summary.deleted_files == 1 and summary.chunked == 2


def test_touched_file_is_hashed_not_chunked(tmp_path, monkeypatch) -> None:
    root = tmp_path / "tree"
    make_tree(root)
    for path in root.rglob("*.py"):
        os.utime(path, ns=(10**18, 10**18))  # long before the run
    # Their change times are recent (the files were just written): as if they were not,
    # so that statuses are trusted at once.
    monkeypatch.setattr(incremental, "RACY_NS", 0)
    state = tmp_path / "s.json"
    run_once(root, state)
    os.utime(root / "c.py", ns=(15 * 10**17, 15 * 10**17))
    records, summary = run_once(root, state)
    assert records == [] and summary.touched == 1 and summary.chunked == 0
    saved = read_state(str(state), str(root))
    assert saved is not None and saved.files["c.py"].stat is not None and saved.files["c.py"].stat[1] == 15 * 10**17
    # every status is now trusted: the next run reads no file of the tree
    real = incremental.read_regular_file

    def no_tree_reads(path, *args, **kwargs):
        assert str(root) not in os.fspath(path), "read an unchanged file"
        return real(path, *args, **kwargs)

    monkeypatch.setattr(incremental, "read_regular_file", no_tree_reads)
    records, summary = run_once(root, state)
    assert records == [] and summary.unchanged == 3 and summary.touched == 0


def test_changed_settings_rechunk_everything_and_say_why(tmp_path) -> None:
    root = tmp_path / "tree"
    make_tree(root)
    state = tmp_path / "s.json"
    index: dict[str, dict] = {}
    apply(index, run_once(root, state)[0])
    other = ChunkOptions(max_size=30)
    records, summary = run_once(root, state, other)
    assert summary.rechunk_reason is not None and "max_size 120 -> 30" in summary.rechunk_reason
    apply(index, records)
    assert index == full_export(root, other)


def test_unreadable_file_keeps_its_previous_chunks(tmp_path, monkeypatch) -> None:
    root = tmp_path / "tree"
    make_tree(root)
    state = tmp_path / "s.json"
    index: dict[str, dict] = {}
    apply(index, run_once(root, state)[0])
    kept = dict(index)
    (root / "c.py").write_text("class C:\n    x = 30\n")
    target = str(root / "c.py")
    real = incremental.read_regular_file

    def refuse(path, *args, **kwargs):
        if os.fspath(path) == target:
            raise UnreadableFileError(target, "permission denied")
        return real(path, *args, **kwargs)

    monkeypatch.setattr(incremental, "read_regular_file", refuse)
    records, summary = run_once(root, state)
    assert records == [] and summary.kept == [("c.py", "permission denied")]
    monkeypatch.undo()
    # next time it reads: the change arrives, once
    records, summary = run_once(root, state)
    apply(index, records)
    assert index == full_export(root) != kept
    assert {r["path"] for r in records} == {"c.py"}


def test_file_that_fails_to_chunk_is_neither_deleted_nor_repeated(tmp_path, monkeypatch) -> None:
    root = tmp_path / "tree"
    make_tree(root)
    state = tmp_path / "s.json"
    shutil.rmtree(root / "pkg")
    index: dict[str, dict] = {}
    apply(index, run_once(root, state)[0])
    make_tree(tmp_path / "again")
    shutil.copytree(tmp_path / "again" / "pkg", root / "pkg")  # two new files
    real = engine_batch.read_chunked_file

    def refuse(path, *args, **kwargs):
        if os.fspath(path).endswith("b.py"):
            raise UnreadableFileError(os.fspath(path), "input/output error")
        return real(path, *args, **kwargs)

    monkeypatch.setattr(engine_batch, "read_chunked_file", refuse)
    records, summary = run_once(root, state)
    assert {r["path"] for r in records} == {"pkg/a.py"}
    assert [rel for rel, _ in summary.kept] == ["pkg/b.py"]
    monkeypatch.undo()
    records, _ = run_once(root, state)
    assert {r["path"] for r in records} == {"pkg/b.py"}


def refuse_listing(monkeypatch, folder: str) -> None:
    """The walk finds ``folder`` unreadable (as a folder without read permission is, but
    also for root, which ignores permissions)."""
    real = walk._list

    def refuse(directory, rel):
        if rel == folder:
            return Skipped(directory, rel, SkipReason.UNREADABLE, True, "Permission denied")
        return real(directory, rel)

    monkeypatch.setattr(walk, "_list", refuse)


def test_unreadable_directory_keeps_the_files_under_it(tmp_path, monkeypatch) -> None:
    root = tmp_path / "tree"
    make_tree(root)
    state = tmp_path / "s.json"
    run_once(root, state)
    refuse_listing(monkeypatch, "pkg")
    records, summary = run_once(root, state)
    assert records == [] and summary.deleted_files == 0
    assert set(read_state(str(state), str(root)).files) == {"c.py", "pkg/a.py", "pkg/b.py"}


@pytest.mark.parametrize("content, fragment", [
    (b"{not json", "corrupt"),
    (b'{"format": "something-else"}', "not a chunk-explorer state file"),
    (b'{"format": "chunk-explorer-state", "version": 99}', "version 99"),
    (b'{"format": "chunk-explorer-state", "version": 1, "root": "/"}', "made for root"),
    (b"\xff\xfe", "corrupt"),
])
def test_unusable_state_is_refused_and_left_alone(tmp_path, content, fragment) -> None:
    root = tmp_path / "tree"
    make_tree(root)
    state = tmp_path / "s.json"
    state.write_bytes(content)
    with pytest.raises(StateError, match=fragment), open_incremental([str(root)], str(state), OPTIONS) as run:
        list(run.records())
    assert state.read_bytes() == content


def test_corrupt_entries_are_refused(tmp_path) -> None:
    root = tmp_path / "tree"
    make_tree(root)
    state = tmp_path / "s.json"
    run_once(root, state)
    data = json.loads(state.read_text())
    data["files"]["c.py"]["ids"] = "oops"
    state.write_text(json.dumps(data))
    with pytest.raises(StateError, match="corrupt"):
        read_state(str(state), str(root))


def test_no_commit_no_state_and_commit_needs_every_record(tmp_path) -> None:
    root = tmp_path / "tree"
    make_tree(root)
    state = tmp_path / "s.json"
    with open_incremental([str(root)], str(state), OPTIONS, jobs=1) as run:
        first = next(iter(run.records()))
        assert first.op == "upsert"
        with pytest.raises(RuntimeError):
            run.commit()
    assert not state.exists()


def test_a_second_run_on_the_same_state_refuses(tmp_path) -> None:
    root = tmp_path / "tree"
    make_tree(root)
    state = tmp_path / "s.json"
    with open_incremental([str(root)], str(state), OPTIONS, jobs=1), \
            pytest.raises(StateError, match="another run"), open_incremental([str(root)], str(state), OPTIONS):
        pass
    with open_incremental([str(root)], str(state), OPTIONS, jobs=1) as run:  # released
        list(run.records())


def test_rename_is_a_delete_and_an_add(tmp_path) -> None:
    root = tmp_path / "tree"
    make_tree(root)
    state = tmp_path / "s.json"
    first, _ = run_once(root, state)
    (root / "c.py").rename(root / "renamed.py")
    records, _ = run_once(root, state)
    old = {r["id"] for r in first if r["path"] == "c.py"}
    assert {r["id"] for r in records if r["op"] == "delete"} == old
    assert {r["path"] for r in records if r["op"] == "upsert"} == {"renamed.py"}


def test_options_and_walk_come_from_the_settings_file(tmp_path) -> None:
    root = tmp_path / "tree"
    make_tree(root)
    (root / ".chunk-explorer.toml").write_text('[chunk]\nmax_size = 33\n[walk]\nexclude = ["pkg"]\n')
    with open_incremental([str(root)], str(tmp_path / "s.json"), jobs=1) as run:
        records = [r.to_dict() for r in run.records()]
    assert run.options.max_size == 33
    assert {r["path"] for r in records} == {"c.py"}


def test_files_deleted_beside_an_unreadable_folder_are_deleted(tmp_path, monkeypatch) -> None:
    root = tmp_path / "tree"
    make_tree(root)
    (root / "pkg2").mkdir()
    (root / "pkg2" / "gone.py").write_text("def gone():\n    return 5\n")
    (root / "pkgextra.py").write_text("def extra():\n    return 6\n")
    state = tmp_path / "s.json"
    first, _ = run_once(root, state)
    refuse_listing(monkeypatch, "pkg")
    (root / "pkg2" / "gone.py").unlink()
    (root / "pkgextra.py").unlink()
    records, summary = run_once(root, state)
    gone = {r["id"] for r in first if r["path"] in ("pkg2/gone.py", "pkgextra.py")}
    assert {r["id"] for r in records if r["op"] == "delete"} == gone and gone
    assert set(read_state(str(state), str(root)).files) == {"c.py", "pkg/a.py", "pkg/b.py"}


@pytest.mark.parametrize("how", ["nul bytes", "not utf-8", "png"])
def test_a_file_that_became_binary_loses_its_chunks(tmp_path, how) -> None:
    root = tmp_path / "tree"
    make_tree(root)
    state = tmp_path / "s.json"
    first, _ = run_once(root, state)
    data = {"nul bytes": b"def b():\n    return 2\n\x00\x00\x00",
            "not utf-8": b"def b():\n    return '\xff\xfe'\n",
            "png": b"\x89PNG\r\n\x1a\n" + bytes(range(256))}[how]
    (root / "pkg" / "b.py").write_bytes(data)
    records, _ = run_once(root, state)
    stale = {r["id"] for r in first if r["path"] == "pkg/b.py"}
    assert {r["id"] for r in records if r["op"] == "delete"} == stale
    index: dict[str, dict] = {}
    apply(index, first)
    apply(index, records)
    assert index == full_export(root)
    assert run_once(root, state)[0] == []


def test_a_file_written_with_an_old_mtime_just_before_a_run_is_hashed_next_time(tmp_path) -> None:
    """Written twice within one tick of the clock, the same size, each time given the same
    old mtime (as ``cp -p`` or ``tar`` do): only the change time says it is fresh."""
    root = tmp_path / "tree"
    make_tree(root)
    state = tmp_path / "s.json"
    old = 10**18
    for path in root.rglob("*.py"):
        os.utime(path, ns=(old, old))
    run_once(root, state)
    target = root / "pkg" / "b.py"
    target.write_text("def b():\n    return 3\n")  # same size as before
    os.utime(target, ns=(old, old))
    first, _ = run_once(root, state)
    assert {r["path"] for r in first if r["op"] == "upsert"} == {"pkg/b.py"}
    stat_before = os.stat(target)
    target.write_text("def b():\n    return 4\n")  # same size again
    os.utime(target, ns=(old, old))
    # On a coarse clock both writes share one change time; on a fine one, make the state
    # remember the second's, as a coarse clock would have (only if it trusted the first).
    if os.stat(target).st_ctime_ns != stat_before.st_ctime_ns:
        saved = json.loads(state.read_text())
        entry = saved["files"]["pkg/b.py"]
        if entry["stat"] is not None:
            entry["stat"] = [*entry["stat"][:2], os.stat(target).st_ctime_ns, entry["stat"][3]]
            state.write_text(json.dumps(saved))
    second, _ = run_once(root, state)
    assert {r["text"] for r in second if r["op"] == "upsert"} == {"def b():\n    return 4\n"}


def abandoned_run(root, state, take: int | None = None, **kwargs) -> list[dict]:
    """A run whose first ``take`` records (all with None) were consumed, never committed:
    a process killed mid-output. Those records."""
    with open_incremental([str(root)], str(state), OPTIONS, jobs=1, **kwargs) as run:
        records = run.records()
        return [r.to_dict() for _, r in zip(range(take if take is not None else 10**9), records)]


def journal_of(state) -> str:
    return str(state) + ".journal"


def test_an_abandoned_run_then_a_revert_gives_the_full_export(tmp_path) -> None:
    root = tmp_path / "tree"
    make_tree(root)
    state = tmp_path / "s.json"
    index: dict[str, dict] = {}
    apply(index, run_once(root, state)[0])
    original = (root / "pkg" / "a.py").read_text()
    (root / "pkg" / "a.py").write_text(original.replace("return 1", "return 100"))
    (root / "c.py").unlink()
    partial = abandoned_run(root, state)
    assert {r["path"] for r in partial} == {"pkg/a.py", "c.py"}
    apply(index, partial)  # the consumer applied all of it; the state was not replaced
    assert os.path.exists(journal_of(state))
    (root / "pkg" / "a.py").write_text(original)  # the checkout moves back
    (root / "c.py").write_text("class C:\n    x = 3\n")
    records, summary = run_once(root, state)
    apply(index, records)
    assert index == full_export(root)
    # the reverted files' chunks are sent again as new (the index may lack them), the ids
    # only the abandoned run made are deleted
    assert {r["path"] for r in records} == {"pkg/a.py", "c.py"}
    assert {r["change"] for r in records if r["op"] == "upsert"} == {"new"}
    assert {r["id"] for r in records if r["op"] == "delete"} == \
        {r["id"] for r in partial if r["op"] == "upsert"} - set(full_export(root))
    assert sorted(os.listdir(tmp_path)) == ["s.json", "tree"]  # the journal is gone
    assert run_once(root, state)[0] == []


def test_abandoned_runs_one_after_another_all_count(tmp_path) -> None:
    root = tmp_path / "tree"
    make_tree(root)
    state = tmp_path / "s.json"
    index: dict[str, dict] = {}
    apply(index, run_once(root, state)[0])
    (root / "pkg" / "b.py").write_text("def b():\n    return 20\n")
    apply(index, abandoned_run(root, state))
    (root / "pkg" / "b.py").write_text("def b():\n    return 200\n")
    (root / "c.py").write_text("class C:\n    x = 300\n")
    second = abandoned_run(root, state, take=1)  # c.py's upsert only: b.py's did not reach the index
    assert [r["path"] for r in second] == ["c.py"]
    apply(index, second)
    (root / "pkg" / "b.py").write_text("def b():\n    return 2\n")  # as in the state: the first run's
    # journal still says the index holds another version of it
    records, _ = run_once(root, state)
    apply(index, records)
    assert index == full_export(root)
    assert not os.path.exists(journal_of(state))


def test_a_run_that_emits_nothing_writes_no_journal(tmp_path, monkeypatch) -> None:
    root = tmp_path / "tree"
    make_tree(root)
    state = tmp_path / "s.json"
    run_once(root, state)
    with open_incremental([str(root)], str(state), OPTIONS, jobs=1) as run:
        assert list(run.records()) == []
        assert not os.path.exists(journal_of(state))
        run.commit()
    assert sorted(os.listdir(tmp_path)) == ["s.json", "tree"]


def test_a_torn_last_line_is_what_was_never_emitted(tmp_path) -> None:
    root = tmp_path / "tree"
    make_tree(root)
    state = tmp_path / "s.json"
    run_once(root, state)
    (root / "c.py").write_text("class C:\n    x = 30\n")
    abandoned_run(root, state)
    with open(journal_of(state), "ab") as handle:
        handle.write(b'{"path": "pkg/a.py", "ids": ["01')  # killed inside the write of a line
    records, _ = run_once(root, state)
    assert {r["path"] for r in records} == {"c.py"}  # a.py: its records were never emitted


@pytest.mark.parametrize("content, fragment", [
    (b'{"format": "chunk-explorer-journal", "version": 1}\n{"path": 3}\n', "corrupt \\(line 2\\)"),
    (b'{"format": "chunk-explorer-journal", "version": 1}\nnot json\n{"path": "c.py", "ids": []}\n', "line 2"),
    (b'{"format": "chunk-explorer-journal", "version": 7}\n', "version 7"),
    (b'{"path": "c.py", "ids": []}\n', "not a chunk-explorer journal"),
    (b"\xff\n", "not a chunk-explorer journal"),
])
def test_an_unreadable_journal_is_refused_with_the_way_out(tmp_path, content, fragment) -> None:
    root = tmp_path / "tree"
    make_tree(root)
    state = tmp_path / "s.json"
    run_once(root, state)
    saved = state.read_bytes()
    with open(journal_of(state), "wb") as handle:
        handle.write(content)
    with pytest.raises(StateError, match=fragment) as caught, open_incremental([str(root)], str(state), OPTIONS):
        pass
    assert "--reconcile" in str(caught.value) and "not finished" in str(caught.value)
    assert state.read_bytes() == saved
    # the ids the index holds make the journal unneeded: the run rebuilds and removes it
    held = frozenset(full_export(root))
    with open_incremental([str(root)], str(state), OPTIONS, jobs=1, held=held) as run:
        assert [r.op for r in run.records()] == ["upsert"] * len(held)
        run.commit()
    assert not os.path.exists(journal_of(state))


def test_a_file_only_an_abandoned_reconcile_deleted_is_sent_again(tmp_path) -> None:
    """A reconcile's deletes have no path; the file that makes such an id, restored as the
    state knew it, must come back into the index."""
    root = tmp_path / "tree"
    make_tree(root)
    state = tmp_path / "s.json"
    index: dict[str, dict] = {}
    apply(index, run_once(root, state)[0])
    content = (root / "c.py").read_text()
    (root / "c.py").unlink()
    partial = abandoned_run(root, state, held=frozenset(index))
    assert [r["path"] for r in partial if r["op"] == "delete"] == [None]  # c.py's one chunk, no path
    apply(index, partial)
    (root / "c.py").write_text(content)
    records, _ = run_once(root, state)
    apply(index, records)
    assert index == full_export(root)
    assert "c.py" in {r["path"] for r in records if r["op"] == "upsert"}  # (the reconcile journaled the rest)


def test_an_unreadable_file_an_abandoned_run_changed_is_repaired_when_it_can_be_read(tmp_path, monkeypatch) -> None:
    root = tmp_path / "tree"
    make_tree(root)
    state = tmp_path / "s.json"
    index: dict[str, dict] = {}
    apply(index, run_once(root, state)[0])
    (root / "c.py").write_text("class C:\n    x = 30\n")
    apply(index, abandoned_run(root, state))
    (root / "c.py").write_text("class C:\n    x = 3\n")  # back as the state knew it
    target = str(root / "c.py")
    real = incremental.read_regular_file

    def refuse(path, *args, **kwargs):
        if os.fspath(path) == target:
            raise UnreadableFileError(target, "permission denied")
        return real(path, *args, **kwargs)

    monkeypatch.setattr(incremental, "read_regular_file", refuse)
    records, summary = run_once(root, state)
    assert records == [] and summary.kept == [("c.py", "permission denied")]
    monkeypatch.undo()
    records, _ = run_once(root, state)  # the state remembered that c.py is unsure
    apply(index, records)
    assert index == full_export(root)
