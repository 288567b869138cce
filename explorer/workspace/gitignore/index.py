"""One ignore file's patterns, indexed for matching many names.

The patterns are grouped: plain names and small class expansions (``[Tt]humbs.db``,
``*.py[cod]``) in dictionaries, ``*.ext`` by the name's extension, other ``*suffix`` and
``prefix*`` patterns by length, path patterns by their first component, then the rest behind
a literal pre-filter; every group is scanned only above the best match found so far (the
last matching pattern decides). A directory's matcher keeps only the path patterns that can
match there (:meth:`IgnoreFile.directory_matcher`). A chain of ignore files (deeper files
first in git's order) is merged into one index with the same answers
(:func:`merge_ignore_files`). Ignore files are read with the shared safe reader (regular
files, capped).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace

from ...engine.files import UnreadableFileError, read_regular_file
from ..wildmatch import is_glob_special, literal_prefix_length, match_prepared
from .patterns import IgnorePattern, fs_bytes, parse_pattern, split_ignore_lines

#: Ignore files larger than this are not read (git's own limit is 100 MB).
MAX_IGNORE_FILE_BYTES = 16 * 2**20

#: ``ignored(name, is_dir)`` for the entries of one directory (``name`` as bytes).
EntryMatcher = Callable[[bytes, bool], bool]


@dataclass(slots=True)
class IgnoreFile:
    """The patterns of one ignore file, matched relative to ``base`` (a directory)."""

    base: str  # absolute directory path, os.sep separated, no trailing separator
    patterns: list[IgnorePattern] = field(default_factory=list)
    source: str | None = None  # the file the patterns came from
    ignore_case: bool = False
    _by_name: dict[bytes, list[int]] = field(init=False, repr=False)
    _by_extension: dict[bytes, list[int]] = field(init=False, repr=False)  # "*.c": one lookup
    _by_suffix: dict[bytes, list[int]] = field(init=False, repr=False)  # other "*suffix" patterns
    _suffix_lengths: tuple[int, ...] = field(init=False, repr=False)
    _by_prefix: dict[bytes, list[int]] = field(init=False, repr=False)
    _prefix_lengths: tuple[int, ...] = field(init=False, repr=False)
    _by_first: dict[bytes, list[int]] = field(init=False, repr=False)
    _suffixes: tuple[bytes, ...] = field(init=False, repr=False)
    _prefixes: tuple[bytes, ...] = field(init=False, repr=False)
    # The rest, by kind of entry they can match (directory-only patterns never match files):
    # name patterns, and path patterns without a literal first component.
    _names_for_files: list[int] = field(init=False, repr=False)
    _names_for_dirs: list[int] = field(init=False, repr=False)
    _paths_for_files: list[int] = field(init=False, repr=False)
    _paths_for_dirs: list[int] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        # Each group lists pattern indices last first (the last match wins), so a scan can
        # stop at the first match, or at the best index another group already found.
        by_name: dict[bytes, list[int]] = {}
        by_suffix: dict[bytes, list[int]] = {}
        by_prefix: dict[bytes, list[int]] = {}
        by_first: dict[bytes, list[int]] = {}
        rest: dict[tuple[bool, bool], list[int]] = {(n, d): [] for n in (True, False) for d in (True, False)}
        fold = self.ignore_case
        for index in range(len(self.patterns) - 1, -1, -1):
            pattern = self.patterns[index]
            if pattern.ignore_case != fold:
                pattern = replace(pattern, ignore_case=fold)
                self.patterns[index] = pattern
            if pattern.name_only and pattern.literal:
                by_name.setdefault(pattern.pattern.lower() if fold else pattern.pattern, []).append(index)
            elif pattern.expansions is not None:
                group = by_suffix if pattern.pattern[:1] == b"*" else by_name
                for key in pattern.expansions:
                    group.setdefault(key, []).append(index)
            elif pattern.suffix is not None:
                by_suffix.setdefault(pattern.suffix, []).append(index)
            elif pattern.name_only and pattern.body_prefix:
                by_prefix.setdefault(pattern.body_prefix, []).append(index)
            elif pattern.first_segment is not None:
                by_first.setdefault(pattern.first_segment, []).append(index)
            else:
                rest[pattern.name_only, True].append(index)
                if not pattern.dir_only:
                    rest[pattern.name_only, False].append(index)
        # A suffix ".ext" (one dot, first) ends a name exactly when the name's last dot starts it.
        by_extension = {key: by_suffix.pop(key) for key in list(by_suffix)
                        if key[:1] == b"." and key.count(b".") == 1}
        self._by_name, self._by_suffix, self._by_prefix, self._by_first = by_name, by_suffix, by_prefix, by_first
        self._by_extension = by_extension
        self._suffix_lengths = tuple(sorted({len(k) for k in by_suffix}))
        self._prefix_lengths = tuple(sorted({len(k) for k in by_prefix}))
        self._names_for_files, self._names_for_dirs = rest[True, False], rest[True, True]
        self._paths_for_files, self._paths_for_dirs = rest[False, False], rest[False, True]
        self._suffixes, self._prefixes = tuple(by_suffix), tuple(by_prefix)

    @classmethod
    def parse(cls, text: str | bytes, base: str, source: str | None = None,
              ignore_case: bool = False) -> IgnoreFile:
        data = os.fsencode(text) if isinstance(text, str) else text
        patterns = [p for p in (parse_pattern(line, ignore_case=ignore_case) for line in split_ignore_lines(data))
                    if p is not None]
        return cls(base, patterns, source, ignore_case)

    @classmethod
    def load(cls, path: str | os.PathLike[str], base: str | None = None, *, ignore_case: bool = False,
             follow_symlink: bool = True, problems: list[str] | None = None) -> IgnoreFile | None:
        """Read an ignore file; ``None`` if it is absent or not readable (a reason goes to
        ``problems`` when it exists but is a link not followed, not a regular file, or too large)."""
        path = os.fspath(path)
        data = _read_ignore_file(path, follow_symlink, problems)
        if data is None:
            return None
        return cls.parse(data, base if base is not None else os.path.dirname(path), path, ignore_case)

    def decide_rel(self, rel: bytes, name: bytes, is_dir: bool) -> bool | None:
        """True if ignored, False if re-included, None if no pattern here matches ``rel``
        (relative to :attr:`base`; ``name`` is its last component)."""
        if self.ignore_case:
            rel, name = rel.lower(), name.lower()
        best = self._best_path_match(rel, name, is_dir, self._best_name_match(name, is_dir))
        if best < 0:
            return None
        return not self.patterns[best].negated

    def directory_matcher(self, prefix: bytes) -> EntryMatcher:
        """``ignored(name, is_dir)`` for the entries of one directory, ``prefix`` its path
        from :attr:`base` (``b""`` or ``b"a/b/"``). Path patterns whose literal start
        cannot agree with the prefix are dropped once here, so most entries are decided
        by name lookups alone."""
        patterns = self.patterns
        fold = self.ignore_case
        best_name_match = self._best_name_match
        if not prefix:
            best_path_match = self._best_path_match

            def ignored_at_base(name: bytes, is_dir: bool) -> bool:
                if fold:
                    name = name.lower()
                best = best_path_match(name, name, is_dir, best_name_match(name, is_dir))
                return best >= 0 and not patterns[best].negated

            return ignored_at_base
        if fold:
            prefix = prefix.lower()
        # Path patterns with a literal first component only match under that component.
        maybe = sorted(self._by_first.get(prefix.partition(b"/")[0], []) + self._paths_for_dirs, reverse=True)
        candidates = [index for index in maybe if _may_match_in(patterns[index], prefix)]
        for_dirs = candidates
        for_files = [index for index in candidates if not patterns[index].dir_only]

        def ignored(name: bytes, is_dir: bool) -> bool:
            if fold:
                name = name.lower()
            best = best_name_match(name, is_dir)
            paths = for_dirs if is_dir else for_files
            if paths and paths[0] > best:
                best = _scan(patterns, paths, best, prefix + name, name, is_dir)
            return best >= 0 and not patterns[best].negated

        return ignored

    def _best_name_match(self, name: bytes, is_dir: bool) -> int:
        """The index of the last name pattern matching ``name`` (case-folded already if
        so), else -1."""
        patterns = self.patterns
        best = -1
        for index in self._by_name.get(name, ()):
            if is_dir or not patterns[index].dir_only:
                best = index
                break
        if self._by_extension:
            dot = name.rfind(b".")
            if dot >= 0:
                for index in self._by_extension.get(name[dot:], ()):
                    if index <= best:
                        break
                    if is_dir or not patterns[index].dir_only:
                        best = index
                        break
        # endswith/startswith with a tuple reject most names in one call.
        if self._suffixes and name.endswith(self._suffixes):
            size = len(name)
            by_suffix = self._by_suffix
            for length in self._suffix_lengths:
                if length > size:
                    break
                for index in by_suffix.get(name[size - length:], ()):
                    if index <= best:
                        break
                    if is_dir or not patterns[index].dir_only:
                        best = index
                        break
        if self._prefixes and name.startswith(self._prefixes):
            by_prefix = self._by_prefix
            for length in self._prefix_lengths:
                candidates = by_prefix.get(name[:length])
                if candidates:
                    best = _scan(patterns, candidates, best, name, name, is_dir)
        rest = self._names_for_dirs if is_dir else self._names_for_files
        if rest:
            best = _scan(patterns, rest, best, name, name, is_dir)
        return best

    def _best_path_match(self, rel: bytes, name: bytes, is_dir: bool, best: int) -> int:
        """``best``, or the index of a later path pattern matching ``rel``."""
        if self._by_first:
            candidates = self._by_first.get(rel.partition(b"/")[0])
            if candidates:
                best = _scan(self.patterns, candidates, best, rel, name, is_dir)
        rest = self._paths_for_dirs if is_dir else self._paths_for_files
        if rest:
            best = _scan(self.patterns, rest, best, rel, name, is_dir)
        return best

    def decide(self, path: str, is_dir: bool) -> bool | None:
        """Like :meth:`decide_rel` for an absolute path; None outside :attr:`base`."""
        prefix = self.base if self.base.endswith(os.sep) else self.base + os.sep
        if not path.startswith(prefix):
            return None
        rel = path[len(prefix):]
        if os.sep != "/":
            rel = rel.replace(os.sep, "/")
        rel_bytes = os.fsencode(rel)
        return self.decide_rel(rel_bytes, rel_bytes.rpartition(b"/")[2], is_dir)


def _may_match_in(pattern: IgnorePattern, prefix: bytes) -> bool:
    """Whether a path pattern can match some entry of the directory ``prefix`` (``b"a/b/"``):
    a match starts with the pattern's literal start, and its directory part (if it has one)
    matches the directory."""
    start = pattern.body_prefix
    if not (prefix.startswith(start) or start.startswith(prefix)):
        return False
    head = pattern.directory_part
    return head is None or match_prepared(head, prefix[:-1] + b"\0", pattern.ignore_case, True)


def _scan(patterns: list[IgnorePattern], candidates: Iterable[int], best: int, rel: bytes, name: bytes,
          is_dir: bool) -> int:
    """The index of the first (highest) candidate above ``best`` that matches, else ``best``."""
    for index in candidates:
        if index <= best:
            break
        pattern = patterns[index]
        if pattern.dir_only and not is_dir:
            continue
        if pattern.required not in (name if pattern.name_only else rel):
            continue  # cheap: most names lack the pattern's literal part
        if pattern.match_path(rel, name):
            return index
    return best


def _read_ignore_file(path: str, follow_symlink: bool, problems: list[str] | None) -> bytes | None:
    try:
        if not follow_symlink and stat.S_ISLNK(os.lstat(path).st_mode):
            _note(problems, f"{path}: a symbolic link, not followed (as git does)")
            return None
        return read_regular_file(path, MAX_IGNORE_FILE_BYTES)
    except FileNotFoundError:
        return None
    except UnreadableFileError as error:
        if error.reason != "not found":
            _note(problems, f"{path}: {error.reason}" + (f" ({error.detail})" if error.detail else ""))
        return None
    except OSError as error:
        if not isinstance(error, NotADirectoryError):
            _note(problems, f"{path}: {error.strerror or error}")
        return None


def _note(problems: list[str] | None, message: str) -> None:
    if problems is not None:
        problems.append(message)



def merge_ignore_files(chain: tuple[IgnoreFile, ...]) -> IgnoreFile:
    """One ignore file equivalent to a chain (shallowest first, each file's base inside the
    first one's): git asks the deepest file first and the last pattern of a file wins, so
    the patterns in chain order, last match winning, give the same answer once the path
    patterns of deeper files carry their directory (its glob characters escaped)."""
    if len(chain) == 1:
        return chain[0]
    base = chain[0].base
    patterns: list[IgnorePattern] = []
    for ignore_file in chain:
        prefix = relative_prefix(ignore_file.base, base)
        if not prefix:
            patterns.extend(ignore_file.patterns)
            continue
        escaped = bytes(b for byte in prefix for b in ((0x5C, byte) if is_glob_special(byte) else (byte,)))
        for pattern in ignore_file.patterns:
            if pattern.name_only:
                patterns.append(pattern)
            else:
                body = escaped + pattern.body
                patterns.append(IgnorePattern(pattern.text, body, pattern.negated, pattern.dir_only, False,
                                              literal_prefix_length(body), pattern.ignore_case))
    return IgnoreFile(base, patterns, None, chain[-1].ignore_case)


def relative_prefix(directory: str, base: str) -> bytes | None:
    """``directory`` relative to ``base`` as ``b"a/b/"`` (``b""`` when equal); None when
    it is not inside."""
    if directory == base:
        return b""
    stem = base.rstrip(os.sep) + os.sep
    if not directory.startswith(stem):
        return None
    return fs_bytes(directory[len(stem):].replace(os.sep, "/")) + b"/"


def never_ignored(name: bytes, is_dir: bool) -> bool:
    return False
