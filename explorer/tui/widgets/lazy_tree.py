"""What the AST and scope panes share: a Tree filled as it is expanded, whose cursor
also follows the other panes without announcing it.

A node's children are added the first time it is expanded or picked (a subclass
says how, in :meth:`LazyTree.populate`, usually through a ``ChildWindow``); picking
a "… N more" row (a :class:`Gap`) grows its window. When the source cursor moves,
the pane puts its cursor on the same place with :meth:`LazyTree.move_quietly`:
that move is not announced back (the user did not make it), while the user's own
moves are, through :meth:`LazyTree.announce`.
"""

from __future__ import annotations

from collections import Counter
from typing import Generic, TypeVar

from rich.text import Text
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from .window import Gap

Data = TypeVar("Data")


class LazyTree(Tree[Data], Generic[Data]):
    """A Tree whose nodes get their children on first expansion, and quiet cursor moves."""

    def __init__(self, label: str | Text, *, id: str | None = None):
        super().__init__(label, id=id)
        self.auto_expand = False  # picking a node toggles it here, after adding its children
        # Cursor moves made for the caller, not by the user: not announced. Counted per
        # node, since several can be pending when the app is busy (teach mode playing fast).
        self.quiet_moves: Counter[int] = Counter()
        #: The root the cursor was put on when the tree was cleared (see :meth:`clear`).
        self.cleared_root: int | None = None

    def clear(self) -> LazyTree[Data]:
        """No nodes but the root. The old cursor row would otherwise highlight, and announce,
        whatever node of the new tree lands on it (opening a file would move the source cursor
        there): the cursor goes to the root, quietly."""
        super().clear()
        if self.cursor_line > 0:
            # The Tree may highlight the root more than once while it rebuilds its lines:
            # every highlight of it is quiet until the cursor is elsewhere.
            self.cleared_root = self.root.id
            self.cursor_line = 0
        return self

    # -- for subclasses ---------------------------------------------------------------------
    def populate(self, node: TreeNode[Data]) -> None:
        """Add ``node``'s (first window of) children, once."""
        raise NotImplementedError

    def announce(self, node: TreeNode[Data]) -> None:
        """The user moved the cursor to ``node``: post what the other panes need."""

    # -- the shared handlers ----------------------------------------------------------------
    def on_tree_node_expanded(self, event: Tree.NodeExpanded[Data]) -> None:
        event.stop()
        self.populate(event.node)

    def on_tree_node_selected(self, event: Tree.NodeSelected[Data]) -> None:
        event.stop()
        node = event.node
        if isinstance(node.data, Gap):
            node.data.window.grow(node.data.side)
            return
        if node.allow_expand:
            self.populate(node)
            node.toggle()

    def on_tree_node_highlighted(self, event: Tree.NodeHighlighted[Data]) -> None:
        event.stop()
        if event.node.id == self.cleared_root:
            return
        self.cleared_root = None
        if self.quiet_moves[event.node.id] > 0:
            self.quiet_moves[event.node.id] -= 1
            return
        self.announce(event.node)

    # -- following the other panes ------------------------------------------------------------
    def move_quietly(self, node: TreeNode[Data]) -> None:
        """Put the cursor on ``node`` (shown) and scroll to it, without announcing it."""
        if node.line < 0:
            return
        if node.line != self.cursor_line:
            self.quiet_moves[node.id] += 1
        self.move_cursor(node)
        self.scroll_to_node(node, animate=False)
