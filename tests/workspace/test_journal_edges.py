"""The state's journal at its edges, as the next run reads it: the lines a run writes (a
header per run, one line per file, in the order written, appended to what killed runs
left), what is read back from every kind of damage, and the messages that name the
journal and say what is wrong with it."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from explorer.workspace.journal import (
    JOURNAL_FORMAT,
    JOURNAL_VERSION,
    NO_PATH,
    Journal,
    JournalError,
    journal_path,
    read_journal,
)

HEADER = b'{"format": "chunk-explorer-journal", "version": 1}\n'


def written(path: Path, *entries: tuple[str, list[str]]) -> Journal:
    journal = Journal(str(path))
    for rel, ids in entries:
        journal.add(rel, ids)
    journal.close()
    return journal


def test_the_journal_sits_beside_its_state() -> None:
    assert journal_path("/data/repo.state.json") == "/data/repo.state.json.journal"
    assert (JOURNAL_FORMAT, JOURNAL_VERSION, NO_PATH) == ("chunk-explorer-journal", 1, "")


def test_a_run_writes_one_header_then_one_line_per_file_in_order(tmp_path: Path) -> None:
    path = tmp_path / "s.json.journal"
    journal = Journal(str(path))
    assert not path.exists()  # made at the first entry only
    journal.add("pkg/a.py", ["id1", "id2"])
    journal.add("b.py", ("id3",))  # any sequence of ids
    journal.add(NO_PATH, [])
    journal.close()
    assert path.read_bytes() == (
        HEADER + b'{"path": "pkg/a.py", "ids": ["id1", "id2"]}\n'
        b'{"path": "b.py", "ids": ["id3"]}\n{"path": "", "ids": []}\n'
    )
    assert read_journal(str(path)) == {"pkg/a.py": {"id1", "id2"}, "b.py": {"id3"}, "": set()}


def test_the_journal_is_made_with_the_usual_permissions(tmp_path: Path) -> None:
    path = tmp_path / "j"
    old = os.umask(0o022)
    try:
        written(path, ("a.py", ["x"]))
    finally:
        os.umask(old)
    assert stat.S_IMODE(path.stat().st_mode) == 0o644


def test_runs_killed_one_after_another_append_their_parts(tmp_path: Path) -> None:
    path = tmp_path / "j"
    written(path, ("a.py", ["1"]), ("b.py", ["2"]))
    written(path, ("a.py", ["3"]))  # the next run, killed too: its own header, after the first's lines
    assert path.read_bytes() == (
        HEADER
        + b'{"path": "a.py", "ids": ["1"]}\n{"path": "b.py", "ids": ["2"]}\n'
        + HEADER
        + b'{"path": "a.py", "ids": ["3"]}\n'
    )
    assert read_journal(str(path)) == {"a.py": {"1", "3"}, "b.py": {"2"}}


def test_a_name_that_is_not_utf8_is_kept_as_its_escapes(tmp_path: Path) -> None:
    path = tmp_path / "j"
    odd = "caf\udce9.py"  # a Latin-1 byte in a file name, as os.fsdecode gives it
    written(path, (odd, ["1"]), ("été.py", ["2"]))
    raw = path.read_bytes()
    assert raw.isascii()
    assert b'"caf\\udce9.py"' in raw and b'"\\u00e9t\\u00e9.py"' in raw
    assert read_journal(str(path)) == {odd: {"1"}, "été.py": {"2"}}


def test_a_journal_that_cannot_be_made_names_itself_and_the_reason(tmp_path: Path) -> None:
    path = tmp_path / "gone" / "j"
    journal = Journal(str(path))
    with pytest.raises(JournalError) as caught:
        journal.add("a.py", ["1"])
    assert str(caught.value) == f"cannot write journal {path}: No such file or directory"


def test_a_journal_that_cannot_be_written_names_itself_and_the_reason(tmp_path: Path) -> None:
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full here")
    journal = Journal("/dev/full")  # opens, and every write fails: a full disk
    with pytest.raises(JournalError) as caught:
        journal.add("a.py", ["1"])
    journal.close()
    assert str(caught.value) == "cannot write journal /dev/full: No space left on device"


def test_closing_and_removing_are_safe_to_repeat(tmp_path: Path) -> None:
    path = tmp_path / "j"
    journal = Journal(str(path))
    journal.close()  # nothing opened
    journal.remove()  # nothing made
    journal.add("a.py", ["1"])
    journal.remove()  # open: closed, then removed
    assert not path.exists()
    journal.remove()
    journal.add("b.py", ["2"])  # a journal used again starts its own part
    journal.close()
    journal.close()
    assert path.read_bytes() == HEADER + b'{"path": "b.py", "ids": ["2"]}\n'


def test_no_journal_and_an_empty_one_say_nothing(tmp_path: Path) -> None:
    assert read_journal(str(tmp_path / "none")) == {}
    (tmp_path / "empty").write_bytes(b"")  # killed between making the file and its first line
    assert read_journal(str(tmp_path / "empty")) == {}
    (tmp_path / "torn").write_bytes(HEADER[:20])  # killed inside the first write
    assert read_journal(str(tmp_path / "torn")) == {}


def test_a_torn_last_line_is_left_out_and_the_lines_before_it_count(tmp_path: Path) -> None:
    path = tmp_path / "j"
    path.write_bytes(HEADER + b'{"path": "a.py", "ids": ["1"]}\n{"path": "b.py", "ids": ["2"]}')
    assert read_journal(str(path)) == {"a.py": {"1"}}


def test_a_journal_that_is_not_a_file_is_refused_by_name(tmp_path: Path) -> None:
    folder = tmp_path / "j"
    folder.mkdir()
    with pytest.raises(JournalError) as caught:
        read_journal(str(folder))
    assert str(caught.value) == f"cannot read journal {folder}: not a regular file: directory"


def test_a_journal_over_the_size_cap_is_refused_unread(tmp_path: Path) -> None:
    path = tmp_path / "j"
    with open(path, "wb") as handle:
        handle.truncate((1 << 30) + 1)  # sparse: nothing is written, and nothing must be read
    with pytest.raises(JournalError) as caught:
        read_journal(str(path))
    assert str(caught.value) == f"cannot read journal {path}: too large"


def test_a_journal_behind_a_loop_of_links_is_refused_with_the_reason(tmp_path: Path) -> None:
    path = tmp_path / "j"
    path.symlink_to(path)
    with pytest.raises(JournalError) as caught:
        read_journal(str(path))
    assert str(caught.value) == f"cannot read journal {path}: Too many levels of symbolic links"


def test_a_dangling_link_is_no_journal(tmp_path: Path) -> None:
    path = tmp_path / "j"
    path.symlink_to(tmp_path / "nowhere")
    assert read_journal(str(path)) == {}


@pytest.mark.parametrize(
    "first",
    [
        b'{"path": "a.py", "ids": []}',  # an entry with no header
        b'["chunk-explorer-journal"]',
        b'{"format": "chunk-explorer-state", "version": 1}',
        b"not json",
        b"\xff\xfe",
        b"",  # a blank first line
    ],
)
def test_a_first_line_that_is_not_the_header_is_not_a_journal(tmp_path: Path, first: bytes) -> None:
    path = tmp_path / "j"
    path.write_bytes(first + b"\n" + b'{"path": "a.py", "ids": ["1"]}\n')
    with pytest.raises(JournalError) as caught:
        read_journal(str(path))
    assert str(caught.value) == f"{path} is not a chunk-explorer journal"


@pytest.mark.parametrize(
    "header, shown",
    [
        (b'{"format": "chunk-explorer-journal", "version": 2}', "2"),
        (b'{"format": "chunk-explorer-journal", "version": "1"}', "'1'"),
        (b'{"format": "chunk-explorer-journal"}', "None"),
    ],
)
def test_a_header_of_another_version_is_refused_wherever_it_is(tmp_path: Path, header: bytes, shown: str) -> None:
    for content in (header + b"\n", HEADER + b'{"path": "a.py", "ids": ["1"]}\n' + header + b"\n"):
        path = tmp_path / "j"
        path.write_bytes(content)
        with pytest.raises(JournalError) as caught:
            read_journal(str(path))
        assert str(caught.value) == (f"journal {path} has version {shown}, this chunk-explorer reads version 1")


@pytest.mark.parametrize(
    "line",
    [
        b'{"path": "a.py"}',
        b'{"ids": ["1"]}',
        b'{"path": 3, "ids": ["1"]}',
        b'{"path": null, "ids": ["1"]}',
        b'{"path": "a.py", "ids": "1"}',
        b'{"path": "a.py", "ids": ["1", 2]}',
        b'{"path": "a.py", "ids": [null]}',
        b'["a.py", ["1"]]',
        b'"a.py"',
        b"not json",
        b"\xff",
        b"",
    ],
)
def test_a_damaged_entry_is_refused_with_its_line_number(tmp_path: Path, line: bytes) -> None:
    path = tmp_path / "j"
    path.write_bytes(HEADER + b'{"path": "a.py", "ids": ["1"]}\n' + line + b"\n" + b'{"path": "b.py", "ids": []}\n')
    with pytest.raises(JournalError) as caught:
        read_journal(str(path))
    assert str(caught.value) == f"journal {path} is corrupt (line 3)"


def test_every_line_of_a_file_adds_to_its_ids(tmp_path: Path) -> None:
    path = tmp_path / "j"
    lines = [
        {"format": JOURNAL_FORMAT, "version": 1},
        {"path": "a.py", "ids": ["1", "2"]},
        {"path": "a.py", "ids": ["2", "3"]},
        {"path": "", "ids": ["9"]},
        {"path": "a.py", "ids": []},
    ]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    assert read_journal(str(path)) == {"a.py": {"1", "2", "3"}, "": {"9"}}


def test_a_journal_larger_than_a_file_to_chunk_is_read(tmp_path: Path) -> None:
    from explorer.engine.files import DEFAULT_MAX_BYTES

    path = tmp_path / "j"
    ids = [f"{n:032x}" for n in range(DEFAULT_MAX_BYTES // 36 + 1)]  # a big run's ids: over a source file's cap
    written(path, ("a.py", ids))
    assert path.stat().st_size > DEFAULT_MAX_BYTES
    assert read_journal(str(path)) == {"a.py": set(ids)}
