"""Which paths git ignores: ignore files read and matched the way git does.

One concern per module, each importing only those listed before it:

- :mod:`.patterns`: one line of an ignore file parsed as git parses it (:class:`IgnorePattern`);
- :mod:`.index`: one ignore file's patterns indexed for matching many names
  (:class:`IgnoreFile`), and a chain of them merged into one;
- :mod:`.repository`: where a git work tree starts and where its git directory is;
- :mod:`.config`: ``core.ignoreCase`` and ``core.excludesFile`` from git's config files;
- :mod:`.rules`: the rules of a whole tree, loaded lazily per directory (:class:`IgnoreRules`).

The names below are the public API; import them from here.
"""

from __future__ import annotations

from .config import GitSettings, default_excludes_file, read_git_settings
from .index import MAX_IGNORE_FILE_BYTES, EntryMatcher, IgnoreFile, merge_ignore_files
from .patterns import IgnorePattern, compile_glob, compile_pattern, fs_bytes, parse_pattern, split_ignore_lines
from .repository import find_worktree_top, git_common_dir, is_within
from .rules import GITIGNORE, IgnoreRules

__all__ = [
    "GITIGNORE",
    "MAX_IGNORE_FILE_BYTES",
    "EntryMatcher",
    "GitSettings",
    "IgnoreFile",
    "IgnorePattern",
    "IgnoreRules",
    "compile_glob",
    "compile_pattern",
    "default_excludes_file",
    "find_worktree_top",
    "fs_bytes",
    "git_common_dir",
    "is_within",
    "merge_ignore_files",
    "parse_pattern",
    "read_git_settings",
    "split_ignore_lines",
]
