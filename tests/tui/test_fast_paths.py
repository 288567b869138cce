"""Behaviour kept by the speed work: AST sizes drawn with the limit, a footer that
rebuilds only when its keys change, and the open file kept out of the collector's way."""

from __future__ import annotations

import gc
import re
from pathlib import Path

from explorer.engine.sizing import measure_for
from explorer.tui.app_messages import FileChosen
from explorer.tui.widgets.ast.tree import AstEntry, AstTree
from explorer.tui.widgets.footer import KeyFooter

from .helpers import SIZE, make_app, settled, wait_for, wait_until_idle

SIZE_PART = re.compile(r"  (\d+)/(\d+) (nws|chars|lines)")
#: Wide enough for the AST pane to show most labels whole.
WIDE = (300, 45)


async def open_app(app, pilot):
    await wait_for(pilot, lambda: app.document is not None or app.problem, what="the file to open")
    await wait_until_idle(pilot, app)


def shown_sizes(tree: AstTree) -> list[tuple[int, int, str]]:
    """(size, limit, unit) in the AST rows as drawn (a label whose end is cut off by
    the pane's edge shows no complete size and is skipped)."""
    rows = [tree.render_line(y).text for y in range(tree.scrollable_content_region.height)]
    return [(int(m[1]), int(m[2]), m[3]) for row in rows for m in SIZE_PART.finditer(row)]


def expected_size(tree: AstTree, entry: AstEntry, unit: str) -> int:
    return measure_for(unit, None).size(tree.parsed.source, entry.node.start_byte, entry.node.end_byte)


async def test_ast_rows_show_sizes_against_the_limit_in_force(project: Path):
    app = make_app(project / "inventory.py")
    async with app.run_test(size=WIDE) as pilot:
        await open_app(app, pilot)
        tree = app.explore.query_one(AstTree)
        await pilot.pause()
        before = shown_sizes(tree)
        assert len(before) > 5 and {(limit, unit) for _, limit, unit in before} == {(300, "nws")}

        await pilot.press("plus")
        await wait_for(pilot, lambda: app.document.options.max_size == 400, what="the new limit")
        await wait_until_idle(pilot, app)
        after = shown_sizes(tree)
        assert {(limit, unit) for _, limit, unit in after} == {(400, "nws")}
        assert [size for size, _, _ in after] == [size for size, _, _ in before]

        app.set_option(size_unit="lines", max_size=12)
        await wait_for(pilot, lambda: app.document.options.size_unit == "lines", what="the new unit")
        await wait_until_idle(pilot, app)
        lines = shown_sizes(tree)
        assert {(limit, unit) for _, limit, unit in lines} == {(12, "lines")}
        root = tree.root.data
        # The root's row (the first drawn) is measured in the new unit.
        assert f"{expected_size(tree, root, 'lines')}/12 lines" in tree.render_line(0).text
        # The tree is wide enough for its longest label (horizontal scrolling reaches it).
        widest = max(tree.get_label_width(node) for node in [tree.root, *tree.root.children])
        assert tree.virtual_size.width >= widest


async def test_footer_rebuilds_only_when_its_keys_change(project: Path):
    app = make_app(project / "inventory.py")
    async with app.run_test(size=SIZE) as pilot:
        await open_app(app, pilot)
        footer = app.explore.query_one(KeyFooter)

        def keys() -> list:
            return list(footer.query("FooterKey"))

        await pilot.press("2")
        await settled(pilot)
        shown = keys()
        assert "Size" in [key.description for key in shown]
        assert "Anonymous nodes" not in [key.description for key in shown]

        await pilot.press("5")  # the chunk list adds no shown key: the same key widgets stay
        await settled(pilot)
        assert keys() == shown

        await pilot.press("3")  # the AST adds its key
        await wait_for(pilot, lambda: "Anonymous nodes" in [key.description for key in keys()], what="the AST key")
        await pilot.press("2")
        await wait_for(pilot, lambda: "Anonymous nodes" not in [key.description for key in keys()],
                       what="the AST key to go")

        # The keys still act when clicked.
        size_up = next(key for key in keys() if key.description == "Size")  # "+-": a click is the first, +
        await pilot.click(size_up)
        await wait_for(pilot, lambda: app.document.options.max_size == 400, what="a click on Size")


async def test_the_open_file_is_frozen_and_released_when_replaced(project: Path):
    gc.collect()  # objects handed back by earlier tests are collected: nothing waits
    app = make_app(project / "inventory.py")
    async with app.run_test(size=SIZE) as pilot:
        await open_app(app, pilot)
        assert gc.get_freeze_count() > 0, "the loaded file is frozen"
        first = app.document

        # Another file replaces it: everything goes back to the collector, and is not
        # frozen again before a full collection has freed the old file's cycles.
        gc.disable()  # no full collection may run by chance while this is checked
        try:
            app.post_message(FileChosen(str(project / "router.ts")))
            replaced = [first]  # (a list: the reference is dropped below, before collecting)
            await wait_for(pilot, lambda: app.document is not replaced[0] and not app.document.file.partial,
                           what="the second file")
            await wait_until_idle(pilot, app)
            assert gc.get_freeze_count() == 0
            replaced.clear()
            del first
            assert gc.collect() > 0, "what was handed back (the old file, its tree rows) is collected"
            assert gc.get_freeze_count() > 0, "the new file is frozen right after that collection"
        finally:
            gc.enable()

        # Re-chunking freezes nothing more: its garbage is left to the collector.
        frozen = gc.get_freeze_count()
        await pilot.press("plus")
        await wait_for(pilot, lambda: app.document.options.max_size == 400, what="the re-chunk")
        await wait_until_idle(pilot, app)
        assert gc.get_freeze_count() <= frozen
    assert gc.get_freeze_count() == 0, "the app hands everything back when it ends"
