"""Queries from a repository's history: a commit's message asks for the definitions it changed.

What people type into code search, and what an agent retrieves for, is a change
description ("handle timeouts when the pool is exhausted"). Every repository holds
thousands of such pairs: a commit's message, and the definitions its diff changed.
This module holds the rules that turn commits into queries, as pure functions over
plain records; reading the history (``git``) is the workspace's job
(:mod:`explorer.workspace.history`), and the evaluation pairs the result with the
evaluated tree (:func:`~.evaluate.add_history_queries`).

**A commit** (:class:`Commit`) is its message, author, parents and, per file, the
lines its diff wrote (the post-image's line numbers) and the places where it only
removed lines.

**Screening** (:func:`screen`), in this order, each a counted reason: merges (and
merge-like subjects); bots; reverts; releases and version bumps; messages with
fewer than ``min_words`` words once trailers and issue references are stripped;
commits that change no evaluated code file; renames without a changed line;
formatting-only changes (the removed and the added code hold the same
non-whitespace characters); changes to generated or vendored code only; test-only
changes; more than ``max_files`` code files changed.

**Targets** (:func:`touched`): per changed code file, the innermost definitions
(function, method, class, interface, type, enum; a constant or variable at the top
level) holding a changed non-blank line,
named by their qualified name (``Option.get_default``), found with the engine's own
structure of the file as the commit left it. A line removed inside a definition
touches it; a removal between two definitions touches neither. Commits whose
changes touch no definition, or more than ``max_definitions``, are screened out.
Tests are never targets: a change description asks for the code that does the work.

**The query** (:func:`message_text`) is the subject and body, with trailers
(``Signed-off-by:``, ``Co-authored-by:``...), issue and pull-request references
(``#123``, ``(#123)``, ``fixes #12``, ``GH-12``, URLs), merge lines, check lists and
HTML comments removed, cut at :data:`MAX_WORDS` words.
"""

from __future__ import annotations

import re
from collections.abc import Container, Generator, Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from ..languages import detect_language
from ..model import Chunk
from ..options import ChunkOptions
from ..parse import ParsedFile
from ..structure import FULL_LANGUAGES, FileStructure
from ..structure.extract import RegionScopes
from .calls import CALL_TARGETS, TYPE_TARGETS

#: The query source's name.
HISTORY = "history"
#: Definitions a commit's change can target (constants and variables at the top level only).
TARGET_TYPES = CALL_TARGETS | TYPE_TARGETS | {"constant", "variable"}
#: Of those, the ones that count only at a file's top level.
TOP_LEVEL_TYPES = frozenset({"constant", "variable"})
#: A message is cut after this many words (a pull request's description can run long).
MAX_WORDS = 200

# -- screening reasons, in the order they are checked (and reported) -----------------------
MERGE, BOT, REVERT, RELEASE, SHORT = "merge", "bot", "revert", "release", "short"
NO_CODE, RENAMES, FORMATTING, GENERATED, TESTS_ONLY = "no_code", "renames", "formatting", "generated", "tests_only"
TOO_MANY_FILES, NO_DEFINITION, TOO_MANY_DEFINITIONS = "too_many_files", "no_definition", "too_many_definitions"
GONE, DUPLICATE, OVER_LIMIT = "gone", "duplicate", "over_limit"
#: Every reason a commit gives no query, with the words a report uses for it.
REASONS: dict[str, str] = {
    MERGE: "merges",
    BOT: "by bots",
    REVERT: "reverts",
    RELEASE: "releases and version bumps",
    SHORT: "messages too short",
    NO_CODE: "no evaluated code file changed",
    RENAMES: "renames only",
    FORMATTING: "formatting only",
    GENERATED: "generated or vendored code only",
    TESTS_ONLY: "tests only",
    TOO_MANY_FILES: "too many files",
    NO_DEFINITION: "no definition changed",
    TOO_MANY_DEFINITIONS: "too many definitions",
    GONE: "definitions no longer in the tree",
    DUPLICATE: "message repeated by another commit",
    OVER_LIMIT: "beyond the query limit",
}


@dataclass(frozen=True, slots=True)
class HistoryRules:
    """Which commits give queries. ``commits``: how many commits are read, newest first;
    ``limit``: at most this many queries (the newest eligible commits)."""

    commits: int = 5000
    limit: int = 1000
    min_words: int = 3
    max_files: int = 5
    max_definitions: int = 8

    def __post_init__(self) -> None:
        for name in ("commits", "limit", "min_words", "max_files", "max_definitions"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"history {name.replace('_', ' ')} must be a whole number >= 1, not {value!r}")


# -- commits as read from the history ------------------------------------------------------
@dataclass(frozen=True, slots=True)
class FileChange:
    """One file of a commit's diff. ``path``: after the commit (``old_path`` before a
    rename); ``added``: the line ranges the commit wrote, 1-based and inclusive, in the
    file as the commit left it; ``removed_after``: lines ``n`` after which the commit only
    removed lines (0: at the top); ``blob``: the file's content id after the commit."""

    path: str
    status: str = "modified"  # added, modified, renamed, copied, deleted
    added: tuple[tuple[int, int], ...] = ()
    removed_after: tuple[int, ...] = ()
    old_path: str | None = None
    blob: str | None = None
    binary: bool = False
    #: The lines it removed and those it added hold the same non-whitespace characters.
    whitespace_only: bool = False

    @property
    def changes_lines(self) -> bool:
        return bool(self.added or self.removed_after)


@dataclass(frozen=True, slots=True)
class Commit:
    """A commit as the history reader gives it (``time``: seconds since the epoch)."""

    sha: str
    message: str
    parents: tuple[str, ...] = ()
    author: str = ""
    email: str = ""
    time: int = 0
    changes: tuple[FileChange, ...] = ()

    @property
    def subject(self) -> str:
        return subject_of(self.message)


@dataclass(frozen=True, slots=True)
class HistoryDefinition:
    """A definition of a file: its qualified name (``Option.get_default``), kind, and
    lines (0-based, inclusive) and bytes (end exclusive)."""

    name: str
    kind: str
    line_start: int
    line_end: int
    start: int = 0
    end: int = 0
    depth: int = 0
    has_children: bool = False


@dataclass(frozen=True, slots=True)
class CommitQuery:
    """What the history gives the evaluation for one commit: its message as the query and
    the definitions it changed, as ``(path, qualified name)``, paths as evaluated."""

    commit: str
    subject: str
    text: str
    targets: tuple[tuple[str, str], ...]
    time: int = 0


@dataclass(slots=True)
class HistoryFunnel:
    """How many commits were read and why each one that gives no query gives none."""

    commits: int = 0
    counts: dict[str, int] = field(default_factory=dict)
    queries: int = 0
    #: Targets matched in the evaluated tree, and those dropped (no longer there).
    targets: int = 0
    dropped_targets: int = 0
    #: Queries whose message names one of its targets' identifiers.
    names_target: int = 0
    shallow: bool = False
    head: str | None = None
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)
    #: Why there are no history queries at all (no git, not a repository...), or None.
    problem: str | None = None

    def count(self, reason: str, by: int = 1) -> None:
        self.counts[reason] = self.counts.get(reason, 0) + by

    def to_dict(self) -> dict[str, Any]:
        return {
            "commits": self.commits, "queries": self.queries,
            "screened_out": {reason: self.counts[reason] for reason in REASONS if self.counts.get(reason)},
            "targets": self.targets, "dropped_targets": self.dropped_targets,
            "names_target": self.names_target, "shallow": self.shallow, "head": self.head,
            "seconds": round(self.seconds, 3), "notes": list(self.notes), "problem": self.problem,
        }

    def lines(self) -> list[str]:
        """The funnel in words, for a run summary."""
        if self.problem and not self.commits:
            return [f"History: no queries: {self.problem}."]
        out = [f"History: {self.commits:,} commits read" + (" (a shallow clone: only part of the history)"
                                                            if self.shallow else "")
               + f", {self.queries:,} give queries ({self.seconds:.1f} s)."]
        parts = [f"{self.counts[r]:,} {REASONS[r]}" for r in REASONS if self.counts.get(r)]
        if parts:
            out.append("  No query from: " + "; ".join(parts) + ".")
        if self.queries:
            out.append(f"  {self.targets:,} targets in the tree ({self.dropped_targets:,} dropped: no longer there "
                       f"by path and qualified name); {self.names_target:,} of {self.queries:,} messages name "
                       "a target's identifier.")
        out += [f"  {note}" for note in self.notes]
        return out


# -- messages -----------------------------------------------------------------------------
_TRAILER_TOKENS = frozenset({
    "signed-off-by", "co-authored-by", "reviewed-by", "acked-by", "tested-by", "reported-by", "suggested-by",
    "helped-by", "cc", "change-id", "fixes", "closes", "resolves", "refs", "ref", "see", "issue", "issues",
    "bug", "pr", "reviewed-on", "link", "related", "part-of", "cherry-picked-from", "backport-of",
})
_TRAILER = re.compile(r"^\s*([A-Za-z][A-Za-z0-9-]*)\s*:\s+\S")
_REF_VERB = r"(?:(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?|refs?|see|related\s+to|part\s+of|addresse[sd]|for)\s*:?\s+)?"
_REFERENCE = re.compile(
    r"(?<![\w&/])" + _REF_VERB + r"(?:[\w.-]+/[\w.-]+)?#\d+\b"  # #12, fixes #12, owner/repo#12
    r"|\bGH-\d+\b|https?://\S+",
    re.IGNORECASE,
)
_MERGE_LINE = re.compile(r"^\s*Merge (?:pull request|branch|remote-tracking branch|tag)\b.*$", re.IGNORECASE)
_CHECKLIST = re.compile(r"^\s*[-*]\s*\[[ xX]\]")
_HTML_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
_CHERRY = re.compile(r"^\s*\(cherry picked from commit [0-9a-f]+\)\s*$", re.IGNORECASE)
_SKIP_CI = re.compile(r"\[(?:skip ci|ci skip|no ci|skip actions)\]", re.IGNORECASE)
_FENCE = re.compile(r"^\s*(?:```|~~~)")
# what a removed reference leaves: "( )", "(, )", "[]" (not a call's "()" after a name)
_EMPTY_BRACKETS = re.compile(r"(?<!\w)\(\s*[,;]?\s*\)|(?<!\w)\[\s*\]")
_SPACE_BEFORE_STOP = re.compile(r"\s+([.,;:!?])(?=\s|$)")
_SPACE = re.compile(r"\s+")
#: Words that only joined references ("Fixes #12, see #13"): a line of nothing else goes.
_CONNECTORS = frozenset({"see", "and", "also", "or", "fixes", "fix", "fixed", "closes", "close", "closed",
                         "resolves", "resolved", "refs", "ref", "related", "to", "for", "in", "issue", "issues", "pr"})
_WORD = re.compile(r"[^\W\d_][\w'-]*|\w*[^\W\d_]\w*")


def _clean_line(line: str) -> str:
    line = _SKIP_CI.sub(" ", _REFERENCE.sub(" ", line))
    return _EMPTY_BRACKETS.sub(" ", line)


def _is_trailer(line: str) -> bool:
    match = _TRAILER.match(line)
    return match is not None and (match.group(1).lower() in _TRAILER_TOKENS or match.group(1).lower().endswith("-by"))


def subject_of(message: str) -> str:
    """A commit's first line, its issue references removed, on one line."""
    first = next((line for line in message.splitlines() if line.strip()), "")
    return _SPACE_BEFORE_STOP.sub(r"\1", _SPACE.sub(" ", _clean_line(first))).strip(" -:;,")


def message_text(message: str) -> str:
    """The query a message gives: subject and body without trailers, references,
    merge lines, check lists, HTML comments and fences, on one line, at most
    :data:`MAX_WORDS` words."""
    message = _HTML_COMMENT.sub(" ", message)
    kept: list[str] = []
    for line in message.splitlines():
        if (_is_trailer(line) or _MERGE_LINE.match(line) or _CHECKLIST.match(line) or _CHERRY.match(line)
                or _FENCE.match(line)):
            continue
        line = _SPACE.sub(" ", _clean_line(line)).strip()
        if not {w.casefold() for w in _WORD.findall(line)} - _CONNECTORS:  # what a removed reference left
            continue
        if len(kept) == 1 and kept[0][-1:] not in ".!?:;":  # the subject ends a sentence
            kept[0] += "."
        kept.append(line)
    words = _SPACE_BEFORE_STOP.sub(r"\1", " ".join(kept)).split(" ")
    return " ".join(words[:MAX_WORDS]).strip(" -:;,")


def word_count(text: str) -> int:
    """Words with a letter in them (numbers and symbols do not make a question)."""
    return len(_WORD.findall(text))


# -- screening ----------------------------------------------------------------------------
_BOT = re.compile(r"\[bot\]|\bbot\b|dependabot|renovate|pre-commit-ci|github-actions|greenkeeper|snyk-bot|"
                  r"mergify|allcontributors|imgbot|pyup-bot|semantic-release", re.IGNORECASE)
_REVERT = re.compile(r"^\s*(?:revert|reapply|undo)\b", re.IGNORECASE)
_VERSION = re.compile(r"\bv?\d+\.\d+(?:\.\d+)*(?:[-.]?(?:a|b|rc|dev|post)\d*)?\b")
_RELEASE_WORD = re.compile(r"\b(?:release[ds]?|releasing|bump(?:ed|s)?|version|prepare|tag(?:ged)?)\b",
                           re.IGNORECASE)
_MERGE_SUBJECT = re.compile(r"^\s*Merge (?:pull request|branch|remote-tracking branch|tag)\b", re.IGNORECASE)
_TEST_DIRS = frozenset({"test", "tests", "testing", "__tests__", "spec", "specs", "e2e", "test_utils", "testdata"})
_TEST_FILE = re.compile(r"(?:^test_.*|.*_tests?\.\w+|.*\.(?:test|spec)\.\w+|conftest\.py|.*Tests?\.(?:java|kt|cs|swift))$")
_VENDORED_DIRS = frozenset({"vendor", "vendored", "_vendor", "third_party", "thirdparty", "node_modules",
                            "generated", "__generated__", "gen"})
_GENERATED_FILE = re.compile(r".*(?:_pb2(?:_grpc)?\.pyi?|\.pb\.go|\.pb\.\w+|\.min\.\w+|\.generated\.\w+|"
                             r"_generated\.\w+|\.g\.dart|\.designer\.cs)$")


def is_test_path(path: str) -> bool:
    """Whether a path names test code (a test folder, ``test_x.py``, ``x_test.go``,
    ``x.test.ts``, ``x.spec.js``, ``conftest.py``, ``XTest.java``)."""
    parts = path.split("/")
    return any(part.lower() in _TEST_DIRS for part in parts[:-1]) or bool(_TEST_FILE.match(parts[-1]))


def is_generated_path(path: str) -> bool:
    """Whether a path names generated or vendored code."""
    parts = path.split("/")
    return any(part.lower() in _VENDORED_DIRS for part in parts[:-1]) or bool(_GENERATED_FILE.match(parts[-1]))


@lru_cache(maxsize=4096)
def is_code_path(path: str) -> bool:
    """Whether the engine knows the file's definitions (a language with full structure
    support, outside notebooks and documents)."""
    language = detect_language(path)
    return language is not None and language in FULL_LANGUAGES


def code_changes(commit: Commit, evaluated: Container[str]) -> list[FileChange]:
    """The commit's changes to evaluated code files that still exist after it."""
    return [c for c in commit.changes
            if c.status != "deleted" and not c.binary and c.path in evaluated and is_code_path(c.path)]


def target_changes(commit: Commit, evaluated: Container[str]) -> list[FileChange]:
    """The changes whose definitions can be targets: lines changed in evaluated code
    files that are neither tests nor generated or vendored code."""
    return [c for c in code_changes(commit, evaluated)
            if c.changes_lines and not is_test_path(c.path) and not is_generated_path(c.path)]


def is_bot(author: str, email: str) -> bool:
    return bool(_BOT.search(author) or _BOT.search(email))


def is_release(subject: str) -> bool:
    """A release or a version bump: a version number with a release word, or a bare version."""
    if _VERSION.fullmatch(subject.strip().lstrip("vV")):
        return True
    return bool(_VERSION.search(subject) and _RELEASE_WORD.search(subject))


def screen(commit: Commit, rules: HistoryRules, evaluated: Container[str]) -> str | None:
    """Why the commit gives no query (a reason of :data:`REASONS`), or None when it may
    give one (its definitions are still to be found: :func:`touched`)."""
    subject = commit.subject
    if len(commit.parents) > 1 or _MERGE_SUBJECT.match(commit.message):
        return MERGE
    if is_bot(commit.author, commit.email):
        return BOT
    if _REVERT.match(subject):
        return REVERT
    if is_release(subject):
        return RELEASE
    if word_count(message_text(commit.message)) < rules.min_words:
        return SHORT
    code = code_changes(commit, evaluated)
    if not code:
        return NO_CODE
    changed = [c for c in code if c.changes_lines]
    if not changed:
        return RENAMES
    if all(c.whitespace_only for c in changed):
        return FORMATTING
    own = [c for c in changed if not is_generated_path(c.path)]
    if not own:
        return GENERATED
    targets = [c for c in own if not is_test_path(c.path)]
    if not targets:
        return TESTS_ONLY
    if len(targets) > rules.max_files:
        return TOO_MANY_FILES
    return None


# -- definitions and the lines a change touched ---------------------------------------------
def definitions_of(structure: FileStructure) -> list[HistoryDefinition]:
    """The file's definitions that can be targets, by qualified name (the names of the
    enclosing definitions and its own, joined with dots), in source order. None for a
    language without full structure support, or a container (notebook, document)."""
    if isinstance(structure.scope, RegionScopes) or structure.language not in FULL_LANGUAGES \
            or structure.level != "full":
        return []
    found = []
    for entity in structure.entities:
        if entity.type not in TARGET_TYPES or not entity.name or (entity.type in TOP_LEVEL_TYPES and entity.parent):
            continue
        chain = [a.name for a in reversed(entity.ancestors()) if a.type not in ("import", "export")]
        children = any(child.type in TARGET_TYPES for child in entity.children)
        found.append(HistoryDefinition(".".join([*chain, entity.name]), entity.type, entity.line_start,
                                       entity.line_end, entity.start, entity.end, len(chain), children))
    return found


def touched(definitions: Sequence[HistoryDefinition], change: FileChange, lines: Sequence[str]) -> list[str]:
    """The qualified names of the innermost definitions holding a changed non-blank line
    of ``change`` (``lines``: the file as the commit left it), in source order. A removal
    touches the innermost definition holding the lines on both sides of it, unless that
    definition holds others (the removal may have been between them)."""
    count = len(lines)
    owner = [-1] * count  # line -> the innermost definition holding it
    parent: list[int] = []
    for k, definition in enumerate(definitions):  # outer before inner: inner ones overwrite
        holder = owner[definition.line_start] if 0 <= definition.line_start < count else -1
        parent.append(holder)
        for line in range(max(0, definition.line_start), min(count, definition.line_end + 1)):
            owner[line] = k
    hit: set[int] = set()
    for first, last in change.added:
        for line in range(max(1, first) - 1, min(count, last)):
            if owner[line] >= 0 and lines[line].strip():
                hit.add(owner[line])
    for after in change.removed_after:
        before, next_line = after - 1, after  # 0-based lines on both sides of the removal
        if before < 0 or next_line >= count:
            continue
        common = _common(owner[before], owner[next_line], parent)
        if common >= 0 and not definitions[common].has_children:
            hit.add(common)
    names = [definitions[k].name for k in sorted(hit, key=lambda k: (definitions[k].line_start, k))]
    return list(dict.fromkeys(names))  # overloads, a property's getter and setter: one name


def _common(a: int, b: int, parent: list[int]) -> int:
    """The innermost definition holding both ``a`` and ``b`` (-1: none)."""
    chain = set()
    while a >= 0:
        chain.add(a)
        a = parent[a]
    while b >= 0 and b not in chain:
        b = parent[b]
    return b


# -- queries ---------------------------------------------------------------------------------
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def names_target(text: str, names: Iterable[str]) -> bool:
    """Whether a message names one of its targets: a part of a target's qualified name
    (``Option``, ``get_default``; dunder names left out) appears in it as a word, in
    any case. Such a message makes a lexical retriever's job easy."""
    words = {w.casefold() for w in _IDENTIFIER.findall(text)}
    for name in names:
        for part in name.split("."):
            if part and not (part.startswith("__") and part.endswith("__")) and part.casefold() in words:
                return True
    return False


# -- the definitions of many files, on every core ---------------------------------------------
def definitions_analyzer(parsed: ParsedFile, chunks: list[Chunk], options: ChunkOptions,
                         seconds: dict[str, float]) -> list[HistoryDefinition]:
    """Batch analyzer (runs in a worker): the file's target definitions."""
    from ..structure import extract_structure

    if parsed.tree is None:
        return []
    return definitions_of(extract_structure(parsed))


def file_definitions(files: Iterable[tuple[str, bytes]], *, jobs: int | None = None
                     ) -> Generator[list[HistoryDefinition] | None, None, None]:
    """The target definitions of each ``(path, content)``, in order, parsed in a process
    pool (None for a file that could not be parsed: binary, undecodable, too deep).
    Closing the generator stops the pool."""
    from ..batch import BatchFile, chunk_batch_stream

    # The batch's own chunking is thrown away: one chunk per file keeps it cheap.
    options = ChunkOptions(max_size=1 << 30, strategy="ast", context_mode="none")
    stream = chunk_batch_stream((BatchFile(code=data, name=path) for path, data in files), jobs=jobs,
                                analyze=definitions_analyzer, keep_chunks=False, options=options)
    try:
        for result in stream:
            yield result.analysis if result.ok else None
    finally:
        stream.close()
