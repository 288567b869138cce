"""Notebooks and components in the explorer: the source view shows the cells (not the JSON)
with a mark where each cell and region starts, the AST pane each region's tree, the scope
pane their entities."""

from __future__ import annotations

import shutil
from pathlib import Path

from explorer.tui.widgets.ast.tree import AstEntry, AstTree, RegionsEntry
from explorer.tui.widgets.scope.tree import ScopeTree
from explorer.tui.widgets.source.view import SourceView

from .helpers import SIZE, focus, make_app, notified, wait_for, wait_until_idle

EMBEDDED = Path(__file__).resolve().parents[1] / "fixtures" / "embedded"


async def _open(tmp_path: Path, name: str):  # type: ignore[no-untyped-def]
    shutil.copy(EMBEDDED / name, tmp_path)
    return make_app(tmp_path / name)


async def test_a_notebook_shows_its_cells_with_separators_and_region_trees(tmp_path: Path) -> None:
    app = await _open(tmp_path, "python_notebook_sample.ipynb")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.document is not None or app.problem, what="the notebook to open")
        await wait_until_idle(pilot, app)
        screen = app.explore
        source = screen.query_one(SourceView)
        parsed = app.document.file.parsed
        text = parsed.source.text
        assert '"cell_type"' not in text and "def f(x):" in text
        assert source.line_count == parsed.source.line_count
        assert "cells" in str(source.border_subtitle) and "outputs left out" in str(source.border_subtitle)
        first_code = next(c for c in parsed.cells if c.kind == "code")
        line = parsed.source.line_of(first_code.start)
        strip = source.render_line(line - int(source.scroll_offset.y))
        assert all(segment.style is not None and segment.style.overline for segment in strip)  # the separator
        code, _ = source.code_lines.get(line, lambda: (None, None))  # the whole line, before the view crops it
        assert f"◀ cell {first_code.index} · code · python" in "".join(segment.text for segment in code)
        ast = screen.query_one(AstTree)
        assert isinstance(ast.root.data, RegionsEntry)
        assert len(ast.root.children) == len(parsed.regions)
        labels = [str(node.label) for node in ast.root.children]
        assert any(label.startswith(f"cell {first_code.index} [code] · python") and "module" in label for label in labels)
        scope = screen.query_one(ScopeTree)
        names = " ".join(str(node.label) for node in scope.root.children)
        assert "f" in names
        # The AST pane follows the source cursor into a cell's own tree.
        def_line = next(i for i, row in enumerate(text.splitlines()) if row.startswith("def f"))
        await focus(pilot, source)
        source.move_cursor(def_line, 4)
        await pilot.pause()
        await wait_for(pilot, lambda: ast.cursor_node is not None and isinstance(ast.cursor_node.data, AstEntry)
                       and ast.cursor_node.data.node.type == "identifier", what="the AST to follow")
        assert ast.cursor_node.data.node.text == b"f"


async def test_a_vue_component_shows_its_script_tree(tmp_path: Path) -> None:
    app = await _open(tmp_path, "VPNav.vue")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.document is not None or app.problem, what="the component to open")
        await wait_until_idle(pilot, app)
        ast = app.explore.query_one(AstTree)
        labels = [str(node.label) for node in ast.root.children]
        assert any(label.startswith('<script setup lang="ts"> · typescript') or "· typescript" in label for label in labels)
        assert any("· css" in label and "stylesheet" in label for label in labels)
        source = app.explore.query_one(SourceView)
        assert "2 embedded regions: typescript 1, css 1" in str(source.border_subtitle) or "embedded regions" in str(source.border_subtitle)


async def test_a_notebook_of_plots_opens_and_a_cell_of_an_unknown_type_is_a_notice(tmp_path: Path, notebook_file) -> None:
    future = {"cell_type": "future_type", "metadata": {}, "source": "a cell of a later format\n"}
    path = notebook_file(tmp_path / "plots.ipynb", extra_cells=(future,))  # 5.6 MB: over the 2 MB cap
    app = make_app(path)
    messages: list = []
    async with app.run_test(size=SIZE, message_hook=messages.append) as pilot:
        await wait_for(pilot, lambda: (app.document is not None and not app.document.file.partial) or app.problem,
                       what="the notebook to open")
        assert not app.problem
        text = app.document.file.parsed.source.text
        assert "def step_39(x):" in text and "a later format" not in text
        await wait_for(pilot, lambda: notified(messages), what="the notice")
        [notice] = notified(messages)
        assert notice.title == "plots.ipynb" and notice.severity == "warning"
        assert notice.message == "Left out of the chunks: cell 1 (unknown cell_type 'future_type')"
