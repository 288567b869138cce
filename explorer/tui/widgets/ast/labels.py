"""Labels for syntax nodes, in the tree-sitter playground's form plus what chunking needs.

``field: type L:C-L:C  bytes a-b  nws n/limit``: the first and last character's
line and column, 1-based as in editors and everywhere else in the explorer (the
tree-sitter playground's 0-based ``[row, col]`` points are not shown); columns
count characters, not bytes.
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from tree_sitter import Node

from explorer.display import count_text
from explorer.engine.text import SourceText, display_line

FIELD = Style(color="#9cdcfe")
NAMED = Style(bold=True)
ANONYMOUS = Style(dim=True)
ERROR = Style(color="#ff5f5f", bold=True)
POSITION = Style(dim=True)
SIZE = Style(color="#8a8a8a")
OVER = Style(color="#ff875f", bold=True)


def point(source: SourceText, byte: int) -> tuple[int, int]:
    """0-based (row, character column) of a byte offset."""
    row = max(0, source.line_of(byte))
    return row, source.char_offset(byte) - source.char_offset(source.line_starts[row])


def place_text(source: SourceText, start: int, end: int) -> str:
    """``3:5-7:1``: 1-based line:column of the first and the last character of ``[start, end)``
    that is not whitespace (the lines teach's sentences name: :meth:`SourceText.shown_line_range`)."""
    start, end = source.content_range(start, end)
    (r1, c1), (r2, c2) = point(source, start), point(source, max(start, end - 1))
    return f"{r1 + 1}:{c1 + 1}-{r2 + 1}:{c2 + 1}"


def node_name(node: Node, field: str | None) -> Text:
    """``field: type``: what a node is. A ``Text``, because node types such as ``[`` must
    never be read as markup."""
    text = Text(no_wrap=True, overflow="ellipsis")
    if field:
        text.append(f"{field}: ", FIELD)
    if node.is_error:
        text.append("ERROR", ERROR)
    elif node.is_missing:
        text.append(f"MISSING {_safe(node.type)}", ERROR)
    elif node.is_named:
        text.append(_safe(node.type), NAMED)
    else:
        text.append(f'"{_safe(node.type)}"', ANONYMOUS)
    return text


def place_parts(node: Node, source: SourceText) -> tuple[str, str]:
    """`` L:C-L:C`` and ``  bytes start-end``: where a node is, as its label writes it."""
    start, end = node.start_byte, node.end_byte
    return f" {place_text(source, start, end)}", f"  bytes {start:,}-{end:,}"


def node_place(node: Node, field: str | None, source: SourceText) -> Text:
    """``field: type L:C-L:C  bytes start-end``: the part of a label that never changes."""
    text = node_name(node, field)
    place, span = place_parts(node, source)
    text.append(place, POSITION)
    text.append(span, SIZE)
    return text


def size_parts(node: Node, size: int, limit: int, unit: str) -> list[tuple[str, Style]]:
    """What follows a node's place in its label: its size against the limit (and ``!``
    over subtrees with errors), as styled pieces."""
    parts = [(f"  {count_text(size)}/{count_text(limit)} {unit}", OVER if size > limit else SIZE)]
    if node.has_error and not (node.is_error or node.is_missing):
        parts.append(("  !", ERROR))
    return parts


def fitted_label(prefix: Text, node: Node, field: str | None, source: SourceText, size: Text, room: int) -> Text:
    """A node's label in ``room`` cells with no number cut: the byte span goes first, then
    the place; then the name is shortened with ``…``; the size against the limit stays
    whole (it is what chunking is about)."""
    place, span = place_parts(node, source)
    name = node_name(node, field)
    for parts in ((place, span), (place,), ()):
        used = prefix.cell_len + name.cell_len + sum(cell_len(p) for p in parts) + size.cell_len
        if used <= room:
            text = prefix.copy()
            text.append_text(name)
            for part, style in zip(parts, (POSITION, SIZE)):
                text.append(part, style)
            text.append_text(size)
            return text
    text = prefix.copy()
    keep = room - prefix.cell_len - size.cell_len
    if keep >= 2:
        name.truncate(keep, overflow="ellipsis")
        text.append_text(name)
    text.append_text(size)
    return text


def _safe(value: str) -> str:
    return value if value.isprintable() else display_line(value)[0]
