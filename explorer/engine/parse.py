"""Parsing a source into a tree, and deciding when the tree is not worth chunking by."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tree_sitter import Node, Tree

from .languages import UNSAFE_GRAMMARS, detect_language, get_parser, resolve_language
from .text import SourceText

#: Above this share of bytes inside ERROR nodes, the tree says too little to cut by.
MAX_ERROR_SHARE = 0.5


class UnsupportedLanguageError(ValueError):
    def __init__(self, path: str | None, language: str | None = None):
        self.path = path
        self.language = language
        what = f"language {language!r}" if language else "file type"
        super().__init__(f"Unsupported {what}: {path}")


@dataclass(slots=True)
class ParsedFile:
    """A source with its tree. ``tree`` is None when the file is chunked line-based,
    and ``fallback`` then says why."""

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
    yield_every: int = 0,
) -> ParsedFile:
    """Detect the language (unless given), parse, and record errors or the reason to fall back.

    ``yield_every`` (bytes, 0 = never): parse through a read callback that lets other
    threads run between reads. The parser otherwise holds the GIL for the whole parse,
    which freezes a UI thread (the explorer parses in a worker) for as long."""
    lang = resolve_language(language) if language else detect_language(path, source.data[:256])
    if lang is None or lang == "text":
        reason = "unknown language" if lang is None else "plain text"
        return ParsedFile(source, path, lang, None, fallback=reason)
    if strategy == "lines":
        return ParsedFile(source, path, lang, None, fallback="lines strategy")
    if lang in UNSAFE_GRAMMARS:
        return ParsedFile(source, path, lang, None, fallback=UNSAFE_GRAMMARS[lang])
    tree = get_parser(lang).parse(_yielding_reader(source.data, yield_every) if yield_every else source.data)
    if tree is None:
        return ParsedFile(source, path, lang, None, fallback="the parser gave no tree")
    parsed = ParsedFile(source, path, lang, tree)
    root = tree.root_node
    if root.has_error:
        errors, error_bytes = find_errors(root)
        parsed.parse_error = {"message": describe_errors(errors), "recoverable": True}
        if root.type == "ERROR" or error_bytes > MAX_ERROR_SHARE * max(1, len(source.data)):
            parsed.fallback = "the parser could not make sense of most of the file"
            parsed.tree = None
    return parsed


def _yielding_reader(data: bytes, step: int) -> Callable[[int, Any], bytes]:
    def read(offset: int, _point: Any) -> bytes:
        time.sleep(0)  # give up the GIL for a moment
        return data[offset : offset + step]

    return read


def find_errors(root: Node) -> tuple[list[Node], int]:
    """ERROR and MISSING nodes in document order, and the bytes the ERROR nodes cover.
    Iterative, and only descends into subtrees that contain an error."""
    found: list[Node] = []
    covered = 0
    stack = [root]
    while stack:
        node = stack.pop()
        if node.is_error or node.is_missing:
            found.append(node)
            if node.is_error:
                covered += node.end_byte - node.start_byte
                continue
        if node.has_error:
            stack.extend(reversed(node.children))
    return found, covered


def describe_errors(errors: list[Node]) -> str:
    def one(node: Node) -> str:
        kind = "MISSING" if node.is_missing else "ERROR"
        row, col = node.start_point
        return f"{kind} at line {row + 1}, column {col + 1}"

    message = "; ".join(one(n) for n in errors[:3])
    if len(errors) > 3:
        message += f"; ... and {len(errors) - 3} more"
    return message or "syntax error"
