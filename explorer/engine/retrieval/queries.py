"""Queries and their targets: from the code's own docs (masked out), or from a JSONL file.

**Doc queries.** Every function, method and class of a language with full structure
support whose doc has at least ``min_words`` words gives a query: the doc's first
sentence (a JSDoc-style doc stops at its first ``@tag`` line), with the definition's
own name removed where it reads as an identifier (a snake_case or camelCase name
anywhere, any name that opens the doc, as Go docs do). Every such doc is masked
out of the source before it is chunked and indexed (a Python docstring statement
becomes ``...``; a doc comment's lines are deleted) so that retrieval cannot match
the doc itself; the target is the definition's span in the masked source. Query
texts that occur more than once (overridden methods) are dropped: their target is
ambiguous.

**Query files.** JSONL, one object per line:
``{"query": "...", "path": "src/a.py", "start_line": 10, "end_line": 42}`` (lines
1-based, inclusive). Gold spans are lines, not chunk ids, so one file scores every
setting. Nothing is masked for these.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..structure import FULL_LANGUAGES, FileStructure
from ..structure.extract import RegionScopes
from .masking import Edit

#: Entity types that give doc queries.
QUERY_ENTITY_TYPES = frozenset({"function", "method", "class"})
#: Docs shorter than this (in words) give no query.
DEFAULT_MIN_WORDS = 8

_WORD = re.compile(r"\S+")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s|\n\s*\n")
_TAG_LINE = re.compile(r"(?m)^\s*@\w")
_SPACE = re.compile(r"\s+")
_CAMEL = re.compile(r"[a-z0-9][A-Z]")
# a word as code mentions it: `name`, 'name', name()  (one pattern for every name: no compiling per query)
_WORD_REF = re.compile(r"""[`'"]?(?<![\w.])(\w+)(?!\w)(?:\(\))?[`'"]?""")
# C# XML doc tags: <see cref="X"/> keeps X, the other tags go
_XML_REF = re.compile(r"""<see(?:also)?\s+c?ref="([^"]*)"\s*/>""")
_XML_TAG = re.compile(r"</?(?:summary|remarks|para|c|code|returns|value|example|inheritdoc)\b[^>]*>")


@dataclass(frozen=True, slots=True)
class TargetSpan:
    """One definition a query asks for, in the *original* file: UTF-8 bytes (end
    exclusive), lines 0-based and inclusive; ``name`` its (qualified) name."""

    path: str
    start: int
    end: int
    line_start: int
    line_end: int
    name: str | None = None
    kind: str | None = None

    def to_dict(self) -> dict[str, object]:
        return {"path": self.path, "start_line": self.line_start + 1, "end_line": self.line_end + 1,
                **({"name": self.name, "kind": self.kind} if self.name is not None else {})}


@dataclass(frozen=True, slots=True)
class Query:
    """One query and its target span in the *original* file.

    ``start``/``end`` are UTF-8 byte offsets (end exclusive); ``line_start`` and
    ``line_end`` are 0-based and inclusive, like chunk line ranges. ``name`` and
    ``kind`` say which definition a doc query came from; ``origin`` is ``"docs"`` or
    the query file's name. A query from the history may ask for several definitions:
    the first is the target above, the others are ``more``; ``commit`` and
    ``subject`` say which commit it came from, ``names_target`` whether its message
    names one of its targets."""

    text: str
    path: str
    start: int
    end: int
    line_start: int
    line_end: int
    name: str | None = None
    kind: str | None = None
    origin: str = "docs"
    more: tuple[TargetSpan, ...] = ()
    commit: str | None = None
    subject: str | None = None
    names_target: bool = False

    @property
    def targets(self) -> tuple[TargetSpan, ...]:
        """Every definition the query asks for, the first one first."""
        first = TargetSpan(self.path, self.start, self.end, self.line_start, self.line_end, self.name, self.kind)
        return (first, *self.more)

    def to_dict(self) -> dict[str, object]:
        history = {} if self.commit is None else {
            "commit": self.commit, "subject": self.subject, "names_target": self.names_target,
            "targets": [t.to_dict() for t in self.targets]}
        return {"query": self.text, **self.targets[0].to_dict(), **history}


@dataclass(frozen=True, slots=True)
class QuerySpec:
    """A line of a query file: ``start_line``/``end_line`` 1-based and inclusive."""

    text: str
    path: str
    start_line: int
    end_line: int
    line_number: int = 0  # where it was read from (for messages)


class QueryFileError(ValueError):
    """A query file line that is not a valid query (the message names the line)."""


@dataclass(frozen=True, slots=True)
class DocQueryDraft:
    """A doc query found in one file, before duplicates across files are dropped."""

    text: str
    name: str
    kind: str
    start: int  # the definition, original bytes
    end: int


def first_sentence(doc: str) -> str:
    """A doc's first sentence (up to the first ``@tag`` line, blank line or sentence end),
    on one line."""
    doc = _XML_TAG.sub(" ", _XML_REF.sub(r"\1", doc))
    tag = _TAG_LINE.search(doc)
    if tag:
        doc = doc[: tag.start()]
    end = _SENTENCE_END.search(doc)
    if end:
        doc = doc[: end.start()]
    return _SPACE.sub(" ", doc).strip()


def reads_as_identifier(name: str) -> bool:
    """Whether a name looks like code rather than a word: snake_case or camelCase."""
    return "_" in name.strip("_") or bool(_CAMEL.search(name))


def remove_name(text: str, name: str) -> str:
    """``text`` without the definition's name where it reads as an identifier: every
    whole-word occurrence of a snake_case/camelCase name (with ``()`` and quotes), or
    the name opening the text (Go: "Join joins ...")."""
    if not name or not name.isidentifier():
        return text
    if reads_as_identifier(name):
        text = _WORD_REF.sub(lambda m: " " if m.group(1) == name else m.group(0), text)
    else:
        opening = _WORD_REF.match(text)
        if opening and opening.group(1) == name:
            text = " " + text[opening.end() :]
    return _SPACE.sub(" ", text).strip(" ,:;-")


def doc_queries(
    structure: FileStructure, *, min_words: int = DEFAULT_MIN_WORDS
) -> tuple[list[DocQueryDraft], list[Edit]]:
    """The doc queries of one file and the edits that mask their docs.

    Every doc of a function, method or class with at least ``min_words`` words is
    masked, whether or not its query survives (an empty query, a duplicate), so no
    query text stays in the indexed code. Only languages with full structure (in a
    container file, the regions in such a language: notebook cells, code blocks, scripts)."""
    if isinstance(structure.scope, RegionScopes):  # a container: each region in its language
        found = [doc_queries(part, min_words=min_words) for _, part in structure.scope.regions]
        return [d for part in found for d in part[0]], [e for part in found for e in part[1]]
    if structure.language not in FULL_LANGUAGES or structure.level != "full":
        return [], []
    drafts: list[DocQueryDraft] = []
    edits: list[Edit] = []
    python = structure.language == "python"
    for entity in structure.entities:
        doc, where = entity.docstring, entity.doc_range
        if entity.type not in QUERY_ENTITY_TYPES or doc is None or where is None:
            continue
        if len(_WORD.findall(doc)) < min_words:
            continue
        edits.append(Edit(where.start, where.end, b"..." if python else b""))
        text = remove_name(first_sentence(doc), entity.name)
        if _WORD.search(text):
            drafts.append(DocQueryDraft(text, entity.name, entity.type, entity.start, entity.end))
    return drafts, edits


def query_key(text: str) -> str:
    """What makes two query texts the same."""
    return _SPACE.sub(" ", text).strip().casefold()


def unique_texts(texts: Iterable[str]) -> set[str]:
    """The keys (:func:`query_key`) that occur exactly once."""
    counts = Counter(query_key(t) for t in texts)
    return {key for key, count in counts.items() if count == 1}


# -- query files ---------------------------------------------------------------------------
def parse_query_lines(text: str) -> list[QuerySpec]:
    """Parse a JSONL query file; raises :class:`QueryFileError` naming the first bad line."""
    specs: list[QuerySpec] = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise QueryFileError(f"line {number}: not JSON ({exc.msg})") from None
        if not isinstance(record, dict):
            raise QueryFileError(f"line {number}: expected an object with query, path, start_line, end_line")
        query, path = record.get("query"), record.get("path")
        start, end = record.get("start_line"), record.get("end_line")
        if not isinstance(query, str) or not query.strip():
            raise QueryFileError(f"line {number}: \"query\" must be a non-empty string")
        if not isinstance(path, str) or not path:
            raise QueryFileError(f"line {number}: \"path\" must be a non-empty string")
        for key, value in (("start_line", start), ("end_line", end)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise QueryFileError(f"line {number}: \"{key}\" must be a whole number >= 1")
        assert isinstance(start, int) and isinstance(end, int)
        if end < start:
            raise QueryFileError(f"line {number}: end_line {end} is before start_line {start}")
        specs.append(QuerySpec(query.strip(), normalize_path(path), start, end, number))
    return specs


def normalize_path(path: str) -> str:
    """Paths compare as forward-slash relative paths without a leading ``./``."""
    path = path.replace("\\", "/")
    while path.startswith("./"):
        path = path[2:]
    return path


def check_specs(specs: Sequence[QuerySpec], line_counts: dict[str, int]) -> list[str]:
    """Problems with query-file lines against the files (unknown path, lines past the end)."""
    problems = []
    for spec in specs:
        count = line_counts.get(spec.path)
        if count is None:
            problems.append(f"line {spec.line_number}: no file {spec.path!r} among the files evaluated")
        elif spec.end_line > count:
            problems.append(f"line {spec.line_number}: {spec.path} has {count} lines, not {spec.end_line}")
    return problems
