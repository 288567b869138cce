"""Docstrings: Python's first-statement strings and doc comments directly above an item.

Python: the first statement of the body, if it is a string literal (any quote
style, prefixes ``r``/``u`` allowed, ``b``/``f`` not), trimmed per PEP 257:
blank edge lines dropped, the common indentation of the lines after the first
removed. Escapes are left as written.

Comment docs: the run of comments that ends on the line right above the item
(or on the item's own line, before it), each starting its own line, with no
blank line anywhere in the run and nothing but whitespace or "skip" nodes (Rust
attributes) between. The first comment up must be a doc comment for the
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

from ..text import SourceText

_PY_STRING = re.compile(r"""^[rRuU]?("{3}|'{3}|"|')(.*)\1$""", re.S)
_LINE_MARKER = re.compile(r"^(?://[/!]?|#+|--+|;+|%+)[ ]?")
_NEWLINES = re.compile(rb"\r\n|\r|\n")


def trim(text: str) -> str | None:
    """PEP 257 docstring trimming; ``None`` for an empty result."""
    lines = text.expandtabs().splitlines()
    if not lines:
        return None
    indent = min(
        (len(line) - len(line.lstrip()) for line in lines[1:] if line.strip()),
        default=0,
    )
    out = [lines[0].strip()] + [line[indent:].rstrip() for line in lines[1:]]
    while out and not out[-1]:
        out.pop()
    while out and not out[0]:
        out.pop(0)
    return "\n".join(out) or None


def python_string_doc(literal: str) -> str | None:
    """The trimmed value of a Python string literal's source, if it can be a docstring."""
    match = _PY_STRING.match(literal)
    return trim(match.group(2)) if match else None


def python_docstring(body, data: bytes) -> str | None:
    """The docstring of a Python ``block`` node: its first statement if that is a string."""
    for child in body.named_children:
        if child.type == "comment":
            continue
        node = child.named_child(0) if child.type == "expression_statement" else child
        if node is None or node.type != "string":
            return None
        return python_string_doc(data[node.start_byte : node.end_byte].decode("utf-8", "replace"))
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


def strip_comment(text: str) -> list[str]:
    """A comment's lines without comment markers."""
    if text.startswith("/*"):
        body = text[2:-2] if text.endswith("*/") and len(text) >= 4 else text[2:]
        body = body.lstrip("*!")
        lines = []
        for line in body.splitlines():
            stripped = line.lstrip()
            if stripped.startswith("*"):
                stripped = stripped[1:]
                line = stripped[1:] if stripped.startswith(" ") else stripped
            lines.append(line.rstrip())
        return lines
    return [_LINE_MARKER.sub("", line.strip(), count=1).rstrip() for line in text.splitlines()]


def comment_doc(comments: list[str]) -> str | None:
    """Join and clean a run of doc comments given in source order."""
    lines: list[str] = []
    for text in comments:
        lines.extend(strip_comment(text))
    return trim("\n" + "\n".join(lines)) if lines else None


class CommentIndex:
    """Comments (and skip nodes) of a file, for finding the doc comment above an item
    with a binary search instead of walking siblings (which is slow in tree-sitter)."""

    __slots__ = ("source", "items", "ends", "prefixes")

    def __init__(self, source: SourceText, items: list[tuple[int, int, bool]], prefixes: tuple[str, ...]):
        items.sort()
        self.source = source
        self.items = items  # (start, end, is_comment), sorted and disjoint
        self.ends = [end for _, end, _ in items]
        self.prefixes = prefixes

    def doc_above(self, start: int) -> str | None:
        data = self.source.data
        texts: list[str] = []
        pos = start
        i = bisect_right(self.ends, start) - 1
        while i >= 0:
            c_start, c_end, is_comment = self.items[i]
            gap = data[c_end:pos]
            # some grammars end a line comment after its newline: count that one too
            newlines = len(_NEWLINES.findall(gap)) + (data[c_end - 1 : c_end] in (b"\n", b"\r"))
            if gap.strip() or newlines > 1:
                break
            if is_comment:
                if not self._starts_line(c_start):
                    break
                text = data[c_start:c_end].decode("utf-8", "replace").strip()
                if not is_doc_comment(text, self.prefixes):
                    break
                texts.append(text)
            pos = c_start
            i -= 1
        return comment_doc(texts[::-1]) if texts else None

    def _starts_line(self, offset: int) -> bool:
        line_start = self.source.line_starts[self.source.line_of(offset)]
        return not self.source.data[line_start:offset].strip()
