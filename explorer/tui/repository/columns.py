"""Columns of the repository view's lists, sized to what they hold and fitted to the width.

Each column is as wide as its header or its widest cell. When they do not all fit, the
least useful go first (each column says how useful it is: ``keep``, higher stays
longer); one elastic column (the path) takes the room left, down to its minimum, and
is cut at its start, where a path says the least.
"""

from __future__ import annotations

from dataclasses import dataclass

from explorer.engine.text import cell_width, char_cells


@dataclass(frozen=True, slots=True)
class Column:
    """A column: its name, width, how long it stays when room runs out, and its alignment."""

    name: str
    width: int
    keep: int
    right: bool = True
    #: An elastic column takes the room the others leave (at least ``width``, at most ``widest``).
    elastic: bool = False
    widest: int = 0
    #: The share of the room an elastic column takes at most (the rest goes to the last column).
    most: float = 1.0


def fitted(columns: list[Column], room: int) -> list[tuple[Column, int]]:
    """The columns that fit in ``room`` cells (one space between two), in their order, each
    with the width it gets."""
    kept = list(columns)

    def used(cols: list[Column]) -> int:
        return sum(c.width for c in cols) + max(0, len(cols) - 1)

    for column in sorted(columns, key=lambda c: c.keep):
        if used(kept) <= room:
            break
        if not column.elastic and len(kept) > 1:
            kept.remove(column)
    spare = max(0, room - used(kept))
    widths = []
    for column in kept:
        width = column.width
        if column.elastic:
            width = min(max(column.widest, column.width), column.width + spare, max(column.width, int(room * column.most)))
        widths.append((column, width))
    return widths


def cell(text: str, width: int, right: bool) -> str:
    """``text`` (printable) in ``width`` terminal cells: aligned, or cut with … when longer."""
    cells = cell_width(text)
    if cells > width:
        kept, used = [], 0
        for ch in text:
            if used + char_cells(ch) > width - 1:
                break
            kept.append(ch)
            used += char_cells(ch)
        return "".join(kept) + "…" + " " * (width - 1 - used) if width else ""
    pad = " " * (width - cells)
    return pad + text if right else text + pad


def tail(text: str, width: int) -> str:
    """``text`` (printable) in ``width`` cells, cut at its start (``…ting/rules.py``) when longer."""
    cells = cell_width(text)
    if cells <= width:
        return text + " " * (width - cells)
    kept: list[str] = []
    used = 0
    for ch in reversed(text):
        if used + char_cells(ch) > width - 1:
            break
        kept.append(ch)
        used += char_cells(ch)
    return " " * (width - 1 - used) + "…" + "".join(reversed(kept)) if width else ""
