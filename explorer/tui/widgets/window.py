"""A window over the children of a tree node: only a slice of them is added to the Tree.

A Textual ``Tree`` re-measures every added node whenever it changes, so a node
with 7,000 children (the top level of a big file) must not have them all added.
A :class:`ChildWindow` adds children ``[lo, hi)`` and stands the others behind
"… N more" rows; picking such a row grows the window, and jumping to a far child
moves it there.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from rich.style import Style
from rich.text import Text
from textual.widgets.tree import TreeNode

GAP_STYLE = Style(dim=True, italic=True)

#: Adds child ``index`` under ``parent`` (``before``: the sibling to insert it before).
AddChild = Callable[[TreeNode, int, "TreeNode | None"], TreeNode]


@dataclass(eq=False)
class Gap:
    """The row standing for children not added, before or after the window."""

    window: ChildWindow
    side: str  # "before" or "after"


class ChildWindow:
    """Which children of one tree node are added, and their tree nodes by index."""

    def __init__(self, parent: TreeNode, count: int, add_child: AddChild, batch: int = 200):
        self.parent = parent
        self.count = count
        self.add_child = add_child
        self.batch = batch
        self.lo = self.hi = 0
        self.nodes: dict[int, TreeNode] = {}
        self._before: TreeNode | None = None
        self._after: TreeNode | None = None

    def open(self, start: int = 0) -> None:
        """Add a slice of children from ``start``, removing any slice added before
        (rows the window did not add, such as a heading row, stay)."""
        for node in [*self.nodes.values(), self._before, self._after]:
            if node is not None:
                node.remove()
        self.nodes.clear()
        self._before = self._after = None
        self.lo = self.hi = max(0, min(start, self.count))
        self._extend_after(self.batch)

    def ensure(self, index: int) -> TreeNode | None:
        """The tree node of child ``index``, growing or moving the window to include it."""
        if not 0 <= index < self.count:
            return None
        if index >= self.hi and index < self.hi + self.batch:
            self._extend_after(index + 1 - self.hi + self.batch // 2)
        elif index < self.lo and index >= self.lo - self.batch:
            self._extend_before(self.lo - index + self.batch // 2)
        elif not self.lo <= index < self.hi:
            self.open(max(0, index - self.batch // 4))
        return self.nodes.get(index)

    def grow(self, side: str) -> None:
        if side == "after":
            self._extend_after(self.batch)
        else:
            self._extend_before(self.batch)

    def _extend_after(self, amount: int) -> None:
        if self._after is not None:
            self._after.remove()
            self._after = None
        stop = min(self.count, self.hi + amount)
        for index in range(self.hi, stop):
            self.nodes[index] = self.add_child(self.parent, index, None)
        self.hi = stop
        if self.hi < self.count:
            self._after = self.parent.add_leaf(self._gap_label(self.count - self.hi, "more"), Gap(self, "after"))
        if self.lo > 0 and self._before is None:
            self._add_before_gap()

    def _extend_before(self, amount: int) -> None:
        start = max(0, self.lo - amount)
        first = self.nodes.get(self.lo)
        for index in range(self.lo - 1, start - 1, -1):
            first = self.nodes[index] = self.add_child(self.parent, index, first)
        self.lo = start
        if self._before is not None:
            self._before.remove()
            self._before = None
        if self.lo > 0:
            self._add_before_gap()

    def _add_before_gap(self) -> None:
        first = self.nodes.get(self.lo)
        label = self._gap_label(self.lo, "earlier")
        if first is not None:
            self._before = self.parent.add_leaf(label, Gap(self, "before"), before=first)
        else:
            self._before = self.parent.add_leaf(label, Gap(self, "before"))

    @staticmethod
    def _gap_label(count: int, word: str) -> Text:
        return Text(f"… {count} {word} (enter to show)", style=GAP_STYLE)
