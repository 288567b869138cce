"""Ignore-file lines parsed the way git's ``dir.c`` parses them.

- ignore files are bytes: lines split only on ``\\n`` (one ``\\r`` before it dropped), a
  UTF-8 BOM at the start skipped, a NUL ending the line; ``#`` lines and blank lines skipped;
  trailing spaces trimmed unless backslash-escaped;
- ``!`` negates, a trailing ``/`` matches directories only, a pattern with a slash (other
  than a trailing one) is matched against the path from the ignore file's directory, one
  without against the name alone;
- globs are git's wildmatch (:mod:`..wildmatch`) on bytes, so a bad line such as ``[z-a]``
  simply matches nothing.

Each pattern works out once what lets the index (:mod:`.index`) find it by a dictionary
look-up or reject a name cheaply: its literal parts, its expansions, its suffix.
"""

from __future__ import annotations

import itertools
import math
import os
import sys
from dataclasses import dataclass, field

from ..wildmatch import byte_sets, literal_prefix_length, literal_runs, match_prepared

_BOM = b"\xef\xbb\xbf"
_MAX_EXPANSIONS = 64

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

