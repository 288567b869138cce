"""Fenced code blocks of Markdown (``` or ~~~ with a language tag), as regions."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..languages import tag_language
from .region import RegionSpec, line_aligned

if TYPE_CHECKING:
    from tree_sitter import Node

#: Blocks nest inside these (lists, block quotes, sections): the search descends into them only.
_BLOCK_PARENTS = frozenset({"document", "section", "list", "list_item", "block_quote"})


def fenced_blocks(root: Node, data: bytes) -> list[RegionSpec]:
    """Fenced blocks with a tag naming a language. A block without a tag is prose to us;
    a tag naming no grammar (``console``, ``text``) gives a region chunked by lines."""
    found: list[RegionSpec] = []
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type == "fenced_code_block":
            spec = _block(node, data)
            if spec is not None:
                found.append(spec)
        elif node.type in _BLOCK_PARENTS:
            stack.extend(reversed(node.children))
    return found


def _block(node: Node, data: bytes) -> RegionSpec | None:
    info = content = None
    closer = 0
    for child in node.children:
        if child.type == "info_string":
            info = child
        elif child.type == "code_fence_content":
            content = child
        elif child.type == "fenced_code_block_delimiter" and content is not None:
            closer = child.end_byte
    closed = closer > 0
    if info is None or content is None:
        return None
    tag = data[info.start_byte : info.end_byte].decode("utf-8", "replace")
    # Inside a block quote or a list, each line starts with the container's markers or
    # indentation (block_continuation nodes): the code's parser skips them (holes).
    holes = [
        (child.start_byte, child.end_byte)
        for child in content.children
        if child.type == "block_continuation" and child.end_byte > child.start_byte
    ]
    start, end = content.start_byte, content.end_byte
    line_start = data.rfind(b"\n", 0, start) + 1
    if line_start > info.end_byte and line_start < start:  # the first line's markers, as a hole
        holes.insert(0, (line_start, start))
        start = line_start
    while holes and holes[-1][1] >= end:  # the closing fence's markers are not the code's
        end = min(end, holes.pop()[0])
    start, end = line_aligned(data, start, end)
    if not data[start:end].strip():
        return None
    language = tag_language(tag)
    word = tag.split(maxsplit=1)[0] if tag.split() else tag
    label = f"```{word}"
    notes = []
    if not closed:
        notes.append("unclosed fence: the block runs to the end of its container, as CommonMark reads it")
    if language is None:
        notes.append(f"no grammar for {word!r}: chunked by lines")
    kept = tuple(hole for hole in holes if start <= hole[0] < end)
    return RegionSpec(start, end, language, label, "; ".join(notes) or None, kept, closer)
