"""Reading files safely: regular files only, never more than a cap, never blocking.

Every reader in the package (the engine's ``chunk_file``, batch workers, the walker's ignore
files, the explorer's file view) goes through :func:`read_regular_file`, so a FIFO, a device,
a socket or a link to one is refused with a clear reason instead of hanging or flooding memory.
"""

from __future__ import annotations

import errno
import os
import stat

from .containers.notebook import NotebookError, read_notebook
from .languages import NOTEBOOK, language_from_name

#: The default cap for source files (the explorer and the CLI may pass their own).
DEFAULT_MAX_BYTES = 4 * 2**20
#: A notebook's own bytes are mostly its cells' outputs (plots as base64), which are never
#: chunked: a notebook is read up to this size (or the cap, when that is higher), and the cap
#: then applies to what is chunked, its cells' text.
NOTEBOOK_MAX_BYTES = 64 * 2**20


class UnreadableFileError(OSError):
    """A path that is not read: not a regular file, too large, or gone. ``reason`` is short."""

    def __init__(self, path: str, reason: str, detail: str = "") -> None:
        self.path = path
        self.reason = reason
        self.detail = detail
        message = f"{path}: {reason}" + (f" ({detail})" if detail else "")
        super().__init__(message)


class NotRegularFileError(UnreadableFileError):
    """A FIFO, device, socket or directory (or a link to one)."""


class FileTooLargeError(UnreadableFileError):
    """A regular file over the size cap; ``size`` and ``limit`` are in bytes."""

    def __init__(self, path: str, size: int, limit: int, what: str = "") -> None:
        self.size = size
        self.limit = limit
        # ``what`` names what was measured when it is not the file itself (a notebook's cells)
        super().__init__(path, "too large", f"{what + ' ' if what else ''}{human_size(size)} > {human_size(limit)}")


def file_kind(mode: int) -> str:
    """A short name for what a stat mode says the path is."""
    if stat.S_ISREG(mode):
        return "file"
    if stat.S_ISDIR(mode):
        return "directory"
    if stat.S_ISFIFO(mode):
        return "named pipe"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "device"
    if stat.S_ISSOCK(mode):
        return "socket"
    return "special file"


def read_regular_file(path: str | os.PathLike[str], max_bytes: int | None = DEFAULT_MAX_BYTES) -> bytes:
    """Read a regular file (following links) whole, or raise :class:`UnreadableFileError`.

    The file is opened with ``O_NONBLOCK`` so a FIFO that appears between a check and the
    open cannot block, and the type is judged on the open descriptor (no race with a swap).
    ``max_bytes=None`` lifts the cap (the explorer's "open anyway").
    """
    name = os.fsdecode(path)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError as error:
        raise UnreadableFileError(name, "not found") from error
    except OSError as error:
        if error.errno in (errno.ENXIO, errno.EOPNOTSUPP):  # a socket or an unconnected device
            raise NotRegularFileError(name, "not a regular file") from error
        raise
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise NotRegularFileError(name, f"not a regular file: {file_kind(info.st_mode)}")
        if max_bytes is not None and info.st_size > max_bytes:
            raise FileTooLargeError(name, info.st_size, max_bytes)
        # Read until the end, not to st_size: a file that grew since fstat is still refused.
        chunks: list[bytes] = []
        total = 0
        while block := os.read(fd, 1 << 20):
            total += len(block)
            if max_bytes is not None and total > max_bytes:
                raise FileTooLargeError(name, total, max_bytes)
            chunks.append(block)
        return b"".join(chunks)
    finally:
        os.close(fd)


def read_limit(path: str | os.PathLike[str], max_bytes: int) -> int:
    """The most bytes read of a file whose chunked text may be ``max_bytes``: more for a
    notebook (see :data:`NOTEBOOK_MAX_BYTES`)."""
    return max(max_bytes, NOTEBOOK_MAX_BYTES) if _is_notebook(path) else max_bytes


def read_chunked_file(path: str | os.PathLike[str], max_bytes: int | None = DEFAULT_MAX_BYTES) -> bytes:
    """Read a file to chunk, refusing what would chunk more than ``max_bytes``: the file
    itself, or a notebook's cells' text (its outputs are dropped, so the file may be larger, up
    to :func:`read_limit`). Raises :class:`UnreadableFileError` as :func:`read_regular_file`.
    A notebook that cannot be read as one is returned as it is: parsing it says why."""
    if max_bytes is None:
        return read_regular_file(path, None)
    limit = read_limit(path, max_bytes)
    try:
        data = read_regular_file(path, limit)
    except FileTooLargeError as error:
        raise _too_large(error.path, error.size, max_bytes) from None
    if len(data) > max_bytes:  # only a notebook is read past the cap
        _check_cells(os.fsdecode(path), data, max_bytes)
    return data


def check_size(path: str | os.PathLike[str], size: int, max_bytes: int) -> FileTooLargeError | None:
    """Why a file of ``size`` bytes (as a directory listing says) is too large to chunk under
    ``max_bytes``, or None: the walk's judgement, the same as :func:`read_chunked_file`'s (a
    notebook over the cap is read to measure its cells)."""
    if size <= max_bytes:
        return None
    if size > read_limit(path, max_bytes):
        return _too_large(os.fsdecode(path), size, max_bytes)
    try:
        read_chunked_file(path, max_bytes)
    except FileTooLargeError as error:
        return error
    except OSError:
        return None  # (the reader that chunks it will say why it cannot)
    return None


def _too_large(name: str, size: int, max_bytes: int) -> FileTooLargeError:
    limit = read_limit(name, max_bytes)
    return FileTooLargeError(name, size, limit, "notebook file" if limit != max_bytes else "")


def _is_notebook(path: str | os.PathLike[str]) -> bool:
    return language_from_name(os.path.basename(os.fsdecode(path))) == NOTEBOOK


def _check_cells(name: str, data: bytes, max_bytes: int) -> None:
    try:
        text, _ = read_notebook(data, name).document()
    except NotebookError:
        return
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > max_bytes:
        raise FileTooLargeError(name, size, max_bytes, "cells' text")


def human_size(size: int) -> str:
    """``1536`` -> ``1.5K``; bytes below 1 KiB as ``NB``."""
    for unit, scale in (("G", 1024**3), ("M", 1024**2), ("K", 1024)):
        if size >= scale:
            return f"{size / scale:.1f}{unit}"
    return f"{size}B"
