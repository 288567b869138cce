"""The scope pane: entities (classes, functions, methods, ...) nested by containment.

Entities come from the engine's structure extraction (``FileStructure``).
Children are added when their parent is expanded, so a file with 20,000
functions opens at once; imports are grouped under one collapsed row.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.style import Style
from rich.text import Text
from textual.binding import Binding
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from explorer.engine.structure import Entity, FileStructure
from explorer.engine.text import display_line

from ...messages import EntitySelected

KIND = Style(color="#c586c0")
NAME = Style(bold=True)
SIGNATURE = Style(dim=True)
MUTED = Style(dim=True, italic=True)
MAX_SIGNATURE = 80


@dataclass
class ImportsGroup:
    imports: list[Entity]


def _one_line(text: str) -> str:
    return display_line(" ".join(text.split()))[0]


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


class ScopeTree(Tree["Entity | ImportsGroup"]):
    """Entities of the open file."""

    BINDINGS = [
        Binding("d", "show_docstring", "Docstring", id="scope.docstring",
                tooltip="Show the highlighted entity's signature and docstring"),
        Binding("j", "cursor_down", "Down", show=False),
        Binding("k", "cursor_up", "Up", show=False),
        Binding("g", "scroll_home", "First", show=False),
        Binding("G", "scroll_end", "Last", show=False),
    ]

    def __init__(self, *, id: str | None = None):
        super().__init__(Text("entities"), id=id)
        self.show_root = False
        self.auto_expand = False
        self.guide_depth = 2
        self.structure: FileStructure | None = None
        self._entity_nodes: dict[int, TreeNode] = {}
        self._loaded: set[int] = set()
        self._silent: TreeNode | None = None

    def show_structure(self, structure: FileStructure | None) -> None:
        self.structure = structure
        self._entity_nodes.clear()
        self._loaded.clear()
        self._silent = None
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
        self._add_entities(self.root, roots)
        self.root.expand()

    def _add_entities(self, tree_node: TreeNode, entities: list[Entity]) -> None:
        for entity in entities:
            scoped = entity.type != "import"
            child = tree_node.add(entity_label(entity), entity, allow_expand=scoped and bool(entity.children))
            self._entity_nodes[id(entity)] = child

    def _populate(self, tree_node: TreeNode) -> None:
        data = tree_node.data
        if data is None or id(data) in self._loaded:
            return
        self._loaded.add(id(data))
        if isinstance(data, ImportsGroup):
            self._add_entities(tree_node, data.imports)
        else:
            self._add_entities(tree_node, data.children)

    def on_tree_node_expanded(self, event: Tree.NodeExpanded) -> None:
        event.stop()
        self._populate(event.node)

    def on_tree_node_selected(self, event: Tree.NodeSelected) -> None:
        event.stop()
        if event.node.allow_expand:
            self._populate(event.node)
            event.node.toggle()

    def on_tree_node_highlighted(self, event: Tree.NodeHighlighted) -> None:
        event.stop()
        if event.node is self._silent:
            self._silent = None
            return
        entity = event.node.data
        if isinstance(entity, Entity):
            self.post_message(EntitySelected(entity.start, entity.end, entity))

    # -- following the source cursor -------------------------------------------------------
    def reveal(self, byte: int) -> None:
        """Put the cursor on the innermost entity at a byte offset, without announcing it."""
        if self.structure is None or self.structure.scope is None:
            return
        entity = self.structure.scope.scope_at(byte)
        if entity is None:
            return
        chain = [entity] + [e for e in entity.ancestors()]
        chain.reverse()
        tree_node: TreeNode | None = None
        for item in chain:
            tree_node = self._entity_nodes.get(id(item))
            if tree_node is None:
                return
            if item is not entity:
                self._populate(tree_node)
                tree_node.expand()
        self.call_after_refresh(self._move_silently, tree_node)

    def _move_silently(self, tree_node: TreeNode) -> None:
        if tree_node.line < 0:
            return
        if tree_node.line != self.cursor_line:
            self._silent = tree_node
        self.move_cursor(tree_node)
        self.scroll_to_node(tree_node, animate=False)

    def action_show_docstring(self) -> None:
        node = self.cursor_node
        entity = node.data if node is not None else None
        if isinstance(entity, Entity):
            from .doc import EntityDocScreen

            self.app.push_screen(EntityDocScreen(entity))
