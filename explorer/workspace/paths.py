"""How a file's path is named in outputs and on screen: relative to the root it was found
under, in POSIX form (``src/app.py``), the way every face and adapter names it."""

from __future__ import annotations

import os


def display_path(path: str, root: str | None) -> str:
    """``path`` relative to ``root`` in POSIX form when it is absolute and lies inside
    ``root``; otherwise (no root, a relative path, outside the root or on another drive)
    as given, in POSIX form."""
    given = path.replace(os.sep, "/")
    if root is None or not os.path.isabs(path):
        return given
    try:
        rel = os.path.relpath(path, root)
    except ValueError:  # another drive (Windows)
        return given
    # A name such as ``..notes.md`` lies inside; only ``..`` itself or ``../...`` is outside.
    if rel == os.pardir or rel.startswith(os.pardir + os.sep):
        return given
    return rel.replace(os.sep, "/")
