"""Parsing a source into a tree, and describing the syntax errors it holds.

A tree with errors is still chunked by its nodes: tree-sitter always recovers one, and
most of a broken file (a file mid-edit, or syntax newer than the grammar) keeps its
structure. The chunker cuts the error regions themselves only between lines.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tree_sitter import Node, Tree

from .languages import UNSAFE_GRAMMARS, detect_language, get_parser, resolve_language
from .text import SourceText

#: The fallback reason of a file chunked by lines because the ``lines`` strategy was asked for.
LINES_STRATEGY = "lines strategy"

#: Errors named in the message; the rest are counted.
MAX_NAMED_ERRORS = 3

_LONE_CR = re.compile(rb"\r(?!\n)")


class UnsupportedLanguageError(ValueError):
    """Raised with ``strict=True`` for a file that would otherwise be chunked line-based
    because it has no usable grammar (unknown language, plain text, an unsafe parser)."""

    def __init__(self, path: str | None, language: str | None = None):
        self.path = path
        self.language = language
        what = f"language {language!r}" if language else "file type"
        super().__init__(f"Unsupported {what}: {path}")


@dataclass(slots=True)
class ParsedFile:
    """A source with its tree. ``tree`` is None when the file is chunked line-based,
    and ``fallback`` then says why. A tree with syntax errors is kept (``parse_error``
    describes them)."""

    source: SourceText
    path: str | None
    language: str | None
    tree: Tree | None
    parse_error: dict[str, Any] | None = None
    fallback: str | None = None

    @property
    def root(self) -> Node | None:
        return self.tree.root_node if self.tree is not None else None


def parse_source(
    source: SourceText, path: str | None = None, language: str | None = None, *, strategy: str = "ast",
    yield_every: int = 0, strict: bool = False,
) -> ParsedFile:
    """Detect the language (unless given), parse, and record errors or the reason to fall back.

    ``yield_every`` (bytes, 0 = never): parse through a read callback that lets other
    threads run between reads. The parser otherwise holds the GIL for the whole parse,
    which freezes a UI thread (the explorer parses in a worker) for as long.
    ``strict``: raise :class:`UnsupportedLanguageError` instead of falling back to lines
    when there is no grammar to parse with (the ``lines`` strategy is asked for, so it is not
    a fallback)."""
    lang = resolve_language(language) if language else detect_language(path, source.data[:256])
    if lang is None or lang == "text":
        if strict:
            raise UnsupportedLanguageError(path, lang)
        reason = "unknown language" if lang is None else "plain text"
        return ParsedFile(source, path, lang, None, fallback=reason)
    if strategy == "lines":
        return ParsedFile(source, path, lang, None, fallback=LINES_STRATEGY)
    if lang in UNSAFE_GRAMMARS:
        if strict:
            raise UnsupportedLanguageError(path, lang)
        return ParsedFile(source, path, lang, None, fallback=UNSAFE_GRAMMARS[lang])
    data = parser_bytes(source.data)
    tree = get_parser(lang).parse(_yielding_reader(data, yield_every) if yield_every else data)
    if tree is None:
        return ParsedFile(source, path, lang, None, fallback="the parser gave no tree")
    parsed = ParsedFile(source, path, lang, tree)
    root = tree.root_node
    if root.has_error:
        parsed.parse_error = {"message": describe_errors(find_errors(root), source), "recoverable": True}
    return parsed


def parser_bytes(data: bytes) -> bytes:
    """The bytes to give the parser: a lone CR (an old Mac line end) becomes LF, which every
    grammar knows as a line end (Python's takes a lone CR for an error). One byte for one
    byte, so every offset in the tree is an offset in the original."""
    if b"\r" not in data:
        return data
    return _LONE_CR.sub(b"\n", data)


def _yielding_reader(data: bytes, step: int) -> Callable[[int, Any], bytes]:
    def read(offset: int, _point: Any) -> bytes:
        time.sleep(0)  # give up the GIL for a moment
        return data[offset : offset + step]

    return read


def find_errors(root: Node) -> list[tuple[Node, int]]:
    """ERROR and MISSING nodes in document order, nested ones included, each with the
    byte offset where it goes wrong: a MISSING node's place; for an ERROR node, its first
    child that is a stray token or another error (a root ERROR over a file that is well
    formed up to some line starts being wrong there), else its start.
    Iterative, and only descends into subtrees that contain an error."""
    found: list[tuple[Node, int]] = []
    stack = [root]
    while stack:
        node = stack.pop()
        if node.is_missing:
            found.append((node, node.start_byte))
            continue
        children = node.children
        if node.is_error:
            where = node.start_byte
            for child in children:
                if not child.is_named or child.is_error or child.is_missing:
                    where = child.start_byte
                    break
            found.append((node, where))
        stack.extend([child for child in reversed(children) if child.has_error])
    found.sort(key=lambda item: item[1])
    return found


def describe_errors(errors: list[tuple[Node, int]], source: SourceText) -> str:
    """``ERROR at line L, column C`` (1-based, columns in characters) for the first
    few places, then ``... and N more``."""
    places: list[tuple[bool, int]] = []
    for node, offset in errors:
        place = (node.is_missing, offset)
        if not places or places[-1] != place:  # an ERROR whose first child is an ERROR: one place
            places.append(place)
    named = []
    for missing, offset in places[:MAX_NAMED_ERRORS]:
        line = source.line_of(offset)
        column = source.char_offset(offset) - source.char_offset(source.line_start(line)) if source.data else 0
        named.append(f"{'MISSING' if missing else 'ERROR'} at line {line + 1}, column {column + 1}")
    message = "; ".join(named)
    if len(places) > MAX_NAMED_ERRORS:
        message += f"; ... and {len(places) - MAX_NAMED_ERRORS} more"
    return message or "syntax error"
