"""Docstrings: Python's first-statement strings and doc comments directly above an item.

Python: the first statement of the body, if it is a string literal (any quote
style, prefixes ``r``/``u`` allowed, ``b``/``f`` not), trimmed per PEP 257:
blank edge lines dropped, the common indentation of the lines after the first
removed. Escapes are left as written.

Comment docs: the run of line comments, or the one block comment, that ends on
the line right above the item (or a block comment on the item's own line, before
it), starting its own line, with no blank line anywhere in the run and nothing
between it and the item but "skip" lines (Rust ``#[attributes]``). The first comment up must be a doc comment for the
language (``/**`` for JSDoc, Javadoc, KDoc, PHPDoc, Scaladoc; ``///`` or
``/**`` for Rust, C# and Swift; any comment for Go, C, C++, Ruby and the
generic languages); the run stops at the first comment that is not. Markers are
stripped (``/**``, ``*/``, a leading ``*`` plus one space on each line,
``///``, ``//``, ``#``, ``--``, ``;``, ``%`` plus one space) and the text is
trimmed like a Python docstring.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from typing import TYPE_CHECKING

from ..text import SourceText
from .specs.comments import CommentSyntax

if TYPE_CHECKING:
    from tree_sitter import Node

_PY_STRING = re.compile(r"""^[rRuU]?("{3}|'{3}|"|')(.*)\1$""", re.S)
_LINE_MARKER = re.compile(r"^[ \t]*(?://[/!]?|#+|--+|;+|%+) ?", re.M)
_BLOCK_STAR = re.compile(r"^[ \t]*\* ?", re.M)


def trim(text: str) -> str | None:
    """PEP 257 docstring trimming (the first line stripped, the common indentation
    of the others removed, blank edge lines dropped); ``None`` for an empty result.
    One pass over the lines, linear in the text: docs can be long."""
    if "\t" in text:
        text = text.expandtabs()
    if "\n" not in text and "\r" not in text:
        return text.strip() or None
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    first, _, rest = text.partition("\n")
    # Line by line (the text has no tabs or carriage returns left): three regular
    # expressions over the whole text cost more than one pass over its few lines.
    lines = rest.split("\n")
    lead = [len(line) - len(line.lstrip(" ")) for line in lines]
    # the common indentation of the lines with something on them (a space-only line has none)
    indent = min((n for line, n in zip(lines, lead) if n < len(line) and not line[n].isspace()), default=0)
    kept = [first.strip()]
    kept += [line[min(n, indent) :].rstrip(" ") for line, n in zip(lines, lead)]
    return "\n".join(kept).strip("\n") or None


def python_string_doc(literal: str) -> str | None:
    """The trimmed value of a Python string literal's source, if it can be a docstring."""
    match = _PY_STRING.match(literal)
    return trim(match.group(2)) if match else None


def python_docstring(body: Node, data: bytes) -> str | None:
    """The docstring of a Python ``block`` node: its first statement if that is a string."""
    found = python_docstring_node(body, data)
    return None if found is None else found[0]


def python_docstring_node(body: Node, data: bytes) -> tuple[str | None, int, int] | None:
    """``(docstring, start byte, end byte)`` of a Python ``block``'s docstring statement."""
    for i in range(body.named_child_count):
        child = body.named_child(i)
        if child is None or child.type == "comment":
            continue
        if child.type == "expression_statement":  # older grammars wrap the string
            node = child.named_child(0) if child.named_child_count else None
        else:
            node = child
        if node is None or node.type != "string":
            return None
        doc = python_string_doc(data[node.start_byte : node.end_byte].decode("utf-8", "replace"))
        return doc, child.start_byte, child.end_byte
    return None


def is_doc_comment(text: str, prefixes: tuple[str, ...]) -> bool:
    """Whether a comment is a doc comment (any comment when ``prefixes`` is empty).
    ``/***`` banners, ``/**/`` and ``////`` rulers are not."""
    if not prefixes:
        return True
    for prefix in prefixes:
        if text.startswith(prefix):
            following = text[len(prefix) : len(prefix) + 1]
            return not (prefix in ("/**", "///") and following in ("*", "/"))
    return False


_BLOCKS = (("/*", "*/"), ("<!--", "-->"), ("(*", "*)"), ("{-", "-}"), ("--[[", "]]"), ("=begin", "=end"), ("#=", "=#"))
_BLOCK_FIRST = frozenset(opener[0] for opener, _ in _BLOCKS)


def strip_comment(text: str) -> list[str]:
    """A comment's lines without comment markers."""
    body = None
    if text[:1] in _BLOCK_FIRST:  # most comments are line comments: no opener to try
        for opener, closer in _BLOCKS:
            if text.startswith(opener) and text.endswith(closer) and len(text) >= len(opener) + len(closer):
                body = text[len(opener) : len(text) - len(closer)]
                break
    if body is not None:
        body = body.lstrip("*!")
        return _BLOCK_STAR.sub("", body[1:] if body[:1] == " " else body).splitlines()  # `/** Doc`: one space
    return _LINE_MARKER.sub("", text).split("\n")


def comment_doc(comments: list[str]) -> str | None:
    """Join and clean a run of doc comments given in source order."""
    lines: list[str] = []
    for text in comments:
        lines.extend(strip_comment(text))
    return trim("\n" + "\n".join(lines)) if lines else None


#: A block comment is searched for at most this many lines up.
MAX_BLOCK_LINES = 400


class DocFinder:
    """Finds the doc comment above an item by reading the source lines above it.

    Reading text (instead of capturing every comment node, or walking siblings,
    which tree-sitter does slowly) costs a few slices per entity. The comment must
    start its own line; ``skip`` lines (Rust ``#[attributes]``) may sit between the
    comment and the item.
    """

    __slots__ = ("source", "data", "starts", "line", "block", "prefixes", "skip")

    def __init__(
        self,
        source: SourceText,
        syntax: CommentSyntax,
        prefixes: tuple[str, ...],
        skip: tuple[str, ...] = (),
    ):
        self.source = source
        # Read for every entity: looked up once (the line starts are made once per file anyway).
        self.data = source.data
        self.starts = source.line_starts
        self.line = syntax.line.encode() if syntax.line else None
        self.block = (syntax.block[0].encode(), syntax.block[1].encode()) if syntax.block else None
        self.prefixes = prefixes
        self.skip = tuple(p.encode() for p in skip)

    def doc_above(self, start: int, row: int | None = None) -> str | None:
        """The doc comment of the item starting at byte ``start`` (on line ``row``)."""
        found = self.doc_range_above(start, row)
        return None if found is None else found[0]

    def doc_range_above(self, start: int, row: int | None = None) -> tuple[str | None, int, int] | None:
        """``(doc, start byte, end byte)``: :meth:`doc_above` with where the comment sits
        (whole lines, line breaks included, for comments on lines of their own)."""
        data, starts = self.data, self.starts
        if row is None:
            row = bisect_right(starts, start) - 1
        line_start = starts[row]
        # Scan back over blanks only: copying the line up to the item would make a
        # minified one-line file quadratic.
        at = start
        while at > line_start and data[at - 1] in (32, 9):
            at -= 1
        block = self.block
        if at > line_start:  # code before the item on its line: only "/** doc */ item" counts
            if not block or not data.endswith(block[1], line_start, at):
                return None
            found = self._block_ending_at(data[line_start:at], line_start, row)
            return (comment_doc([found[0]]), found[1], at) if found else None
        texts: list[str] = []
        row -= 1
        last_row = first_at = -1
        comment, skip = self.line, self.skip
        while row >= 0:
            line = data[starts[row] : starts[row + 1]].strip()
            if not line:
                break
            if not texts and skip and line.startswith(skip):
                row -= 1
                continue
            if comment and line.startswith(comment) and not (block and line.startswith(block[0])):
                text = line.decode("utf-8", "replace")
                if not is_doc_comment(text, self.prefixes):
                    break
                texts.append(text)
                last_row = row if last_row < 0 else last_row
                first_at = starts[row]
                row -= 1
                continue
            if block and not texts and line.endswith(block[1]):
                found = self._block_ending_at(data[starts[row] : starts[row + 1]].rstrip(), starts[row], row)
                if found:
                    texts.append(found[0])
                    last_row, first_at = row, found[2]
            break
        if not texts:
            return None
        end = starts[last_row + 1] if last_row + 1 < len(starts) else len(data)
        return comment_doc(texts[::-1]), first_at, end

    def _block_ending_at(self, line: bytes, line_start: int, row: int) -> tuple[str, int, int] | None:
        """The block comment ending at the end of ``line`` (which starts at
        ``line_start``, on line ``row``), if it starts its own line and is a doc comment:
        its text, where it opens and where its first line starts."""
        assert self.block is not None
        opener, closer = self.block
        if not line.endswith(closer):
            return None
        data, starts = self.data, self.starts
        end = line_start + len(line)
        at = data.rfind(opener, starts[max(0, row - MAX_BLOCK_LINES)], end - len(closer))
        if at < 0:
            return None
        own_line = starts[bisect_right(starts, at) - 1]
        if data[own_line:at].strip():
            return None
        text = data[at:end].decode("utf-8", "replace")
        return (text, at, own_line) if is_doc_comment(text, self.prefixes) else None
