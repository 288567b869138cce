"""Gitignore pattern matching (our own implementation of git's rules).

What is implemented, as documented in gitignore(5):

- blank lines and ``#`` comments are ignored; ``\\#`` and ``\\!`` are literal;
  trailing spaces are dropped unless escaped with a backslash;
- ``!pattern`` re-includes what an earlier pattern excluded (the last matching
  pattern decides, and a deeper ``.gitignore`` overrides a shallower one);
- ``pattern/`` matches directories only;
- a pattern with a slash at the start or in the middle is anchored to the
  directory of its ``.gitignore``; without one it matches at any depth;
- ``*`` and ``?`` never match ``/``; ``[a-z]``, ``[!a-z]`` classes;
  ``**/x``, ``x/**`` and ``a/**/b`` span directories.

A file inside an excluded directory cannot be re-included (git does not look
inside excluded directories); walkers get that by not descending, and
:meth:`IgnoreRules.is_ignored` checks each ancestor for single-path queries.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

GITIGNORE = ".gitignore"


@dataclass(frozen=True, slots=True)
class IgnorePattern:
    """One compiled line of an ignore file."""

    text: str  # the line as written, for messages
    regex: re.Pattern[str]
    negated: bool
    dir_only: bool

    def matches(self, rel: str, is_dir: bool) -> bool:
        if self.dir_only and not is_dir:
            return False
        return self.regex.fullmatch(rel) is not None


def compile_pattern(line: str) -> IgnorePattern | None:
    """Compile one gitignore line; ``None`` for blanks and comments."""
    text = line.rstrip("\r\n")
    if not text or text.startswith("#"):
        return None
    text = _strip_trailing_spaces(text)
    negated = False
    if text.startswith("!"):
        negated, text = True, text[1:]
    elif text.startswith(("\\!", "\\#")):
        text = text[1:]
    dir_only = text.endswith("/")
    if dir_only:
        text = text.rstrip("/")
    if not text:
        return None
    anchored = "/" in text
    text = text.lstrip("/")
    if not text:
        return None
    body = _translate(text)
    if not anchored and not body.startswith("(?:.*/)?"):
        body = "(?:.*/)?" + body
    return IgnorePattern(line.rstrip("\r\n"), re.compile(body, re.DOTALL), negated, dir_only)


def glob_to_regex(glob: str) -> re.Pattern[str]:
    """A gitignore-style glob (as used by ``--include``/``--exclude``) as a regex over
    root-relative POSIX paths. Without a slash it matches a name at any depth."""
    pattern = compile_pattern(glob)
    if pattern is None:
        raise ValueError(f"empty glob pattern {glob!r}")
    return pattern.regex


def _strip_trailing_spaces(text: str) -> str:
    end = len(text)
    while end > 0 and text[end - 1] == " ":
        if end >= 2 and text[end - 2] == "\\":
            # "\ " keeps the space; the backslash escape is undone by _translate.
            break
        end -= 1
    return text[:end]


def _translate(pattern: str) -> str:
    segments = pattern.split("/")
    out: list[str] = []
    last = len(segments) - 1
    for i, segment in enumerate(segments):
        if segment == "**":
            if i == last:
                out.append(".*")  # "x/**": everything inside x (or everything, alone)
            else:
                out.append("(?:.*/)?")  # "**/x", "a/**/b": zero or more directories
            continue
        out.append(_translate_segment(segment))
        if i != last:
            out.append("/")
    return "".join(out)


def _translate_segment(segment: str) -> str:
    out: list[str] = []
    i, n = 0, len(segment)
    while i < n:
        c = segment[i]
        if c == "\\" and i + 1 < n:
            out.append(re.escape(segment[i + 1]))
            i += 2
            continue
        if c == "*":
            while i + 1 < n and segment[i + 1] == "*":
                i += 1  # other runs of asterisks are ordinary asterisks
            out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        elif c == "[":
            klass, i = _translate_class(segment, i)
            out.append(klass)
            continue
        else:
            out.append(re.escape(c))
        i += 1
    return "".join(out)


def _translate_class(segment: str, start: int) -> tuple[str, int]:
    """A bracket expression at ``segment[start] == '['``; returns (regex, next index).
    An unclosed ``[`` is a literal bracket."""
    i = start + 1
    negate = i < len(segment) and segment[i] in "!^"
    if negate:
        i += 1
    members: list[str] = []
    first = True
    while i < len(segment):
        c = segment[i]
        if c == "]" and not first:
            body = "".join(members)
            return (f"[^/{body}]" if negate else f"[{body}]"), i + 1
        if c == "\\" and i + 1 < len(segment):
            members.append(re.escape(segment[i + 1]))
            i += 2
        elif c == "-" and members and i + 1 < len(segment) and segment[i + 1] != "]":
            members.append("-")  # a range such as a-z
            i += 1
        else:
            members.append(re.escape(c))
            i += 1
        first = False
    return re.escape("["), start + 1


@dataclass(slots=True)
class IgnoreFile:
    """The patterns of one ignore file, matched relative to ``base`` (a directory)."""

    base: str  # absolute directory path, os.sep separated, no trailing separator
    patterns: list[IgnorePattern] = field(default_factory=list)
    source: str | None = None  # the file the patterns came from

    @classmethod
    def parse(cls, text: str, base: str, source: str | None = None) -> IgnoreFile:
        patterns = [p for p in map(compile_pattern, text.splitlines()) if p is not None]
        return cls(base, patterns, source)

    @classmethod
    def load(cls, path: str | os.PathLike[str], base: str | None = None) -> IgnoreFile | None:
        """Read an ignore file; ``None`` if it does not exist or cannot be read."""
        path = os.fspath(path)
        try:
            with open(path, "rb") as handle:
                text = handle.read().decode("utf-8", "replace")
        except OSError:
            return None
        return cls.parse(text, base if base is not None else os.path.dirname(path), path)

    def decide(self, path: str, is_dir: bool) -> bool | None:
        """True if ignored, False if re-included, None if no pattern here speaks
        about ``path`` (absolute) or it lies outside ``base``."""
        prefix = self.base if self.base.endswith(os.sep) else self.base + os.sep
        if not path.startswith(prefix):
            return None
        rel = path[len(prefix):]
        if os.sep != "/":
            rel = rel.replace(os.sep, "/")
        for pattern in reversed(self.patterns):
            if pattern.matches(rel, is_dir):
                return not pattern.negated
        return None


class IgnoreRules:
    """All ignore files that apply under a root, loaded lazily per directory.

    Rules come from ``.git/info/exclude`` and every ``.gitignore`` from the top of
    the git work tree containing ``root`` (outside git: ``top``, default ``root``) down to
    the directory of the path asked about. Results are cached per directory;
    :meth:`forget` drops the cache (when a ``.gitignore`` changes on disk).
    """

    def __init__(self, root: str | os.PathLike[str], top: str | os.PathLike[str] | None = None):
        self.root = os.path.abspath(os.fspath(root))
        # Outside git, ``top`` (default: the root) is where .gitignore files start to count.
        self.top = find_worktree_top(self.root) or os.path.abspath(os.fspath(top or self.root))
        self._files: dict[str, IgnoreFile | None] = {}
        self._chains: dict[str, tuple[IgnoreFile, ...]] = {}
        exclude = IgnoreFile.load(os.path.join(self.top, ".git", "info", "exclude"), base=self.top)
        self._base_chain: tuple[IgnoreFile, ...] = (exclude,) if exclude and exclude.patterns else ()

    def forget(self) -> None:
        self._files.clear()
        self._chains.clear()

    def chain_for(self, directory: str) -> tuple[IgnoreFile, ...]:
        """The ignore files that apply to entries of ``directory``, shallowest first."""
        directory = os.path.abspath(directory)
        if not _is_within(directory, self.top):
            return self._base_chain
        # Climb to the nearest cached ancestor (or the top), then build down.
        pending: list[str] = []
        current = directory
        while current not in self._chains and current != self.top:
            pending.append(current)
            current = os.path.dirname(current)
        if current in self._chains:
            chain = self._chains[current]
        else:
            own = self._file_in(current)
            chain = self._base_chain + ((own,) if own is not None else ())
            self._chains[current] = chain
        for current in reversed(pending):
            own = self._file_in(current)
            if own is not None:
                chain = chain + (own,)
            self._chains[current] = chain
        return chain

    def _file_in(self, directory: str) -> IgnoreFile | None:
        if directory not in self._files:
            loaded = IgnoreFile.load(os.path.join(directory, GITIGNORE))
            self._files[directory] = loaded if loaded and loaded.patterns else None
        return self._files[directory]

    def match(self, path: str | os.PathLike[str], is_dir: bool) -> bool:
        """Whether ``path`` itself is ignored by a pattern (ancestors not considered:
        walkers do not descend into ignored directories)."""
        path = os.path.abspath(os.fspath(path))
        for ignore_file in reversed(self.chain_for(os.path.dirname(path))):
            decision = ignore_file.decide(path, is_dir)
            if decision is not None:
                return decision
        return False

    def is_ignored(self, path: str | os.PathLike[str], is_dir: bool | None = None) -> bool:
        """Whether ``path`` is ignored, itself or through an ignored ancestor directory
        below the root (for single-path queries such as a file tree's filter)."""
        path = os.path.abspath(os.fspath(path))
        if is_dir is None:
            is_dir = os.path.isdir(path)
        ancestors: list[str] = []
        current = os.path.dirname(path)
        while _is_within(current, self.root) and current != self.root:
            ancestors.append(current)
            current = os.path.dirname(current)
        for ancestor in reversed(ancestors):
            if self.match(ancestor, True):
                return True
        return self.match(path, is_dir)


def find_worktree_top(start: str) -> str | None:
    """The nearest directory at or above ``start`` holding a ``.git`` entry."""
    current = os.path.abspath(start)
    while True:
        if os.path.exists(os.path.join(current, ".git")):
            return current
        parent = os.path.dirname(current)
        if parent == current:
            return None
        current = parent


def _is_within(path: str, directory: str) -> bool:
    return path == directory or path.startswith(directory.rstrip(os.sep) + os.sep)

