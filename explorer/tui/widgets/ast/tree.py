"""The syntax tree pane: tree-sitter nodes, loaded lazily as they are expanded.

A 50,000-line file has half a million nodes; adding them eagerly blocks for
seconds, and a Textual Tree re-measures all it holds on every change. So a
node's children are added when it is expanded, and only a window of them
(see :class:`ChildWindow`) when there are many.

Depth is bounded too: Textual's Tree builds its lines recursively (about 1,500
levels overflow the stack) and copies each line's path (quadratic in depth), so
the pane shows at most ``MAX_DEPTH`` levels below its top node. Going deeper
(following the cursor, expanding a node at the last level) moves the top down;
``h`` on the top node moves it back up.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual.binding import Binding
from textual.message import Message
from textual.widgets.tree import TreeNode
from tree_sitter import Node

from explorer.display import plural
from explorer.engine.options import ChunkOptions
from explorer.engine.parse import ParsedFile
from explorer.engine.sizing import Measure
from explorer.terminal_text import visible

from ..lazy_tree import LazyTree
from ..window import ChildWindow, Gap
from .labels import fitted_label, node_place, size_parts

#: Levels shown below the pane's top node; a deeper node moves the top down to it.
MAX_DEPTH = 60
#: When the top moves, the node sought ends up this many levels below the new top.
TOP_MARGIN = MAX_DEPTH // 2


@dataclass(eq=False)
class AstEntry:
    node: Node
    field_name: str | None
    #: Levels below the pane's top node.
    depth: int = 0
    #: The fixed part of the label (the size part follows the limit).
    place: Text | None = field(default=None, repr=False)
    #: The node's size, and the measure it was measured with.
    size: tuple[Measure, int] | None = field(default=None, repr=False)
    window: ChildWindow | None = field(default=None, repr=False)
    #: Children shown (named ones, or all) and their start bytes, fetched on first expansion.
    children: list[Node] | None = field(default=None, repr=False)
    starts: list[int] | None = field(default=None, repr=False)


@dataclass(eq=False)
class RegionsEntry:
    """The top of a container file's tree (Markdown, a component, a notebook): one line per
    region (a code block, a script, a cell, the text between), each opening into the tree its
    own grammar gave it."""

    window: ChildWindow | None = field(default=None, repr=False)


class AstTree(LazyTree[AstEntry | RegionsEntry | Gap]):
    """The tree-sitter tree of the open file, in the playground's notation.

    A node's label holds the part that never changes (type, field, place); its
    size against the limit is added when the line is drawn, so a new limit
    costs one repaint of the visible lines, not a relabel of every added node.
    """

    BINDING_GROUP_TITLE = "AST"

    BATCH = 100

    #: The syntax node shown as the tree's root (the file's root unless the file is deeply
    #: nested) and how many levels lie above it. (Class defaults: Tree.__init__ draws labels.)
    top: Node | None = None
    levels_above = 0

    BINDINGS = [
        Binding("a", "toggle_anonymous", "Anonymous nodes", id="ast.toggle_anonymous",
                tooltip="Show or hide anonymous nodes (punctuation, keywords)"),
        Binding("j", "cursor_down", "Down", show=False, id="ast.cursor_down"),
        Binding("k", "cursor_up", "Up", show=False, id="ast.cursor_up"),
        Binding("h", "collapse_or_parent", "Collapse", show=False, id="ast.collapse_or_parent"),
        Binding("l", "expand_node", "Expand", show=False, id="ast.expand_node"),
        Binding("g", "scroll_home", "First", show=False, id="ast.scroll_home"),
        Binding("G", "scroll_end", "Last", show=False, id="ast.scroll_end"),
    ]

    # (Not ``NodeSelected``: that is the Tree's own message, which this class must not hide.)
    @dataclass
    class SyntaxNodeSelected(Message):
        """The user moved the cursor to a syntax node (its byte range, end exclusive)."""

        start_byte: int
        end_byte: int

    @dataclass
    class AnonymousNodesToggled(Message):
        """The pane now shows (or hides) anonymous nodes."""

        shown: bool

    def __init__(self, *, id: str | None = None):
        super().__init__(Text("no file open", style=Style(dim=True)), id=id)
        self.show_root = True
        self.guide_depth = 2
        self.show_anonymous = False
        self.parsed: ParsedFile | None = None
        self.limit = 1500
        self.measure = ChunkOptions().measure
        self.unit = self.measure.unit

    # -- state in -------------------------------------------------------------------------
    def show_file(self, parsed: ParsedFile | None, limit: int, measure: Measure) -> None:
        self.parsed = parsed
        self.limit, self.measure, self.unit = limit, measure, measure.unit
        root = parsed.root if parsed is not None else None
        if parsed is not None and parsed.regions:
            self._show_regions(parsed)
            return
        if parsed is None or root is None:
            self.quiet_moves.clear()
            self.top, self.levels_above = None, 0
            why = parsed.fallback if parsed is not None else "no file open"
            self.reset(Text(f"no syntax tree ({why})", style=Style(dim=True, italic=True)), None)
            self.root.allow_expand = False
            return
        self._show_from(root, 0)

    def _show_regions(self, parsed: ParsedFile) -> None:
        self.quiet_moves.clear()
        self.top, self.levels_above = None, 0
        count = len(parsed.regions)
        self.reset(Text(f"{plural(count, 'region')}, each parsed by its own grammar"), RegionsEntry())
        self.root.allow_expand = True
        self.populate(self.root)
        self.root.expand()

    def _region_line(self, index: int) -> tuple[Text, AstEntry | None, bool]:
        """The label of a region's line, its tree's root entry (None: no tree), and whether it opens."""
        assert self.parsed is not None
        region = self.parsed.regions[index]
        what = visible(f"{region.label} · {region.language or 'text'}")
        root = region.parsed.root
        if root is None:
            why = visible(region.note or region.parsed.fallback or "no tree")
            return Text.assemble((what, Style(bold=True)), (f"  no syntax tree ({why})", Style(dim=True, italic=True))), None, False
        entry = AstEntry(root, None, 1)
        entry.place = Text.assemble((what, Style(bold=True)), "  ", node_place(root, None, self.parsed.source))
        count = root.child_count if self.show_anonymous else root.named_child_count
        return entry.place, entry, count > 0

    def _show_from(self, top: Node, levels_above: int) -> None:
        """Show the tree from ``top`` down (``levels_above``: its depth in the file)."""
        self.quiet_moves.clear()
        self.top, self.levels_above = top, levels_above
        entry = AstEntry(top, None)
        self.reset(self._place(entry), entry)
        self.root.allow_expand = True
        self.populate(self.root)
        self.root.expand()

    def set_limit(self, limit: int, measure: Measure) -> None:
        """Show sizes against a new limit or in a new unit."""
        if (limit, measure) == (self.limit, self.measure):
            return
        self.limit, self.measure, self.unit = limit, measure, measure.unit
        # Labels are drawn with the limit (render_label). Every cached line is keyed by the
        # update counts of the nodes on its path, the root's included: refreshing the root
        # retires them all, then one repaint draws the visible lines. (TreeNode.set_label on
        # every added node would schedule one refresh per node.)
        self.root.refresh()
        self.refresh()

    def _place(self, entry: AstEntry) -> Text:
        assert self.parsed is not None
        if entry.place is None:
            entry.place = node_place(entry.node, entry.field_name, self.parsed.source)
        return entry.place

    def _node_size(self, entry: AstEntry) -> int:
        assert self.parsed is not None
        if entry.size is None or entry.size[0] is not self.measure:
            node = entry.node
            entry.size = (self.measure, self.measure.size(self.parsed.source, node.start_byte, node.end_byte))
        return entry.size[1]

    def render_label(self, node: TreeNode, base_style: Style, style: Style) -> Text:
        label = super().render_label(node, base_style, style)
        entry = node.data
        if isinstance(entry, AstEntry) and self.parsed is not None:
            size = Text.assemble(*size_parts(entry.node, self._node_size(entry), self.limit, self.unit))
            size.stylize(style)
            room = self._room(node)
            if room is not None and label.cell_len + size.cell_len > room:
                # Too wide for the pane: parts give way whole, so no number is shown cut.
                prefix = label[:self._icon_cells(node)]
                label = fitted_label(prefix, entry.node, entry.field_name, self.parsed.source, size, room)
                label.stylize(style, prefix.cell_len)
                return label
            label.append_text(size)
        if node.is_root and self.levels_above:
            label.append(self._above_note(), Style(dim=True, italic=True))
        return label

    def _icon_cells(self, node: TreeNode) -> int:
        return cell_len(self.ICON_NODE_EXPANDED if node.is_expanded else self.ICON_NODE) if node.allow_expand else 0

    def _room(self, node: TreeNode) -> int | None:
        """The cells a node's label has in the pane (None before the pane has a size): its
        width less the guides of the levels above the node."""
        width = self.scrollable_content_region.width
        if width <= 0:
            return None
        depth, parent = 0, node.parent
        while parent is not None:
            depth, parent = depth + 1, parent.parent
        if not self.show_root:
            depth -= 1
        return max(1, width - depth * self.guide_depth)

    def _above_note(self) -> str:
        return f"  ({self.levels_above} levels above: h)"

    def get_label_width(self, node: TreeNode) -> int:
        entry = node.data
        if not isinstance(entry, AstEntry) or self.parsed is None:
            return super().get_label_width(node)
        suffix = size_parts(entry.node, self._node_size(entry), self.limit, self.unit)
        above = len(self._above_note()) if node.is_root and self.levels_above else 0
        full = self._icon_cells(node) + self._place(entry).cell_len + sum(cell_len(part) for part, _ in suffix) + above
        room = self._room(node)
        return full if room is None else min(full, room)  # a label wider than the pane is fitted to it

    # -- lazy loading -----------------------------------------------------------------------
    def _children_of(self, entry: AstEntry) -> list[Node]:
        if entry.children is None:
            node = entry.node
            entry.children = list(node.children if self.show_anonymous else node.named_children)
            entry.starts = [child.start_byte for child in entry.children]
        return entry.children

    def _field_of(self, parent: Node, child: Node, index: int) -> str | None:
        if self.show_anonymous:
            return parent.field_name_for_child(index)
        return parent.field_name_for_named_child(index)

    def populate(self, tree_node: TreeNode) -> None:
        """Add the first window of a node's children (once)."""
        entry = tree_node.data
        if isinstance(entry, RegionsEntry) and entry.window is None and self.parsed is not None:
            def add_region(parent: TreeNode, index: int, before: TreeNode | None) -> TreeNode:
                label, region_entry, opens = self._region_line(index)
                return parent.add(label, region_entry, before=before, allow_expand=opens)

            entry.window = ChildWindow(tree_node, len(self.parsed.regions), add_region, self.BATCH)
            entry.window.open()
            return
        if not isinstance(entry, AstEntry) or entry.window is not None:
            return
        if entry.depth >= MAX_DEPTH:
            # One level more than the pane shows: move its top down instead.
            self.call_later(self._go_below, entry.node)
            return
        children = self._children_of(entry)

        def add_child(parent: TreeNode, index: int, before: TreeNode | None) -> TreeNode:
            child = children[index]
            field_name = self._field_of(entry.node, child, index)
            grandchildren = child.child_count if self.show_anonymous else child.named_child_count
            child_entry = AstEntry(child, field_name, entry.depth + 1)
            return parent.add(self._place(child_entry), child_entry, before=before, allow_expand=grandchildren > 0)

        entry.window = ChildWindow(tree_node, len(children), add_child, self.BATCH)
        entry.window.open()

    def announce(self, node: TreeNode) -> None:
        entry = node.data
        if isinstance(entry, AstEntry):
            self.post_message(self.SyntaxNodeSelected(entry.node.start_byte, entry.node.end_byte))

    def action_toggle_anonymous(self) -> None:
        self.show_anonymous = not self.show_anonymous
        target = self.cursor_node.data if self.cursor_node is not None else None
        self.show_file(self.parsed, self.limit, self.measure)
        if isinstance(target, AstEntry):
            self.reveal(target.node.start_byte)
        self.post_message(self.AnonymousNodesToggled(self.show_anonymous))

    def action_collapse_or_parent(self) -> None:
        node = self.cursor_node
        if node is None:
            return
        if node.is_root and self.levels_above and self.top is not None:
            self._go_above(self.top)  # the pane's top, not the file's: show the levels above
        elif node.is_expanded:
            node.collapse()
        elif node.parent is not None:
            self.move_cursor(node.parent)

    def action_expand_node(self) -> None:
        node = self.cursor_node
        if node is not None and node.allow_expand:
            self.populate(node)
            node.expand()

    # -- following the source cursor ---------------------------------------------------------
    def reveal(self, byte: int) -> None:
        """Expand down to the innermost node at a byte offset and put the cursor on it,
        without announcing it (the source already shows that place)."""
        if self.parsed is None:
            return
        root = self.parsed.root
        if self.parsed.regions:  # the tree of the region holding the byte
            starts = [region.start for region in self.parsed.regions]
            root = self.parsed.regions[max(0, bisect_right(starts, byte) - 1)].parsed.root
        if root is None:
            return
        if self.show_anonymous:
            target = root.descendant_for_byte_range(byte, byte)
        else:
            target = root.named_descendant_for_byte_range(byte, byte)
        self.reveal_node(target)

    def reveal_node(self, target: Node | None) -> None:
        """Expand down to a syntax node and put the cursor on it quietly (its nearest
        shown ancestor when it is hidden, e.g. an anonymous node). Teach mode uses it."""
        if self.parsed is None or target is None or (self.parsed.root is None and not self.parsed.regions):
            return
        chain: list[Node] = []
        node: Node | None = target
        while node is not None:
            chain.append(node)
            node = node.parent
        chain.reverse()
        overview = self.root.data
        if isinstance(overview, RegionsEntry) and len(chain) < MAX_DEPTH:
            self._reveal_in_region(overview, chain)
            return
        top = next((k for k, ts_node in enumerate(chain) if ts_node == self.top), None)
        if top is None or len(chain) - 1 - top > MAX_DEPTH:
            # Out of the levels shown: from the file's root if it is near enough, else from
            # an ancestor leaving room to go deeper.
            top = 0 if len(chain) - 1 <= MAX_DEPTH else len(chain) - 1 - TOP_MARGIN
            self._show_from(chain[top], top)
        self._descend(self.root, chain[top + 1:])

    def _reveal_in_region(self, overview: RegionsEntry, chain: list[Node]) -> None:
        """Reveal a node below the regions' overview: open its region's line, then down."""
        assert self.parsed is not None
        index = next((i for i, r in enumerate(self.parsed.regions) if r.parsed.root == chain[0]), None)
        self.populate(self.root)
        if not self.root.is_expanded:
            self.root.expand()
        tree_node = overview.window.ensure(index) if index is not None and overview.window is not None else None
        if tree_node is None:
            return
        self._descend(tree_node, chain[1:])

    def _descend(self, tree_node: TreeNode, chain: list[Node]) -> None:
        """Open the tree from ``tree_node`` down along ``chain`` (syntax nodes, outermost
        first) as far as it is shown, and put the cursor on the deepest one reached."""
        for ts_node in chain:
            entry = tree_node.data
            if not isinstance(entry, AstEntry):
                break
            self.populate(tree_node)
            if not tree_node.is_expanded:
                tree_node.expand()
            index = self._index_of(entry, ts_node)
            child = entry.window.ensure(index) if index is not None and entry.window is not None else None
            if child is None:
                break
            tree_node = child
        self.call_after_refresh(self.move_quietly, tree_node)

    def _go_below(self, node: Node) -> None:
        """Move the top down so that ``node`` (at the last level shown) opens, cursor on it."""
        if node.child_count:
            self.reveal_node(node.children[0] if self.show_anonymous else (node.named_children or node.children)[0])
            self.call_after_refresh(self._move_to, node)

    def _go_above(self, top: Node) -> None:
        """Move the top up by TOP_MARGIN levels, cursor on the former top."""
        ancestor, levels = top, self.levels_above
        for _ in range(TOP_MARGIN):
            if ancestor.parent is None:
                break
            ancestor, levels = ancestor.parent, levels - 1
        self._show_from(ancestor, levels)
        self.reveal_node(top)

    def _move_to(self, node: Node) -> None:
        """Put the cursor on the shown tree node of ``node``, quietly, if there is one."""
        found = [line for line in self._shown_path() if isinstance(line.data, AstEntry) and line.data.node == node]
        if found:
            self.move_quietly(found[-1])

    def _shown_path(self) -> list[TreeNode]:
        """The cursor's tree node and its ancestors."""
        path = []
        node = self.cursor_node
        while node is not None:
            path.append(node)
            node = node.parent
        return path

    def _index_of(self, entry: AstEntry, child: Node) -> int | None:
        children = self._children_of(entry)
        assert entry.starts is not None
        k = bisect_right(entry.starts, child.start_byte) - 1
        # Zero-width nodes can share a start with the next one: look around.
        for index in (k, k - 1, k + 1, k - 2):
            if 0 <= index < len(children) and children[index].id == child.id:
                return index
        return None
