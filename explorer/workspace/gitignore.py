"""Which paths git ignores: ignore files read and matched the way git does.

Follows git's ``dir.c`` (see the README section "How files are walked" for the list):

- ignore files are bytes: lines split only on ``\\n`` (one ``\\r`` before it dropped), a
  UTF-8 BOM at the start skipped, a NUL ending the line; ``#`` lines and blank lines skipped;
  trailing spaces trimmed unless backslash-escaped;
- ``!`` negates, a trailing ``/`` matches directories only, a pattern with a slash (other
  than a trailing one) is matched against the path from the ignore file's directory, one
  without against the name alone; the last matching pattern decides, deeper files first,
  then ``info/exclude``, then ``core.excludesFile``;
- globs are git's wildmatch (:mod:`.wildmatch`) on bytes, so a bad line such as ``[z-a]``
  simply matches nothing;
- ``.gitignore`` files inside the tree are not read through a symbolic link (git 2.32+);
  every ignore file is read with the shared safe reader (regular files, capped).

For speed, the chain of ignore files of a directory is merged into one list (same answers:
see :func:`merge_ignore_files`) and its patterns are grouped: plain names and small class
expansions (``[Tt]humbs.db``, ``*.py[cod]``) in dictionaries, ``*.ext`` by the name's
extension, other ``*suffix`` and ``prefix*`` patterns by length, path patterns by their first
component, then the rest behind a literal pre-filter; every group is scanned only above the
best match found so far. A directory's matcher keeps only the path patterns that can match
there (:meth:`IgnoreFile.directory_matcher`). A file inside an
ignored directory cannot be re-included: walkers do not descend, and
:meth:`IgnoreRules.is_ignored` checks ancestors for single-path queries.
"""

from __future__ import annotations

import itertools
import math
import os
import stat
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace

from ..engine.files import UnreadableFileError, read_regular_file
from .wildmatch import byte_sets, is_glob_special, literal_prefix_length, literal_runs, match_prepared

GITIGNORE = ".gitignore"
#: Ignore files larger than this are not read (git's own limit is 100 MB).
MAX_IGNORE_FILE_BYTES = 16 * 2**20
_MAX_GIT_FILE_BYTES = 1 * 2**20  # .git files, commondir, config
_BOM = b"\xef\xbb\xbf"
_MAX_EXPANSIONS = 64

#: ``ignored(name, is_dir)`` for the entries of one directory (``name`` as bytes).
EntryMatcher = Callable[[bytes, bool], bool]

_FS_ENCODING = sys.getfilesystemencoding()
_FS_ERRORS = sys.getfilesystemencodeerrors()


def fs_bytes(name: str) -> bytes:
    """A file name as the bytes the file system holds (``os.fsencode`` for a ``str``, faster)."""
    return name.encode(_FS_ENCODING, _FS_ERRORS)


@dataclass(frozen=True, slots=True)
class IgnorePattern:
    """One line of an ignore file, parsed as git's ``parse_path_pattern`` does."""

    text: str  # the line as written, for messages
    pattern: bytes  # without the leading "!" and the trailing "/"
    negated: bool
    dir_only: bool
    name_only: bool  # no slash: matched against the last path component alone
    prefix: int  # how many leading bytes hold no wildcard
    ignore_case: bool = False
    # Worked out once, for matching many paths:
    literal: bool = field(init=False)  # no wildcard at all
    suffix: bytes | None = field(init=False)  # "*literal" name patterns: the literal
    body: bytes = field(init=False)  # what is matched: path patterns lose a leading "/"
    body_prefix: bytes = field(init=False)  # the literal start of body (case-folded if so)
    first_segment: bytes | None = field(init=False)  # path patterns: a literal first component
    required: bytes = field(init=False)  # the longest literal run: any match contains it
    # Name patterns such as "[Tt]humbs.db" or "*.py[cod]": every name (or, after a leading
    # "*", every suffix) they match, when there are few; looked up like literal names.
    expansions: frozenset[bytes] | None = field(init=False)
    # Name patterns "head*tail" with no other wildcard: matched with startswith/endswith.
    around_star: tuple[bytes, bytes] | None = field(init=False)
    # Path patterns "head/tail" whose head alone must match an entry's directory (see
    # _may_match_in): the head, NUL-terminated; None when the pattern cannot be split so.
    directory_part: bytes | None = field(init=False)
    _body0: bytes = field(init=False, repr=False)

    def __post_init__(self) -> None:
        pattern, fold = self.pattern, self.ignore_case
        body = pattern if self.name_only or pattern[:1] != b"/" else pattern[1:]
        plain = literal_prefix_length(body)
        suffix = None
        if self.name_only and pattern[:1] == b"*" and literal_prefix_length(pattern[1:]) == len(pattern) - 1:
            suffix = pattern[1:].lower() if fold else pattern[1:]
        first = None
        if not self.name_only:
            head, slash, _ = body.partition(b"/")
            if slash and literal_prefix_length(head) == len(head) and head:
                first = head.lower() if fold else head
            elif not slash and plain == len(body):
                first = body.lower() if fold else body
        runs = literal_runs(body)
        required = max(runs, key=len) if runs else b""
        expansions = None
        if self.name_only and suffix is None and self.prefix != len(pattern):
            sets = byte_sets(pattern[1:] if pattern[:1] == b"*" else pattern, fold)
            if sets is not None and math.prod(len(s) for s in sets) <= _MAX_EXPANSIONS:
                expansions = frozenset(bytes(combo) for combo in itertools.product(*(sorted(s) for s in sets)))
        around_star = None
        if self.name_only and pattern.count(b"*") == 1 and literal_prefix_length(pattern.replace(b"*", b"")) == len(pattern) - 1:
            head, _, tail = pattern.partition(b"*")
            around_star = (head.lower(), tail.lower()) if fold else (head, tail)
        directory_part = None
        if not self.name_only and b"\\" not in body and b"[" not in body:
            # Entry names hold no "/", nor can "*", "?" or a class match one: so when the
            # part after the last "/" has no "**" (and the part before does not end in one,
            # as in "a/**/*.c"), that part matches the name and the head the directory.
            head, _, tail = body.rpartition(b"/")
            if head and b"**" not in tail and not head.endswith((b"**", b"/")):
                directory_part = head + b"\0"
        for name, value in (
            ("around_star", around_star), ("directory_part", directory_part),
            ("expansions", expansions),
            ("literal", self.prefix == len(pattern)), ("suffix", suffix), ("body", body),
            ("body_prefix", body[:plain].lower() if fold else body[:plain]), ("first_segment", first),
            ("required", required.lower() if fold else required), ("_body0", body + b"\0"),
        ):
            object.__setattr__(self, name, value)

    def matches(self, rel: str | bytes, is_dir: bool) -> bool:
        """Whether the path ``rel`` (relative to the ignore file's directory, ``/``-separated)
        matches, whatever ``negated`` says."""
        rel_bytes = os.fsencode(rel)
        if self.dir_only and not is_dir:
            return False
        if self.ignore_case:
            rel_bytes = rel_bytes.lower()
        return self.match_path(rel_bytes, rel_bytes.rpartition(b"/")[2])

    def match_path(self, rel: bytes, name: bytes) -> bool:
        """git's ``match_basename``/``match_pathname``, type checks left to the caller.
        With ``ignore_case``, ``rel`` and ``name`` must be lower-cased already."""
        fold = self.ignore_case
        if self.name_only:
            if self.literal:
                return name == (self.pattern.lower() if fold else self.pattern)
            if self.suffix is not None:
                return name.endswith(self.suffix)
            if self.around_star is not None:
                head, tail = self.around_star
                return len(name) >= len(head) + len(tail) and name.startswith(head) and name.endswith(tail)
            if not name.startswith(self.body_prefix) or self.required not in name:
                return False
            return match_prepared(self._body0, name + b"\0", fold, False)
        body_prefix = self.body_prefix
        if body_prefix:
            if not rel.startswith(body_prefix):
                return False
            if len(body_prefix) == len(self.body) == len(rel):
                return True
        if self.required not in rel:
            return False
        # The whole pattern against the whole path: git 2.52+ (older gits cut the literal
        # prefix off first, which made "foo**/bar" match "foobar").
        return match_prepared(self._body0, rel + b"\0", fold, True)


def split_ignore_lines(data: bytes) -> list[bytes]:
    """The pattern lines of an ignore file's bytes, as git's ``add_patterns_from_buffer``
    cuts them: BOM skipped, ``\\n`` only, one ``\\r`` dropped, NUL ends a line, comments and
    empty lines skipped, trailing spaces trimmed."""
    if data.startswith(_BOM):
        data = data[len(_BOM):]
    lines = data.split(b"\n")
    out: list[bytes] = []
    for line in lines:
        if not line or line[:1] == b"#":
            continue
        if line.endswith(b"\r"):
            line = line[:-1]
        out.append(_trim_trailing_spaces(line.split(b"\0", 1)[0]))
    return out


def _trim_trailing_spaces(line: bytes) -> bytes:
    """Drop trailing spaces not escaped by a backslash; a line ending in a lone backslash
    is kept whole (git's ``trim_trailing_spaces``)."""
    last_space = -1
    i, n = 0, len(line)
    while i < n:
        byte = line[i]
        if byte == 0x20:
            if last_space < 0:
                last_space = i
        elif byte == 0x5C:
            i += 1
            if i >= n:
                return line
            last_space = -1
        else:
            last_space = -1
        i += 1
    return line if last_space < 0 else line[:last_space]


def parse_pattern(line: bytes, text: str | None = None, ignore_case: bool = False) -> IgnorePattern | None:
    """A trimmed ignore line as a pattern; ``None`` when it can never match (empty)."""
    negated = line[:1] == b"!"
    if negated:
        line = line[1:]
    dir_only = line.endswith(b"/")
    if dir_only:
        line = line[:-1]
    if not line:
        return None  # "", "!", "/", "!/": git keeps an empty pattern, which matches nothing
    return IgnorePattern(
        text=text if text is not None else os.fsdecode(line),
        pattern=line,
        negated=negated,
        dir_only=dir_only,
        name_only=b"/" not in line,
        prefix=literal_prefix_length(line),
        ignore_case=ignore_case,
    )


def compile_pattern(line: str | bytes, ignore_case: bool = False) -> IgnorePattern | None:
    """One ignore-file line (a final newline allowed); ``None`` for blanks, comments and
    lines that can never match."""
    raw = os.fsencode(line) if isinstance(line, str) else line
    if raw.endswith(b"\n"):
        raw = raw[:-1]
    lines = split_ignore_lines(raw)
    if not lines:
        return None
    text = os.fsdecode(line) if isinstance(line, bytes) else line
    return parse_pattern(lines[0], text.rstrip("\r\n"), ignore_case)


def compile_glob(glob: str) -> IgnorePattern:
    """A gitignore-style glob as used by ``--include``/``--exclude``; without a slash it
    matches a name at any depth. Raises ValueError for an empty glob."""
    pattern = compile_pattern(glob)
    if pattern is None:
        raise ValueError(f"empty glob pattern {glob!r}")
    return pattern


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


# -- git repositories: where info/exclude and the config live ----------------------------

@dataclass(frozen=True, slots=True)
class GitSettings:
    """What the walk takes from a repository's configuration."""

    ignore_case: bool = False
    excludes_file: str | None = None  # core.excludesFile, "~" expanded; None: the default


def git_common_dir(top: str) -> str | None:
    """The directory holding ``info/exclude`` and ``config`` for the work tree at ``top``:
    ``.git`` itself, or for a linked worktree or a submodule (``.git`` is a file saying
    ``gitdir: ...``) that directory's ``commondir``."""
    dot_git = os.path.join(top, ".git")
    if os.path.isdir(dot_git):
        git_dir = dot_git
    else:
        text = _small_text(dot_git)
        if text is None or not text.startswith("gitdir:"):
            return None
        git_dir = os.path.normpath(os.path.join(top, text[len("gitdir:"):].strip()))
    common = _small_text(os.path.join(git_dir, "commondir"))
    if common:
        return os.path.normpath(os.path.join(git_dir, common.strip()))
    return git_dir


def read_git_settings(common_dir: str | None) -> GitSettings:
    """``core.ignoreCase`` and ``core.excludesFile`` from the global config files
    (``$XDG_CONFIG_HOME/git/config``, ``~/.gitconfig``) and the repository's ``config``,
    later ones winning as in git. ``include`` directives are not followed."""
    home = os.path.expanduser("~")
    xdg = os.environ.get("XDG_CONFIG_HOME") or os.path.join(home, ".config")
    files = [os.path.join(xdg, "git", "config"), os.path.join(home, ".gitconfig")]
    if common_dir is not None:
        files.append(os.path.join(common_dir, "config"))
    values: dict[str, str | None] = {}
    for path in files:
        text = _small_text(path)
        if text is not None:
            values.update(_core_values(text))
    ignore_case = _config_bool(values.get("ignorecase", "false"))
    excludes = values.get("excludesfile")
    return GitSettings(ignore_case, os.path.expanduser(excludes) if excludes else None)


def default_excludes_file() -> str:
    """Where git looks for a global ignore file when ``core.excludesFile`` is not set."""
    xdg = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return os.path.join(xdg, "git", "ignore")


def _small_text(path: str) -> str | None:
    try:
        return read_regular_file(path, _MAX_GIT_FILE_BYTES).decode("utf-8", "surrogateescape")
    except OSError:
        return None


def _core_values(text: str) -> Iterable[tuple[str, str | None]]:
    """``key, value`` pairs of the ``[core]`` section (keys lower-cased; a bare key is
    ``None``, meaning true). Enough of git's config syntax for two keys."""
    in_core = False
    for raw in text.split("\n"):
        line = raw.strip()
        if line.startswith("["):
            header, _, rest = line[1:].partition("]")
            in_core = header.strip().lower() == "core"
            line = rest.strip()
        if not in_core or not line or line[0] in "#;":
            continue
        key, eq, value = line.partition("=")
        key = key.strip().lower()
        yield key, (_config_value(value) if eq else None)


def _config_value(value: str) -> str:
    out: list[str] = []
    quoted = False
    i = 0
    value = value.strip()
    while i < len(value):
        c = value[i]
        if c == '"':
            quoted = not quoted
        elif c == "\\" and i + 1 < len(value):
            i += 1
            out.append({"n": "\n", "t": "\t", "b": "\b"}.get(value[i], value[i]))
        elif c in "#;" and not quoted:
            break
        else:
            out.append(c)
        i += 1
    return "".join(out).strip() if not quoted else "".join(out)


def _config_bool(value: str | None) -> bool:
    return value is None or value.strip().lower() in ("true", "yes", "on", "1")


# -- the rules for a tree ---------------------------------------------------------------

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
        if not _is_within(directory, self.top):
            return self._repo_wide[self.top]
        # Climb to the nearest cached ancestor (or a nested repository's top), then build down.
        pending: list[str] = []
        current = directory
        while current not in self._chains:
            if _has_git(current):
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
        prefix = _relative_prefix(directory, merged.base) if merged is not None else None
        matcher = _never_ignored if merged is None or prefix is None else merged.directory_matcher(prefix)
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
        while _is_within(current, self.root) and current != self.root:
            ancestors.append(current)
            current = os.path.dirname(current)
        for ancestor in reversed(ancestors):
            if self.match(ancestor, True):
                return True
        return self.match(path, is_dir)


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
        prefix = _relative_prefix(ignore_file.base, base)
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


def _relative_prefix(directory: str, base: str) -> bytes | None:
    """``directory`` relative to ``base`` as ``b"a/b/"`` (``b""`` when equal); None when
    it is not inside."""
    if directory == base:
        return b""
    stem = base.rstrip(os.sep) + os.sep
    if not directory.startswith(stem):
        return None
    return fs_bytes(directory[len(stem):].replace(os.sep, "/")) + b"/"


def _never_ignored(name: bytes, is_dir: bool) -> bool:
    return False


def find_worktree_top(start: str) -> str | None:
    """The nearest directory at or above ``start`` holding a ``.git`` entry."""
    current = os.path.abspath(start)
    while True:
        if _has_git(current):
            return current
        parent = os.path.dirname(current)
        if parent == current:
            return None
        current = parent


def _has_git(directory: str) -> bool:
    return os.path.lexists(os.path.join(directory, ".git"))


def _is_within(path: str, directory: str) -> bool:
    return path == directory or path.startswith(directory.rstrip(os.sep) + os.sep)
