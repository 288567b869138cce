"""Atomic file writes: a temporary file in the target's directory renamed into place,
so an interrupted or failed write never leaves a half file or damages an existing one.

Where the system allows it (Linux, ``O_TMPFILE``), the temporary file has no name until
it is complete: a process killed while writing (even SIGKILL) leaves nothing behind. It
is then linked under a temporary name and renamed over the target at once."""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Iterator
from typing import IO


class OutputError(OSError):
    """A file could not be written; the message says why and what to do."""


def check_writable(path: str | os.PathLike[str]) -> str:
    """Fail early, before any work, if ``path`` cannot be written. Returns the absolute path
    (a link's target: the file it points to is replaced, the link stays a link)."""
    target = os.path.abspath(os.fspath(path))
    if os.path.islink(target):
        target = os.path.realpath(target)
    directory = os.path.dirname(target)
    if os.path.isdir(target):
        raise OutputError(f"cannot write {path}: it is a directory; give a file name")
    if _is_special(target):
        if not os.access(target, os.W_OK):
            raise OutputError(f"cannot write {path}: no permission; choose another location")
        return target
    if not os.path.isdir(directory):
        raise OutputError(f"cannot write {path}: directory {directory} does not exist; create it first")
    if not os.access(directory, os.W_OK | os.X_OK):
        raise OutputError(
            f"cannot write {path}: no permission to create files in {directory}; choose another location"
        )
    return target


@contextlib.contextmanager
def atomic_writer(path: str | os.PathLike[str], *, binary: bool = False, durable: bool = True) -> Iterator[IO]:
    """Open a stream (text, UTF-8, or ``binary``) whose content replaces ``path`` only when the block ends
    without an exception. On failure the temporary file is removed and ``path``
    is left as it was. ``durable=False`` skips the flush to disk before the rename: for a cache
    whose entries check themselves (a sync per entry would cost more than the work it saves)."""
    target = check_writable(path)
    if _is_special(target):
        # A device, a pipe or a socket (``-o /dev/null``, ``-o /dev/stdout``, a FIFO): renaming a
        # file over it would replace the device itself, so it is written in place.
        try:
            special = open(target, "wb" if binary else "w", encoding=None if binary else "utf-8",  # noqa: SIM115 (the with below closes it)
                           newline=None if binary else "")
        except OSError as exc:
            raise OutputError(f"cannot write {path}: {exc.strerror or exc}") from exc
        with special:
            yield special
        return
    directory, name = os.path.split(target)
    anonymous = _anonymous_file(directory)
    try:
        if anonymous is not None:
            fd, temp = anonymous
        else:
            import tempfile  # here: a command that writes nothing does not load it

            fd, temp = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=directory)
    except OSError as exc:
        raise OutputError(f"cannot write {path}: {exc.strerror or exc}; choose another location") from exc
    try:
        handle_cm = os.fdopen(fd, "wb") if binary else os.fdopen(fd, "w", encoding="utf-8", newline="")
        with handle_cm as handle:
            yield handle
            handle.flush()
            if durable:
                os.fsync(handle.fileno())
            if anonymous is not None:
                _copy_mode(target, fd)
                temp = _link_temporary(fd, directory, name)
        if anonymous is None:
            _copy_mode(target, temp)
        os.replace(temp, target)
    except BaseException as exc:
        if temp:
            with contextlib.suppress(OSError):
                os.unlink(temp)
        if isinstance(exc, OSError) and not isinstance(exc, OutputError):
            raise OutputError(f"cannot write {path}: {exc.strerror or exc}; nothing was written") from exc
        raise


def write_atomic(path: str | os.PathLike[str], data: str | bytes, *, durable: bool = True) -> None:
    """Write ``data`` (text as UTF-8, or bytes) to ``path`` atomically (``durable``: see :func:`atomic_writer`)."""
    with atomic_writer(path, binary=isinstance(data, bytes), durable=durable) as handle:
        handle.write(data)


def _is_special(target: str) -> bool:
    """Whether ``target`` exists and is neither a regular file nor a directory."""
    try:
        mode = os.stat(target).st_mode
    except OSError:
        return False
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))


def _anonymous_file(directory: str) -> tuple[int, str] | None:
    """An unnamed file in ``directory`` (``O_TMPFILE``) and an empty name, or None where
    the system or the file system has none (then a named temporary file is used)."""
    flag = getattr(os, "O_TMPFILE", 0)
    if not flag or not os.path.exists("/proc/self/fd"):  # linking it needs /proc
        return None
    try:
        return os.open(directory, flag | os.O_WRONLY | getattr(os, "O_CLOEXEC", 0), 0o600), ""
    except OSError:
        return None


def _link_temporary(fd: int, directory: str, name: str) -> str:
    """Give the unnamed file ``fd`` a temporary name beside the target; returns it.
    (A directory descriptor makes ``os.link`` call ``linkat``, which can follow the
    ``/proc`` link to the file; plain ``link`` cannot.)"""
    fds = os.open("/proc/self/fd", os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        for _ in range(100):
            temp = os.path.join(directory, f".{name}.{os.urandom(6).hex()}.tmp")
            try:
                os.link(str(fd), temp, src_dir_fd=fds, follow_symlinks=True)
                return temp
            except FileExistsError:
                continue
    finally:
        os.close(fds)
    raise FileExistsError(f"no free temporary name beside {name}")


def _copy_mode(target: str, temp: str | int) -> None:
    """Keep an existing file's permissions; give a new file the usual umask-based ones
    (mkstemp and O_TMPFILE create it private). ``temp``: a path or a descriptor."""
    try:
        mode = os.stat(target).st_mode & 0o7777
    except OSError:
        mode = 0o666 & ~_umask()
    os.chmod(temp, mode)


def _umask() -> int:
    # Read it without setting it where possible: os.umask() changes it for every thread.
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    umask = os.umask(0o022)
    os.umask(umask)
    return umask
