"""Export formats and atomic writes."""

from __future__ import annotations

import io
import json
import os
import stat
import threading

import pytest

import explorer
from explorer.engine.options import ChunkOptions
from explorer.workspace.export import (
    JsonDocumentWriter,
    JsonlWriter,
    OutputError,
    atomic_writer,
    file_record,
    render_json,
    write_atomic,
)

SOURCE = "def f():\n    return 1\n\n\nclass A:\n    x = [1, 2]\n"


def test_json_document_schema_compact_and_indented() -> None:
    chunks = explorer.chunk("pkg/a.py", SOURCE, max_size=20)
    files = [file_record("pkg/a.py", "python", chunks),
             file_record("pkg/b.py", "python", error="boom", error_kind="error")]
    for indent in (None, 2):
        text = render_json(files, ChunkOptions(max_size=20), "/root/dir",
                           skipped=[{"path": "x.bin", "reason": "binary"}], summary={"files": 1}, indent=indent)
        doc = json.loads(text)
        assert doc["tool"] == "chunk-explorer"
        assert doc["version"] == explorer.__version__
        assert doc["root"] == "/root/dir"
        assert doc["options"]["max_size"] == 20
        assert doc["files"][0]["path"] == "pkg/a.py"
        assert doc["files"][0]["chunks"] == [c.to_dict() for c in chunks]
        assert "error" not in doc["files"][0]
        assert doc["files"][1]["error"] == {"kind": "error", "message": "boom"}
        assert "chunks" not in doc["files"][1]
        assert doc["skipped"] == [{"path": "x.bin", "reason": "binary"}]
        assert doc["summary"] == {"files": 1}
    compact = render_json(files, ChunkOptions(), "/r", indent=None)
    assert len(compact.splitlines()) == 1 + 1 + 2 + 1 + 1 + 1  # header, files [, 2 records, ], skipped, }


def test_empty_document_is_valid_json() -> None:
    doc = json.loads(render_json([], ChunkOptions(), "/r", indent=None))
    assert doc["files"] == [] and doc["skipped"] == []


def test_text_with_markup_and_unicode_is_kept_verbatim() -> None:
    source = 'x = "[bold]é\\u0000"  # [/]\n'
    chunks = explorer.chunk("m.py", source)
    buffer = io.BytesIO()
    JsonlWriter(buffer).add("m.py", "python", chunks, ChunkOptions(), "h")
    line = json.loads(buffer.getvalue())
    assert line["path"] == "m.py" and line["language"] == "python"
    assert line["text"] == source
    assert {k for k in chunks[0].to_dict()} <= set(line)


def test_jsonl_one_chunk_per_line() -> None:
    chunks = explorer.chunk("a.py", SOURCE, max_size=15)
    assert len(chunks) > 1
    buffer = io.BytesIO()
    writer = JsonlWriter(buffer)
    writer.add("a.py", "python", chunks, ChunkOptions(max_size=15), "h")
    lines = buffer.getvalue().splitlines()
    assert writer.count == len(lines) == len(chunks)
    assert [json.loads(line)["index"] for line in lines] == list(range(len(chunks)))


def test_writer_streams_records_in_order() -> None:
    buffer = io.BytesIO()
    writer = JsonDocumentWriter(buffer, {"max_size": 5}, "/r")
    for name in ("b", "a", "c"):
        writer.add({"path": name, "chunks": []})
    writer.close()
    assert [f["path"] for f in json.loads(buffer.getvalue())["files"]] == ["b", "a", "c"]


# -- atomic writes -----------------------------------------------------------------------
def test_write_atomic_creates_and_replaces(tmp_path) -> None:
    target = tmp_path / "out.json"
    write_atomic(target, "first")
    assert target.read_text() == "first"
    os.chmod(target, 0o640)
    write_atomic(target, b"second")
    assert target.read_bytes() == b"second"
    assert stat.S_IMODE(os.stat(target).st_mode) == 0o640  # an existing file keeps its permissions
    assert os.listdir(tmp_path) == ["out.json"]


def test_failure_midway_leaves_existing_file_untouched_and_no_temp(tmp_path) -> None:
    target = tmp_path / "out.json"
    target.write_text("precious")
    with pytest.raises(RuntimeError), atomic_writer(target) as handle:
        handle.write("half a docu")
        raise RuntimeError("interrupted")
    assert target.read_text() == "precious"
    assert os.listdir(tmp_path) == ["out.json"]
    with pytest.raises(KeyboardInterrupt), atomic_writer(tmp_path / "new.json") as handle:
        handle.write("partial")
        raise KeyboardInterrupt
    assert os.listdir(tmp_path) == ["out.json"]


def test_unwritable_paths_give_clear_messages(tmp_path) -> None:
    with pytest.raises(OutputError, match="does not exist; create it first"):
        write_atomic(tmp_path / "missing" / "out.json", "x")
    with pytest.raises(OutputError, match="is a directory"):
        write_atomic(tmp_path, "x")
    locked = tmp_path / "locked"
    locked.mkdir()
    os.chmod(locked, 0o500)
    try:
        if not os.access(locked, os.W_OK):
            with pytest.raises(OutputError, match="no permission"):
                write_atomic(locked / "out.json", "x")
        elif os.path.isdir("/sys"):  # root ignores modes; sysfs refuses new files even to root
            with pytest.raises(OutputError, match="Permission denied; choose another location"):
                write_atomic("/sys/chunk-explorer-test.json", "x")
        else:
            pytest.skip("no unwritable directory available")
    finally:
        os.chmod(locked, 0o700)


def test_replace_failure_is_reported_and_cleaned_up(tmp_path, monkeypatch) -> None:
    target = tmp_path / "out.json"
    target.write_text("precious")

    def refuse(src, dst):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(OutputError, match="nothing was written"):
        write_atomic(target, "new content")
    assert target.read_text() == "precious"
    assert os.listdir(tmp_path) == ["out.json"]


def test_a_device_or_a_pipe_is_written_in_place_never_replaced(tmp_path) -> None:
    # `-o /dev/null` must not turn the device into a regular file (renaming over it would). A
    # pipe takes the same road as a device, without risking the machine's /dev/null if it broke.
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()))
    reader.start()
    write_atomic(fifo, "through the pipe")
    reader.join(timeout=10)
    assert received == [b"through the pipe"]
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert sorted(os.listdir(tmp_path)) == ["pipe"]  # no temporary file beside it


def test_a_link_keeps_pointing_at_the_file_it_replaces(tmp_path) -> None:
    real = tmp_path / "real.json"
    real.write_text("old")
    link = tmp_path / "link.json"
    link.symlink_to(real)
    write_atomic(link, "new")
    assert link.is_symlink() and real.read_text() == "new"
    assert sorted(os.listdir(tmp_path)) == ["link.json", "real.json"]


def test_a_new_file_gets_the_permissions_the_umask_gives(tmp_path) -> None:
    # A private temporary file renamed into place must not leave an export readable by its owner only.
    old = os.umask(0o027)
    try:
        write_atomic(tmp_path / "new.json", "x")
    finally:
        os.umask(old)
    assert stat.S_IMODE(os.stat(tmp_path / "new.json").st_mode) == 0o640
