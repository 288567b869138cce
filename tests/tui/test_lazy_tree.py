"""The tree behaviour the AST and scope panes share (explorer.tui.widgets.lazy_tree)."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.widgets.tree import TreeNode

from explorer.tui.widgets.lazy_tree import LazyTree

from .helpers import focus


class Numbers(LazyTree[int]):
    """Node n has children 10n+1 .. 10n+3, added on first expansion."""

    def __init__(self) -> None:
        super().__init__("numbers")
        self.populated: list[int] = []
        self.announced: list[int] = []

    def populate(self, node: TreeNode[int]) -> None:
        value = node.data or 0
        if node.children or value > 100:
            return
        self.populated.append(value)
        for k in range(1, 4):
            node.add(str(10 * value + k), 10 * value + k, allow_expand=True)

    def announce(self, node: TreeNode[int]) -> None:
        self.announced.append(node.data or 0)


class TreeApp(App[None]):
    def compose(self) -> ComposeResult:
        yield Numbers()


async def test_children_are_added_on_expansion_and_quiet_moves_are_not_announced():
    app = TreeApp()
    async with app.run_test() as pilot:
        tree = app.query_one(Numbers)
        tree.root.data = 0
        tree.root.expand()
        await pilot.pause()
        assert tree.populated == [0] and [c.data for c in tree.root.children] == [1, 2, 3]
        first, second, third = tree.root.children
        await focus(pilot, tree)
        await pilot.pause()
        tree.announced.clear()

        # Two moves for the caller before either is announced (a busy app): neither echoes.
        tree.move_quietly(second)
        tree.move_quietly(third)
        await pilot.pause()
        assert tree.announced == []

        # The user's own move is announced; picking a node adds its children.
        await pilot.press("up")
        await pilot.pause()
        assert tree.announced == [2]
        await pilot.press("enter")
        await pilot.pause()
        assert tree.populated == [0, 2] and second.is_expanded
