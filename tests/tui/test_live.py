"""The explorer stays live: files changing on disk, files deleted, and exports."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

from textual.widgets import Input

import explorer
from explorer.tui.export.dialog import ExportScreen
from explorer.tui.export.progress import ExportProgressScreen
from explorer.tui.export.write import default_export_path
from explorer.tui.widgets.files.tree import FileTree
from explorer.tui.widgets.source.view import SourceView

from .helpers import SIZE, make_app, notified, run_from_palette, wait_for, wait_until_idle, wait_until_watching


def save_like_an_editor(path: Path, text: str) -> None:
    """Write a temporary file and rename it over the original (vim, VS Code)."""
    temp = path.with_name(f".{path.name}.swp")
    temp.write_text(text)
    os.replace(temp, path)


async def opened(app, pilot):
    await wait_for(pilot, lambda: app.document is not None, what="the file to open")
    await wait_until_idle(pilot, app)


async def test_a_file_saved_on_disk_is_reparsed_keeping_the_scroll_position(project: Path):
    path = project / "inventory.py"
    app = make_app(path, watch=True)
    async with app.run_test(size=SIZE) as pilot:
        await opened(app, pilot)
        source = app.explore.query_one(SourceView)
        source.scroll_to(y=20, animate=False, immediate=True)
        source.move_cursor(30, 4, notify=False, scroll=False)
        first = app.document
        new_text = path.read_text().replace("RESERVATION_TTL = 15 * 60", "RESERVATION_TTL = 30 * 60  # longer")
        assert new_text != path.read_text()
        await wait_until_watching(pilot, app)
        save_like_an_editor(path, new_text)
        await wait_for(pilot, lambda: app.document is not first, what="the reload")
        await wait_until_idle(pilot, app)
        assert b"30 * 60  # longer" in app.document.source.data
        assert app.document.path == str(path)
        assert int(source.scroll_y) == 20 and source.cursor_line == 30
        # A second save (the watch survives a rename) is seen as well.
        second = app.document
        save_like_an_editor(path, new_text + "\n\ndef added():\n    return 1\n")
        await wait_for(pilot, lambda: app.document is not second, what="the second reload")
        assert b"def added" in app.document.source.data


async def test_created_and_deleted_files_update_the_tree_and_a_deleted_open_file_is_reported(project: Path):
    path = project / "router.ts"
    app = make_app(path, watch=True)
    messages: list = []
    async with app.run_test(message_hook=messages.append, size=SIZE, notifications=True) as pilot:
        await opened(app, pilot)
        tree = app.explore.query_one(FileTree)
        await wait_for(pilot, lambda: tree.find_node(str(path)), what="the tree to load")
        await wait_until_watching(pilot, app)
        created = project / "created.go"
        created.write_text("package main\n\nfunc main() {}\n")
        await wait_for(pilot, lambda: tree.find_node(str(created)), what="the new file in the tree")
        shown = app.document
        path.unlink()
        await wait_for(pilot, lambda: app.problem == "router.ts was deleted", what="the deletion notice")
        await wait_for(pilot, lambda: tree.find_node(str(path)) is None, what="the tree to drop the file")
        # Still showing the last content, no crash, and the user was told.
        assert app.document is shown
        assert any("was deleted" in n.message for n in notified(messages))
        assert app.explore.query_one(SourceView).render_line(0).text.strip()


async def test_export_writes_the_proposed_file_atomically_with_the_cli_schema(project: Path, tmp_path: Path):
    start = tmp_path / "started-here"
    start.mkdir()
    path = project / "inventory.py"
    app = make_app(path, start_dir=start)
    messages: list = []
    async with app.run_test(message_hook=messages.append, size=SIZE, notifications=True) as pilot:
        await opened(app, pilot)
        await pilot.press("e")
        await wait_for(pilot, lambda: isinstance(app.screen, ExportScreen), what="the export dialog")
        proposal = app.screen.query_one(Input).value
        assert proposal == str(start / "inventory.py.chunks.json") == default_export_path(str(start), "inventory.py")
        await pilot.press("enter")
        target = start / "inventory.py.chunks.json"
        await wait_for(pilot, lambda: any("Wrote" in n.message for n in notified(messages)), what="the notification")
        message = next(n.message for n in notified(messages) if "Wrote" in n.message)
        count = len(app.document.chunks)
        assert message == f"Wrote {count} chunks to {target}"
        document = json.loads(target.read_text())
        assert document["tool"] == "chunk-explorer" and document["schema"] == 1
        assert document["options"] == app.document.options.to_dict()
        [record] = document["files"]
        assert record["path"] == "inventory.py" and record["language"] == "python"
        assert [c["byteRange"] for c in record["chunks"]] == [c.to_dict()["byteRange"] for c in app.document.chunks]
        assert record["chunks"][0]["contextualizedText"] == app.document.chunks[0].contextualized_text
        assert [p.name for p in start.iterdir()] == ["inventory.py.chunks.json"], "no temporary file left behind"


async def test_export_to_an_unwritable_place_says_why_and_writes_nothing(project: Path, tmp_path: Path):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(stat.S_IRUSR | stat.S_IXUSR)
    if os.access(locked, os.W_OK):  # running as root: permissions do not stop us
        locked.chmod(0o755)
        target = tmp_path / "no-such-dir" / "out.json"
        expected = "does not exist"
    else:
        target = locked / "out.json"
        expected = "no permission"
    app = make_app(project / "inventory.py", start_dir=tmp_path)
    messages: list = []
    async with app.run_test(message_hook=messages.append, size=SIZE, notifications=True) as pilot:
        await opened(app, pilot)
        await pilot.press("e")
        await wait_for(pilot, lambda: isinstance(app.screen, ExportScreen), what="the export dialog")
        field = app.screen.query_one(Input)
        field.value = str(target)
        await pilot.press("enter")
        await wait_for(pilot, lambda: any(n.title == "Export failed" for n in notified(messages)), what="the failure")
        failure = next(n for n in notified(messages) if n.title == "Export failed")
        assert str(target) in failure.message and expected in failure.message
        assert failure.severity == "error"
        assert not target.exists()
        # The explorer carries on.
        await pilot.press("full_stop")
        assert app.document is not None


async def test_escape_cancels_the_export(project: Path, tmp_path: Path):
    start = tmp_path / "started-here"
    start.mkdir()
    app = make_app(project / "inventory.py", start_dir=start)
    async with app.run_test(size=SIZE) as pilot:
        await opened(app, pilot)
        await pilot.press("e")
        await wait_for(pilot, lambda: isinstance(app.screen, ExportScreen), what="the export dialog")
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, ExportScreen), what="the dialog to close")
        await wait_until_idle(pilot, app)
        assert list(start.iterdir()) == []


async def test_the_palette_exports_the_whole_tree_with_progress(project: Path, tmp_path: Path):
    (project / "logo.py").write_bytes(b"\x89PNG\x00\x00binary")  # skipped, and named in the notice
    messages = []
    app = make_app(project, start_dir=tmp_path)
    async with app.run_test(size=SIZE, notifications=True, message_hook=messages.append) as pilot:
        await run_from_palette(pilot, "export: whole tree")
        await wait_for(pilot, lambda: isinstance(app.screen, ExportScreen), what="the export dialog")
        await pilot.press("enter")
        target = tmp_path / "project.chunks.json"
        await wait_for(pilot, lambda: any("Wrote" in n.message for n in notified(messages)),
                       what="the tree export")
        assert not isinstance(app.screen, ExportProgressScreen)
        assert any(type(m).__name__ == "ExportProgressed" for m in messages)
        document = json.loads(target.read_text())
        paths = sorted(f["path"] for f in document["files"])
        assert paths == ["inventory.py", "router.ts"]
        for record in document["files"]:
            source = (project / record["path"]).read_bytes()
            want = explorer.chunk(record["path"], source, **app.options.to_dict())
            assert [c["byteRange"] for c in record["chunks"]] == [c.to_dict()["byteRange"] for c in want]
        total = sum(len(f["chunks"]) for f in document["files"])
        message = next(n.message for n in notified(messages) if "Wrote" in n.message)
        head, *left_out = message.split("\n")
        assert head == f"Wrote {total} chunks from 2 files to {target}"
        assert {"path": "logo.py", "reason": "binary", "detail": "not a text file (contains NUL bytes)"} in \
            document["skipped"]
        assert left_out[0] == f"Skipped {len(document['skipped'])} files or directories:"
        assert "1 binary: logo.py" in left_out


async def test_help_lists_every_binding(project: Path):
    from explorer.tui.app import ChunkExplorerApp
    from explorer.tui.screens.help import HelpScreen, key_text
    from explorer.tui.widgets.ast.tree import AstTree
    from explorer.tui.widgets.scope.tree import ScopeTree
    from explorer.tui.widgets.text_pane import TextPane

    app = make_app(project / "inventory.py")
    async with app.run_test(size=SIZE) as pilot:
        await opened(app, pilot)
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen), what="help")
        text = "\n".join(line for line, _ in app.screen.query_one(TextPane).lines)
        for binding in ChunkExplorerApp.BINDINGS:
            assert binding.id, f"{binding.key} has no id (not remappable)"
            assert f"{key_text(binding.key):<22} {binding.tooltip}" in text
        for binding in AstTree.BINDINGS + ScopeTree.BINDINGS + SourceView.BINDINGS:
            assert f"{key_text(binding.key):<22} {binding.tooltip or binding.description}" in text
        assert "ctrl+p" in text and "Command palette" in text
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, HelpScreen), what="help to close")
