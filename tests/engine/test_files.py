"""Safe reading: regular files only, with a cap, never blocking on a FIFO or flooding from a device."""

import os
import threading

import pytest

from explorer.engine.files import (
    FileTooLargeError,
    NotRegularFileError,
    UnreadableFileError,
    read_regular_file,
)


def test_reads_a_regular_file_and_a_link_to_one(tmp_path):
    target = tmp_path / "a.py"
    target.write_bytes(b"x = 1\n\xc3\xa9\n")
    link = tmp_path / "link.py"
    link.symlink_to(target)
    assert read_regular_file(target) == b"x = 1\n\xc3\xa9\n"
    assert read_regular_file(link) == b"x = 1\n\xc3\xa9\n"


def test_fifo_is_refused_without_blocking(tmp_path):
    fifo = tmp_path / "x.py"
    os.mkfifo(fifo)
    outcome: list[BaseException] = []

    def read() -> None:
        try:
            read_regular_file(fifo)
        except BaseException as error:
            outcome.append(error)

    worker = threading.Thread(target=read, daemon=True)
    worker.start()
    worker.join(5)
    assert not worker.is_alive(), "reading a FIFO blocked"
    assert isinstance(outcome[0], NotRegularFileError)
    assert "named pipe" in str(outcome[0])


def test_link_to_dev_zero_is_refused(tmp_path):
    link = tmp_path / "zero.py"
    link.symlink_to("/dev/zero")
    with pytest.raises(NotRegularFileError, match="device"):
        read_regular_file(link)


def test_directory_and_missing_file(tmp_path):
    with pytest.raises(NotRegularFileError, match="directory"):
        read_regular_file(tmp_path)
    with pytest.raises(UnreadableFileError, match="not found"):
        read_regular_file(tmp_path / "gone.py")


def test_cap_refuses_larger_files_and_none_lifts_it(tmp_path):
    big = tmp_path / "big.py"
    big.write_bytes(b"a" * 1001)
    with pytest.raises(FileTooLargeError) as caught:
        read_regular_file(big, max_bytes=1000)
    assert caught.value.size == 1001 and caught.value.limit == 1000
    assert read_regular_file(big, max_bytes=1001) == b"a" * 1001
    assert len(read_regular_file(big, max_bytes=None)) == 1001
