"""The ignore rules of a tree: which ignore files apply to a directory, loaded lazily.

The last matching pattern decides, deeper files first, then ``info/exclude``, then
``core.excludesFile``; ``.gitignore`` files inside the tree are not read through a symbolic
link (git 2.32+). A file inside an ignored directory cannot be re-included: walkers do not
descend, and :meth:`IgnoreRules.is_ignored` checks ancestors for single-path queries.
"""

from __future__ import annotations

import os

from .config import default_excludes_file, read_git_settings
from .index import EntryMatcher, IgnoreFile, merge_ignore_files, never_ignored, relative_prefix
from .patterns import fs_bytes
from .repository import find_worktree_top, git_common_dir, has_git, is_within

GITIGNORE = ".gitignore"


class IgnoreRules:
    """All ignore files that apply under a root, loaded lazily per directory.

    Rules come from ``core.excludesFile`` (default ``~/.config/git/ignore``), the
    repository's ``info/exclude`` (in the common git directory, so linked worktrees and
    submodules get theirs) and every ``.gitignore`` from the top of the git work tree
    containing ``root`` (outside git: ``top``, default ``root``) down to the directory of
    the path asked about. A directory below the top holding its own ``.git`` (a nested
    repository or submodule) starts afresh with that repository's rules, as git run inside
    it would. ``core.ignoreCase`` is honoured. Results are cached per directory;
    :meth:`forget` drops the cache (when an ignore file changes on disk).
    """

    def __init__(self, root: str | os.PathLike[str], top: str | os.PathLike[str] | None = None):
        self.root = os.path.abspath(os.fspath(root))
        # Outside git, ``top`` (default: the root) is where .gitignore files start to count.
        worktree = find_worktree_top(self.root)
        self.top = worktree or os.path.abspath(os.fspath(top or self.root))
        #: Ignore files that exist but were not read, with the reason.
        self.problems: list[str] = []
        self._files: dict[str, IgnoreFile | None] = {}
        self._chains: dict[str, tuple[IgnoreFile, ...]] = {}
        self._matchers: dict[str, EntryMatcher] = {}
        self._merged: dict[tuple[int, ...], IgnoreFile] = {}
        self._repo_case: dict[str, bool] = {}
        self._repo_wide: dict[str, tuple[IgnoreFile, ...]] = {}
        self._top_is_repo = worktree is not None
        self._repository_chain(self.top, self._top_is_repo)
        self.ignore_case = self._repo_case[self.top]

    def forget(self) -> None:
        self._files.clear()
        self._chains.clear()
        self._matchers.clear()
        self._merged.clear()
        self._repo_case.clear()
        self._repo_wide.clear()
        self.problems.clear()
        self._repository_chain(self.top, self._top_is_repo)

    def _repository_chain(self, top: str, is_repo: bool) -> tuple[IgnoreFile, ...]:
        """The rules for entries of the repository's top directory ``top`` (lowest
        priority first): core.excludesFile, info/exclude, then its own .gitignore."""
        common = git_common_dir(top) if is_repo else None
        settings = read_git_settings(common)
        fold = settings.ignore_case
        self._repo_case[top] = fold
        wide: list[IgnoreFile] = []
        if is_repo:
            excludes = settings.excludes_file or default_excludes_file()
            if not os.path.isabs(excludes):
                excludes = os.path.join(top, excludes)
            sources = [excludes] + ([os.path.join(common, "info", "exclude")] if common else [])
            for source in sources:
                loaded = IgnoreFile.load(source, top, ignore_case=fold, problems=self.problems)
                if loaded is not None and loaded.patterns:
                    wide.append(loaded)
        self._repo_wide[top] = tuple(wide)
        own = self._file_in(top, fold)
        self._chains[top] = self._repo_wide[top] + ((own,) if own is not None else ())
        return self._chains[top]

    def chain_for(self, directory: str) -> tuple[IgnoreFile, ...]:
        """The ignore files that apply to entries of ``directory``, shallowest first."""
        directory = os.path.abspath(directory)
        if not is_within(directory, self.top):
            return self._repo_wide[self.top]
        # Climb to the nearest cached ancestor (or a nested repository's top), then build down.
        pending: list[str] = []
        current = directory
        while current not in self._chains:
            if has_git(current):
                self._repository_chain(current, True)
                break
            pending.append(current)
            current = os.path.dirname(current)
        chain = self._chains[current]
        fold = self._repo_case[current]
        for current in reversed(pending):
            own = self._file_in(current, fold)
            if own is not None:
                chain = chain + (own,)
            self._chains[current] = chain
            self._repo_case[current] = fold
        return chain

    def _file_in(self, directory: str, fold: bool) -> IgnoreFile | None:
        if directory not in self._files:
            loaded = IgnoreFile.load(os.path.join(directory, GITIGNORE), ignore_case=fold,
                                     follow_symlink=False, problems=self.problems)
            self._files[directory] = loaded if loaded and loaded.patterns else None
        return self._files[directory]

    def entry_matcher(self, directory: str) -> EntryMatcher:
        """``ignored(name, is_dir)`` for entries of ``directory`` (an absolute path): the
        chain merged into one ignore file (cached per chain) and the path prefix of the
        directory worked out once."""
        matcher = self._matchers.get(directory)
        if matcher is not None:
            return matcher
        chain = self.chain_for(directory)
        key = tuple(id(f) for f in chain)
        merged = self._merged.get(key)
        if merged is None and chain:
            merged = self._merged[key] = merge_ignore_files(chain)
        prefix = relative_prefix(directory, merged.base) if merged is not None else None
        matcher = never_ignored if merged is None or prefix is None else merged.directory_matcher(prefix)
        self._matchers[directory] = matcher
        return matcher

    def match(self, path: str | os.PathLike[str], is_dir: bool) -> bool:
        """Whether ``path`` itself is ignored by a pattern (ancestors not considered:
        walkers do not descend into ignored directories)."""
        path = os.path.abspath(os.fspath(path))
        directory, name = os.path.split(path)
        return self.entry_matcher(directory)(fs_bytes(name), is_dir)

    def is_ignored(self, path: str | os.PathLike[str], is_dir: bool | None = None) -> bool:
        """Whether ``path`` is ignored, itself or through an ignored ancestor directory
        below the root (for single-path queries such as a file tree's filter)."""
        path = os.path.abspath(os.fspath(path))
        if is_dir is None:
            is_dir = os.path.isdir(path) and not os.path.islink(path)
        ancestors: list[str] = []
        current = os.path.dirname(path)
        while is_within(current, self.root) and current != self.root:
            ancestors.append(current)
            current = os.path.dirname(current)
        for ancestor in reversed(ancestors):
            if self.match(ancestor, True):
                return True
        return self.match(path, is_dir)
