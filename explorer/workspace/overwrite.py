"""Which files an export may replace: never a file being explored.

An export target typed by hand can name the open file, a source file of the tree,
or a link to one; writing there would replace source code with JSON. Earlier
exports (``*.chunks.json``) may be replaced, after asking.
"""

from __future__ import annotations

import os
from collections.abc import Iterable

from .walk import WalkOptions, WalkRules

#: The suffix of the explorer's exports: such a file is output, not a source.
EXPORT_SUFFIX = ".chunks.json"


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.realpath(a) == os.path.realpath(b)


def _inside(path: str, root: str) -> bool:
    return path.startswith(root.rstrip(os.sep) + os.sep)


def export_refusal(
    target: str, root: str, walk: WalkOptions | None = None, shown: Iterable[str] = (),
) -> str | None:
    """Why ``target`` (an absolute path) must not be written, or None.

    Refused: a file being ``shown`` (the open file), a folder, and an existing file
    the explored tree lists as a source (also through a link), except earlier exports."""
    for path in shown:
        if os.path.lexists(target) and _same_file(target, path):
            return f"{target} is the file being explored: choose another name"
    if not os.path.lexists(target):
        return None
    if os.path.isdir(target):
        return f"{target} is a folder: name a file"
    # The path as typed, and where it leads (a link into the tree, or the tree's own link).
    for candidate, base in ((os.path.abspath(target), os.path.abspath(root)),
                            (os.path.realpath(target), os.path.realpath(root))):
        if (_inside(candidate, base) and not candidate.endswith(EXPORT_SUFFIX)
                and WalkRules(base, walk).is_shown(candidate, False)):
            return f"{target} is a source file of the explored tree: choose another name"
    return None
