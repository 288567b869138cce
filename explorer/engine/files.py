"""Reading files safely: regular files only, never more than a cap, never blocking.

Every reader in the package (the engine's ``chunk_file``, batch workers, the walker's ignore
files, the explorer's file view) goes through :func:`read_regular_file`, so a FIFO, a device,
a socket or a link to one is refused with a clear reason instead of hanging or flooding memory.
"""

from __future__ import annotations

import errno
import os
import stat

#: The default cap for source files (the explorer and the CLI may pass their own).
DEFAULT_MAX_BYTES = 4 * 2**20


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

    def __init__(self, path: str, size: int, limit: int) -> None:
        self.size = size
        self.limit = limit
        super().__init__(path, "too large", f"{human_size(size)} > {human_size(limit)}")


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


def human_size(size: int) -> str:
    """``1536`` -> ``1.5K``; bytes below 1 KiB as ``NB``."""
    for unit, scale in (("G", 1024**3), ("M", 1024**2), ("K", 1024)):
        if size >= scale:
            return f"{size / scale:.1f}{unit}"
    return f"{size}B"
