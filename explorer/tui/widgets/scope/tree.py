"""The scope pane: entities (classes, functions, methods, ...) nested by containment.

Entities come from the engine's structure extraction (``FileStructure``).
Children are added when their parent is expanded, so a file with 20,000
functions opens at once; imports are grouped under one collapsed row.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass

from rich.style import Style
from rich.text import Text
from textual.binding import Binding
from textual.message import Message
from textual.widgets.tree import TreeNode

from explorer.engine.structure import Entity, FileStructure
from explorer.terminal_text import visible

from ..lazy_tree import LazyTree
from ..window import ChildWindow, Gap

KIND = Style(color="#c586c0")
NAME = Style(bold=True)
SIGNATURE = Style(dim=True)
MUTED = Style(dim=True, italic=True)
MAX_SIGNATURE = 80


@dataclass
class ImportsGroup:
    imports: list[Entity]


def _one_line(text: str) -> str:
    return visible(" ".join(text.split()))


def entity_label(entity: Entity) -> Text:
    """``kind name  signature  :line`` (all file content, so never markup)."""
    text = Text(no_wrap=True, overflow="ellipsis")
    text.append(f"{entity.type} ", KIND)
    text.append(_one_line(entity.name) or "(anonymous)", NAME)
    if entity.type == "import":
        if entity.source and entity.source != entity.name:
            text.append(f"  from {_one_line(entity.source)}", SIGNATURE)
    else:
        signature = _one_line(entity.signature or "")
        # "class Piece" says nothing the kind and name did not: show signatures that add something.
        if signature and not signature.rstrip(":{ ").endswith(entity.name):
            if len(signature) > MAX_SIGNATURE:
                signature = signature[: MAX_SIGNATURE - 1] + "…"
            text.append(f"  {signature}", SIGNATURE)
    text.append(f"  :{entity.line_start + 1}", SIGNATURE)
    return text


class ScopeTree(LazyTree["Entity | ImportsGroup | Gap"]):
    """Entities of the open file."""

    BINDING_GROUP_TITLE = "Scope"

    BATCH = 100

    BINDINGS = [
        Binding("d", "show_docstring", "Docstring", id="scope.docstring",
                tooltip="Show the highlighted entity's signature and docstring"),
        Binding("j", "cursor_down", "Down", show=False, id="scope.cursor_down"),
        Binding("k", "cursor_up", "Up", show=False, id="scope.cursor_up"),
        Binding("g", "scroll_home", "First", show=False, id="scope.scroll_home"),
        Binding("G", "scroll_end", "Last", show=False, id="scope.scroll_end"),
    ]

    @dataclass
    class EntitySelected(Message):
        """The user moved the cursor to an entity (its byte range, end exclusive)."""

        start_byte: int
        end_byte: int
        entity: Entity

    def __init__(self, *, id: str | None = None):
        super().__init__(Text("entities"), id=id)
        self.show_root = False
        self.guide_depth = 2
        self.structure: FileStructure | None = None
        #: The window over each added node's children, by id of the node's data (root: None).
        self._windows: dict[int, ChildWindow] = {}
        self._starts: dict[int, list[int]] = {}

    def show_structure(self, structure: FileStructure | None) -> None:
        self.structure = structure
        self._windows.clear()
        self._starts.clear()
        self.quiet_moves.clear()
        self.clear()
        roots = structure.roots if structure is not None else []
        imports = structure.imports if structure is not None else []
        if imports:
            self.root.add(Text(f"imports ({len(imports)})", style=KIND), ImportsGroup(imports))
        if not roots and not imports:
            why = "no file open" if structure is None else "no entities found"
            if structure is not None and structure.level == "none":
                why = "no entities (no syntax tree)"
            self.root.add_leaf(Text(why, style=MUTED))
        if roots:
            self._open_window(self.root, id(None), roots)
        self.root.expand()

    def _open_window(self, tree_node: TreeNode, key: int, entities: list[Entity]) -> ChildWindow:
        def add_child(parent: TreeNode, index: int, before: TreeNode | None) -> TreeNode:
            entity = entities[index]
            scoped = entity.type != "import"
            return parent.add(entity_label(entity), entity, before=before,
                              allow_expand=scoped and bool(entity.children))

        window = self._windows[key] = ChildWindow(tree_node, len(entities), add_child, self.BATCH)
        window.open()  # under the root, after the imports row (which the window leaves alone)
        return window

    def populate(self, node: TreeNode) -> None:
        data = node.data
        if data is None or isinstance(data, Gap) or id(data) in self._windows:
            return
        entities = data.imports if isinstance(data, ImportsGroup) else data.children
        self._open_window(node, id(data), entities)

    def announce(self, node: TreeNode) -> None:
        entity = node.data
        if isinstance(entity, Entity):
            self.post_message(self.EntitySelected(entity.start, entity.end, entity))

    # -- following the source cursor -------------------------------------------------------
    def reveal(self, byte: int) -> None:
        """Put the cursor on the innermost entity at a byte offset, without announcing it."""
        if self.structure is None or self.structure.scope is None:
            return
        entity = self.structure.scope.scope_at(byte)
        if entity is None:
            return
        chain = list(reversed(entity.ancestors())) + [entity]
        tree_node: TreeNode = self.root
        siblings = self.structure.roots
        window = self._windows.get(id(None))
        for item in chain:
            index = self._index_of(siblings, item)
            child = window.ensure(index) if window is not None and index is not None else None
            if child is None:
                return
            tree_node = child
            if item is not entity:
                self.populate(tree_node)
                tree_node.expand()
                siblings = item.children
                window = self._windows.get(id(item))
        self.call_after_refresh(self.move_quietly, tree_node)

    def _index_of(self, siblings: list[Entity], entity: Entity) -> int | None:
        starts = self._starts.get(id(siblings))
        if starts is None:
            starts = self._starts[id(siblings)] = [e.start for e in siblings]
        k = bisect_right(starts, entity.start) - 1
        while k >= 0 and starts[k] == entity.start:
            if siblings[k] is entity:
                return k
            k -= 1
        return None

    def action_show_docstring(self) -> None:
        node = self.cursor_node
        entity = node.data if node is not None else None
        if isinstance(entity, Entity):
            from .doc import EntityDocScreen

            self.app.push_screen(EntityDocScreen(entity))
