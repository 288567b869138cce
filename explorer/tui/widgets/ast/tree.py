"""The syntax tree pane: tree-sitter nodes, loaded lazily as they are expanded.

A 50,000-line file has half a million nodes; adding them eagerly blocks for
seconds. Children are added when their parent is expanded, at most ``BATCH``
at a time, with a "more" row for the rest.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rich.style import Style
from rich.text import Text
from textual.binding import Binding
from textual.widgets import Tree
from textual.widgets.tree import TreeNode
from tree_sitter import Node, TreeCursor

from explorer.engine.parse import ParsedFile

from ...messages import AstNodeSelected
from .labels import node_label


@dataclass
class AstEntry:
    node: Node
    field_name: str | None
    #: Positioned on the next child to add; None once all children are added.
    cursor: TreeCursor | None = None
    loaded: bool = False
    more: TreeNode | None = field(default=None, repr=False)


@dataclass
class MoreEntry:
    """The "N more" row standing for children not added yet."""

    parent: TreeNode


class AstTree(Tree[AstEntry | MoreEntry]):
    """The tree-sitter tree of the open file, in the playground's notation."""

    BATCH = 500

    BINDINGS = [
        Binding("a", "toggle_anonymous", "Anonymous nodes", id="ast.toggle_anonymous",
                tooltip="Show or hide anonymous nodes (punctuation, keywords)"),
        Binding("j", "cursor_down", "Down", show=False),
        Binding("k", "cursor_up", "Up", show=False),
        Binding("h", "collapse_or_parent", "Collapse", show=False),
        Binding("l", "expand_node", "Expand", show=False),
        Binding("g", "scroll_home", "First", show=False),
        Binding("G", "scroll_end", "Last", show=False),
    ]

    def __init__(self, *, id: str | None = None):
        super().__init__(Text("no file open", style=Style(dim=True)), id=id)
        self.show_root = True
        self.auto_expand = False
        self.guide_depth = 2
        self.show_anonymous = False
        self.parsed: ParsedFile | None = None
        self.limit = 1500
        self.unit = "nws"
        self._by_id: dict[int, TreeNode] = {}
        self._silent: TreeNode | None = None

    # -- state in -------------------------------------------------------------------------
    def show_file(self, parsed: ParsedFile | None, limit: int, unit: str) -> None:
        self.parsed = parsed
        self.limit, self.unit = limit, unit
        self._by_id.clear()
        self._silent = None
        root = parsed.root if parsed is not None else None
        if parsed is None or root is None:
            why = parsed.fallback if parsed is not None else "no file open"
            self.reset(Text(f"no syntax tree ({why})", style=Style(dim=True, italic=True)), None)
            self.root.allow_expand = False
            return
        self.reset(self._label(root, None), AstEntry(root, None))
        self._by_id[root.id] = self.root
        self._populate(self.root)
        self.root.expand()

    def set_limit(self, limit: int, unit: str) -> None:
        """Relabel loaded nodes for a new size limit or unit."""
        if (limit, unit) == (self.limit, self.unit):
            return
        self.limit, self.unit = limit, unit
        for tree_node in list(self._by_id.values()):
            entry = tree_node.data
            if isinstance(entry, AstEntry):
                tree_node.set_label(self._label(entry.node, entry.field_name))

    def _label(self, node: Node, field_name: str | None) -> Text:
        assert self.parsed is not None
        return node_label(node, field_name, self.parsed.source, self.limit, self.unit)

    # -- lazy loading -----------------------------------------------------------------------
    def _populate(self, tree_node: TreeNode) -> None:
        """Add the first batch of a node's children (once)."""
        entry = tree_node.data
        if not isinstance(entry, AstEntry) or entry.loaded:
            return
        entry.loaded = True
        cursor = entry.node.walk()
        entry.cursor = cursor if cursor.goto_first_child() else None
        self._add_batch(tree_node)

    def _add_batch(self, tree_node: TreeNode) -> None:
        entry = tree_node.data
        assert isinstance(entry, AstEntry)
        if entry.more is not None:
            entry.more.remove()
            entry.more = None
        cursor = entry.cursor
        added = 0
        while cursor is not None and added < self.BATCH:
            node = cursor.node
            if node is not None and (self.show_anonymous or node.is_named):
                child = tree_node.add(
                    self._label(node, cursor.field_name),
                    AstEntry(node, cursor.field_name),
                    allow_expand=(node.child_count if self.show_anonymous else node.named_child_count) > 0,
                )
                self._by_id[node.id] = child
                added += 1
            if not cursor.goto_next_sibling():
                cursor = None
        entry.cursor = cursor
        if cursor is not None:
            remaining = _remaining(cursor, self.show_anonymous)
            entry.more = tree_node.add_leaf(
                Text(f"… {remaining} more (enter to load)", style=Style(dim=True, italic=True)),
                MoreEntry(tree_node),
            )

    def on_tree_node_expanded(self, event: Tree.NodeExpanded) -> None:
        event.stop()
        self._populate(event.node)

    def on_tree_node_selected(self, event: Tree.NodeSelected) -> None:
        event.stop()
        entry = event.node.data
        if isinstance(entry, MoreEntry):
            self._add_batch(entry.parent)
            return
        node = event.node
        if node.allow_expand:
            self._populate(node)
            node.toggle()

    def on_tree_node_highlighted(self, event: Tree.NodeHighlighted) -> None:
        event.stop()
        if event.node is self._silent:
            self._silent = None
            return
        entry = event.node.data
        if isinstance(entry, AstEntry):
            self.post_message(AstNodeSelected(entry.node.start_byte, entry.node.end_byte))

    def action_toggle_anonymous(self) -> None:
        self.show_anonymous = not self.show_anonymous
        target = self.cursor_node.data if self.cursor_node is not None else None
        self.show_file(self.parsed, self.limit, self.unit)
        if isinstance(target, AstEntry):
            self.reveal(target.node.start_byte)
        self.notify(f"Anonymous nodes {'shown' if self.show_anonymous else 'hidden'}", timeout=2)

    def action_collapse_or_parent(self) -> None:
        node = self.cursor_node
        if node is None:
            return
        if node.is_expanded:
            node.collapse()
        elif node.parent is not None:
            self.move_cursor(node.parent)

    def action_expand_node(self) -> None:
        node = self.cursor_node
        if node is not None and node.allow_expand:
            self._populate(node)
            node.expand()

    # -- following the source cursor ---------------------------------------------------------
    def reveal(self, byte: int) -> None:
        """Expand down to the innermost node at a byte offset and put the cursor on it,
        without announcing it (the source already shows that place)."""
        if self.parsed is None or self.parsed.root is None:
            return
        root = self.parsed.root
        if self.show_anonymous:
            target = root.descendant_for_byte_range(byte, byte)
        else:
            target = root.named_descendant_for_byte_range(byte, byte)
        self.reveal_node(target)

    def reveal_node(self, target: Node | None) -> None:
        """Expand down to a syntax node and put the cursor on it quietly (its nearest
        shown ancestor when it is hidden, e.g. an anonymous node)."""
        if self.parsed is None or self.parsed.root is None or target is None:
            return
        chain: list[Node] = []
        node = target
        while node is not None:
            chain.append(node)
            node = node.parent
        chain.reverse()
        tree_node = self.root
        for ts_node in chain[1:]:
            self._populate(tree_node)
            if not tree_node.is_expanded:
                tree_node.expand()
            child = self._by_id.get(ts_node.id)
            entry = tree_node.data
            while child is None and isinstance(entry, AstEntry) and entry.cursor is not None:
                self._add_batch(tree_node)
                child = self._by_id.get(ts_node.id)
            if child is None:
                break
            tree_node = child
        self.call_after_refresh(self._move_silently, tree_node)

    def _move_silently(self, tree_node: TreeNode) -> None:
        if tree_node.line < 0:
            return
        if tree_node.line != self.cursor_line:
            self._silent = tree_node
        self.move_cursor(tree_node)
        self.scroll_to_node(tree_node, animate=False)


def _remaining(cursor: TreeCursor, anonymous: bool) -> int:
    probe = cursor.copy()
    count = 0
    while True:
        node = probe.node
        if node is not None and (anonymous or node.is_named):
            count += 1
        if not probe.goto_next_sibling():
            return count
