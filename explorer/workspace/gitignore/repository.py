"""Where a git work tree starts, and where its git directory (``info/exclude``, ``config``) is."""

from __future__ import annotations

import os

from ...engine.files import read_regular_file

_MAX_GIT_FILE_BYTES = 1 * 2**20  # .git files, commondir, config


def git_common_dir(top: str) -> str | None:
    """The directory holding ``info/exclude`` and ``config`` for the work tree at ``top``:
    ``.git`` itself, or for a linked worktree or a submodule (``.git`` is a file saying
    ``gitdir: ...``) that directory's ``commondir``."""
    dot_git = os.path.join(top, ".git")
    if os.path.isdir(dot_git):
        git_dir = dot_git
    else:
        text = small_text(dot_git)
        if text is None or not text.startswith("gitdir:"):
            return None
        git_dir = os.path.normpath(os.path.join(top, text[len("gitdir:"):].strip()))
    common = small_text(os.path.join(git_dir, "commondir"))
    if common:
        return os.path.normpath(os.path.join(git_dir, common.strip()))
    return git_dir



def small_text(path: str) -> str | None:
    try:
        return read_regular_file(path, _MAX_GIT_FILE_BYTES).decode("utf-8", "surrogateescape")
    except OSError:
        return None



def find_worktree_top(start: str) -> str | None:
    """The nearest directory at or above ``start`` holding a ``.git`` entry."""
    current = os.path.abspath(start)
    while True:
        if has_git(current):
            return current
        parent = os.path.dirname(current)
        if parent == current:
            return None
        current = parent


def has_git(directory: str) -> bool:
    return os.path.lexists(os.path.join(directory, ".git"))


def is_within(path: str, directory: str) -> bool:
    return path == directory or path.startswith(directory.rstrip(os.sep) + os.sep)
