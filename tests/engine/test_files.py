"""Safe reading: regular files only, with a cap, never blocking on a FIFO or flooding from a device."""

import os
import threading

import pytest

from explorer.engine.files import (
    NOTEBOOK_MAX_BYTES,
    FileTooLargeError,
    NotRegularFileError,
    UnreadableFileError,
    check_size,
    read_chunked_file,
    read_regular_file,
)

CAP = 2 * 2**20


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


# -- what is chunked is capped: a notebook's cells, not its outputs ------------------------
def test_a_notebook_of_plots_is_read_past_the_cap_because_its_cells_are_small(tmp_path, notebook_file):
    path = notebook_file(tmp_path / "plots.ipynb")
    size = path.stat().st_size
    assert size > 5_500_000  # megabytes of outputs...
    with pytest.raises(FileTooLargeError):
        read_regular_file(path, CAP)  # ...which the file's own size is over the cap by
    assert len(read_chunked_file(path, CAP)) == size
    assert check_size(path, size, CAP) is None


def test_a_notebook_whose_cells_are_over_the_cap_is_refused_saying_so(tmp_path, notebook_file):
    path = notebook_file(tmp_path / "long.ipynb", plots=4, source_lines=25_000)
    with pytest.raises(FileTooLargeError) as caught:
        read_chunked_file(path, CAP)
    assert caught.value.detail == f"cells' text {caught.value.size / 2**20:.1f}M > 2.0M"
    assert caught.value.size > CAP and caught.value.limit == CAP
    found = check_size(path, path.stat().st_size, CAP)
    assert found is not None and found.detail == caught.value.detail


def test_a_huge_notebook_is_refused_unread_at_the_notebook_limit(tmp_path):
    path = tmp_path / "huge.ipynb"
    with open(path, "wb") as out:  # sparse: 500 MB that take no disk
        out.truncate(500 * 2**20)
    with pytest.raises(FileTooLargeError) as caught:
        read_chunked_file(path, CAP)
    assert str(caught.value) == f"{path}: too large (notebook file 500.0M > 64.0M)"
    assert caught.value.limit == NOTEBOOK_MAX_BYTES
    assert check_size(path, 500 * 2**20, CAP).detail == "notebook file 500.0M > 64.0M"


def test_other_files_are_capped_by_their_own_size(tmp_path):
    path = tmp_path / "data.py"
    path.write_bytes(b"x = 1\n" * (CAP * 5 // 24))  # 2.5 MB
    with pytest.raises(FileTooLargeError) as caught:
        read_chunked_file(path, CAP)
    assert caught.value.detail == "2.5M > 2.0M" and caught.value.size == path.stat().st_size
    assert check_size(path, path.stat().st_size, CAP).detail == "2.5M > 2.0M"


def test_a_large_file_named_like_a_notebook_that_is_not_one_is_read_for_the_parser_to_refuse(tmp_path):
    path = tmp_path / "broken.ipynb"
    path.write_bytes(b'{"nbformat": 4, "cells": [' + b" " * (CAP + 10))
    assert read_chunked_file(path, CAP).startswith(b'{"nbformat"')
    assert check_size(path, path.stat().st_size, CAP) is None
