"""Finding a file: `/` filters every file of the explored directory fuzzily, Enter opens one."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input

from explorer.tui.widgets.files.fuzzy import match, rank
from explorer.tui.widgets.files.matches import FileMatches
from explorer.tui.widgets.files.pane import FilesPane
from explorer.tui.widgets.files.tree import FileTree

from .helpers import SIZE, make_app, wait_for, wait_until_idle

PATHS = [
    "lib/sqlalchemy/orm/query.py",
    "lib/sqlalchemy/sql/elements.py",
    "lib/sqlalchemy/orm/session.py",
    "test/orm/test_query.py",
    "README.rst",
]


def test_letters_in_order_anywhere_with_the_file_name_first():
    assert match("xyz", "lib/query.py") is None
    score, positions = match("query.py", "lib/sqlalchemy/orm/query.py")
    assert positions == list(range(19, 27))  # the file name, not the q of "sqlalchemy"
    ranked = [path for path, _, _ in rank("query.py", PATHS)]
    assert ranked[:2] == ["lib/sqlalchemy/orm/query.py", "test/orm/test_query.py"]
    assert "README.rst" not in ranked
    # Letters that start words beat scattered ones; case is ignored.
    assert [p for p, _, _ in rank("OrmSes", PATHS)] == ["lib/sqlalchemy/orm/session.py"]
    assert rank("", PATHS) == [(p, 0.0, []) for p in sorted(PATHS)]


async def test_slash_filters_the_files_and_enter_opens_the_match(project: Path):
    (project / "pkg").mkdir()
    (project / "pkg" / "deep_module.py").write_text("def f():\n    return 1\n")
    app = make_app(project)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        pane = app.explore.query_one(FilesPane)
        assert not pane.finding and isinstance(app.focused, FileTree)
        await pilot.press("slash")
        await wait_for(pilot, lambda: pane.paths is not None, what="the file list")
        field = pane.query_one("#files-filter", Input)
        assert pane.finding and app.focused is field
        assert not pane.query_one(FileTree).display or not pane.query_one(FileTree).visible
        matches = pane.query_one(FileMatches)
        assert sorted(p for p, _, _ in matches.matches) == sorted(["inventory.py", "router.ts", "pkg/deep_module.py"])
        await pilot.press(*"dmod")
        assert [p for p, _, _ in matches.matches] == ["pkg/deep_module.py"]
        await pilot.press("backspace", "backspace", "backspace", "backspace", *"r")
        assert matches.matches[0][0] == "router.ts" and len(matches.matches) == 2  # router.ts, inventory.py
        await pilot.press("down")
        assert matches.current == "inventory.py"
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.document is not None, what="the file to open")
        await wait_until_idle(pilot, app)
        assert app.document.path == str(project / "inventory.py")
        assert not pane.finding and field.value == "" and field.disabled
        tree = pane.query_one(FileTree)
        await wait_for(pilot, lambda: tree.cursor_node is not None and tree.cursor_node.data is not None
                       and str(tree.cursor_node.data.path) == str(project / "inventory.py"), what="the tree cursor")

        # Escape goes back to the tree without opening anything.
        await pilot.press("slash")
        await pilot.press(*"deep")
        await pilot.press("escape")
        assert not pane.finding and app.focused is tree
        assert app.document.path == str(project / "inventory.py")
