"""Reading files at the edges: what a stat mode is called, and a file whose content runs past
the size it reports (it grew after it was measured)."""

from __future__ import annotations

import os
import socket
import stat

import pytest

from explorer.engine.files import FileTooLargeError, NotRegularFileError, file_kind, read_regular_file


@pytest.fixture
def unix_socket(tmp_path):
    path = tmp_path / "s.sock"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(path))
    yield path
    server.close()


def test_each_kind_of_path_has_its_short_name(tmp_path, unix_socket):
    regular = tmp_path / "a.py"
    regular.write_text("x = 1\n")
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    named = {
        regular: "file",
        tmp_path: "directory",
        fifo: "named pipe",
        unix_socket: "socket",
    }
    assert {path: file_kind(os.stat(path).st_mode) for path in named} == named
    assert file_kind(os.stat("/dev/null").st_mode) == "device"
    assert file_kind(stat.S_IFBLK) == "device"
    assert file_kind(stat.S_IFLNK) == "special file"  # a link itself, never followed


def test_a_socket_is_refused_as_not_a_regular_file(unix_socket):
    with pytest.raises(NotRegularFileError) as caught:
        read_regular_file(unix_socket)
    assert str(caught.value) == f"{unix_socket}: not a regular file"


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="needs Linux's /proc")
def test_a_file_whose_content_outgrows_its_reported_size_is_refused_by_what_was_read():
    # /proc files report a size of 0 and hold more: the cap is judged on the bytes read, as
    # for a file that grew after it was measured.
    path = "/proc/self/status"
    assert os.stat(path).st_size == 0
    with pytest.raises(FileTooLargeError) as caught:
        read_regular_file(path, max_bytes=100)
    error = caught.value
    assert error.path == path and error.limit == 100 and error.size > 100
    assert str(error).startswith(f"{path}: too large (") and str(error).endswith(" > 100B)")
    assert read_regular_file(path, max_bytes=None).startswith(b"Name:")
