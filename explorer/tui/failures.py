"""What to tell the user when a background job fails: one sentence per kind of failure."""

from __future__ import annotations

import os

from explorer.engine.files import FileTooLargeError, UnreadableFileError
from explorer.engine.text import BinaryContentError


def describe_failure(error: BaseException) -> str:
    if isinstance(error, FileTooLargeError):
        return f"Not opened: too large ({error.detail})"
    if isinstance(error, UnreadableFileError):
        return f"Not opened: {error.reason}{_link_note(error.path)}"
    if isinstance(error, BinaryContentError):
        return f"Not a text file: {error.reason}"
    if isinstance(error, FileNotFoundError):
        return "The file no longer exists"
    if isinstance(error, IsADirectoryError):
        return "This is a directory"
    if isinstance(error, PermissionError):
        return "No permission to read this file"
    if isinstance(error, OSError):
        return f"Cannot read the file: {error.strerror or error}"
    return str(error) or type(error).__name__


def _link_note(path: str) -> str:
    """`` (a link to /dev/zero)`` when ``path`` is a symbolic link, else ""."""
    try:
        return f" (a link to {os.readlink(path)})" if os.path.islink(path) else ""
    except OSError:
        return ""
