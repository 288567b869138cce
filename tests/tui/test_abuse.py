"""The explorer under abuse: special files, huge files, deep nesting, quitting mid-work."""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import threading
import time
from pathlib import Path

import pytest
from textual.app import App
from textual.widgets import Static

from explorer.engine.options import ChunkOptions
from explorer.tui.app import ChunkExplorerApp
from explorer.tui.app import run as run_explorer
from explorer.tui.app_messages import FileChosen
from explorer.tui.document import service as document_service
from explorer.tui.document.service import DocumentService
from explorer.tui.export.dialog import ExportScreen
from explorer.tui.watch import FilesChangedOnDisk, WatchStarted, watch_directory
from explorer.tui.widgets.ast.tree import MAX_DEPTH, AstEntry, AstTree
from explorer.tui.widgets.chunks.detail import ChunkDetail
from explorer.tui.widgets.chunks.list import ChunkList
from explorer.tui.widgets.chunks.stats import StatsPanel
from explorer.tui.widgets.files.tree import FileTree
from explorer.tui.widgets.source.view import SourceView
from explorer.workspace.walk import WalkOptions

from .helpers import HANG_SECONDS, SIZE, focus, make_app, wait_for, wait_until_idle, wait_until_watching


async def choose_in_tree(pilot, app: ChunkExplorerApp, path: Path) -> None:
    """Pick a file in the file tree as a user does: cursor on it, enter."""
    tree = app.explore.query_one(FileTree)
    node = await wait_for(pilot, lambda: tree.find_node(str(path)), what=f"{path.name} in the tree")
    await focus(pilot, tree)
    tree.move_cursor(node)
    await pilot.pause()
    await pilot.press("enter")


def release_fifo_reader(path: Path) -> None:
    """Unblock a reader stuck opening the FIFO (only a broken explorer has one)."""
    with contextlib.suppress(OSError):  # no reader waiting: nothing to release
        os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
async def test_a_named_pipe_is_refused_without_hanging(project: Path):
    fifo = project / "x.py"
    os.mkfifo(fifo)
    app = make_app(project)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await choose_in_tree(pilot, app, fifo)
            await wait_for(pilot, lambda: app.problem, what="the refusal")
            assert "named pipe" in app.problem and "x.py" in app.problem
            assert app.document is None
            await wait_until_idle(pilot, app)
    finally:
        release_fifo_reader(fifo)


async def test_a_link_to_a_device_is_refused_with_the_reason(project: Path):
    if not os.path.exists("/dev/zero"):
        pytest.skip("needs /dev/zero")
    link = project / "zero.py"
    link.symlink_to("/dev/zero")
    app = make_app(project)
    async with app.run_test(size=SIZE) as pilot:
        # The tree hides links that leave the root (as the walk does); opened by name instead.
        await wait_until_idle(pilot, app)
        app.post_message(FileChosen(str(link)))
        await wait_for(pilot, lambda: app.problem, what="the refusal")
        assert "device" in app.problem and "a link to /dev/zero" in app.problem
        assert app.document is None
        await wait_until_idle(pilot, app)


async def test_a_file_over_the_size_limit_opens_only_when_asked(project: Path):
    big = project / "big.py"
    big.write_text("".join(f"value_{k} = {k}\n" for k in range(400)))
    app = ChunkExplorerApp(
        os.fspath(project), ChunkOptions(max_size=300), walk=WalkOptions(max_file_size=1000),
        watch=False, show_timings=False,
    )
    async with app.run_test(size=SIZE) as pilot:
        await choose_in_tree(pilot, app, big)
        await wait_for(pilot, lambda: app.problem, what="the refusal")
        assert "too large" in app.problem and "press o" in app.problem
        assert app.document is None
        source = app.explore.query_one(SourceView)
        assert "too large" in source.message
        shown = " ".join(source.render_line(y).text.strip() for y in range(source.size.height))
        assert "press o to open it anyway" in " ".join(shown.split()), "the reason must be readable whole"
        await pilot.press("o")
        await wait_for(pilot, lambda: app.document is not None, what="the file to open anyway")
        assert app.document.path == os.fspath(big) and app.problem == ""
        assert app.document.source.line_count == 400


def tree_nodes(tree: AstTree) -> int:
    """Nodes the pane holds (expanded or not)."""
    count, stack = 0, [tree.root]
    while stack:
        node = stack.pop()
        count += 1
        stack.extend(node.children)
    return count


def shown_depth(tree: AstTree) -> int:
    """Levels from the pane's root down to the cursor."""
    depth, node = 0, tree.cursor_node
    while node is not None and node.parent is not None:
        depth, node = depth + 1, node.parent
    return depth


async def test_deep_nesting_is_shown_through_a_bounded_window(tmp_path: Path):
    path = tmp_path / "brackets.js"
    path.write_text("x = " + "[" * 2000 + "]" * 2000 + ";\n")
    app = make_app(path, max_size=250, size_unit="chars")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.document is not None and not app.document.file.partial, what="the file")
        await wait_until_idle(pilot, app)
        assert len(app.document.chunks) > 10
        tree = app.explore.query_one(AstTree)
        for _ in range(8):  # chunk 8 starts 1,750 levels deep
            await pilot.press("full_stop")
            await pilot.pause()
            # what a key costs is bounded by what the pane holds: a window, never the 2,000 levels
            assert tree_nodes(tree) <= 10 * MAX_DEPTH, "the AST pane holds more than its window"
        deep = app.explore.query_one(ChunkList).cursor

        def on_chunk(index: int) -> bool:
            entry = getattr(tree.cursor_node, "data", None)
            return isinstance(entry, AstEntry) and entry.node.start_byte == app.document.chunks[index].byte_range.start

        await wait_for(pilot, lambda: on_chunk(deep), what="the AST cursor")
        assert tree.levels_above > 0 and shown_depth(tree) <= MAX_DEPTH
        # Back near the start of the file, the pane shows the file's root again.
        app.explore.select_chunk(0)
        await wait_for(pilot, lambda: tree.levels_above == 0 and tree.top == app.document.file.parsed.root,
                       what="the file's root on top")
        app.explore.select_chunk(deep)
        await wait_for(pilot, lambda: tree.levels_above > 0 and on_chunk(deep), what="the window down again")
        # h on the top node moves the window up, keeping the cursor on the former top.
        former_top = tree.top
        await focus(pilot, tree)
        await wait_for(pilot, lambda: tree.has_focus, what="the AST to take focus")
        tree.move_cursor(tree.root)
        await wait_for(pilot, lambda: tree.cursor_node is tree.root, what="the cursor on the top node")
        await pilot.press("h")
        await wait_for(pilot, lambda: tree.top != former_top and tree.cursor_node is not None
                       and tree.cursor_node.data.node == former_top, what="the window to move up")


def test_a_crash_exits_with_a_failure_status(project: Path, monkeypatch: pytest.MonkeyPatch, capsys):
    def crash(self) -> None:
        raise RecursionError("maximum recursion depth exceeded (a test)")

    monkeypatch.setattr(ChunkExplorerApp, "on_mount", crash)
    headless_run = App.run
    monkeypatch.setattr(ChunkExplorerApp, "run", lambda self: headless_run(self, headless=True))
    assert run_explorer(os.fspath(project), ChunkOptions(max_size=300)) == 1


async def test_quitting_during_a_long_rechunk_stops_it_promptly(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    path = tmp_path / "big.py"
    path.write_text("".join(f"def f{k}(a, b):\n    x = a + b * {k}\n    return x\n" for k in range(6000)))
    started, ended = threading.Event(), threading.Event()
    real_chunk = DocumentService._chunk

    def chunk_and_tell(self, *args) -> None:  # the real chunking, with notes of when its thread is in it
        started.set()
        try:
            real_chunk(self, *args)
        finally:
            ended.set()

    monkeypatch.setattr(DocumentService, "_chunk", chunk_and_tell)
    app = make_app(path)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.document is not None and not app.document.file.partial, what="the file")
        await wait_until_idle(pilot, app)
        app.set_option(max_size=2)  # about 30,000 chunks: seconds of work
        await wait_for(pilot, lambda: app.service.busy and started.is_set(), what="the re-chunk to start")
        assert not ended.is_set(), "the re-chunk should still be running"
        quit_at = time.monotonic()
        await pilot.press("q")
    # The process cannot exit before the worker thread returns.
    assert ended.wait(10)
    assert time.monotonic() - quit_at < 1.5


async def test_the_stats_say_a_rechunk_is_under_way_and_which_figures_they_show(
    project: Path, monkeypatch: pytest.MonkeyPatch
):
    gate = threading.Event()
    gate.set()
    real_chunk_file = document_service.chunk_file

    def gated_chunk_file(*args, **kwargs):  # the real chunking, once the test lets it start
        gate.wait(10)
        return real_chunk_file(*args, **kwargs)

    monkeypatch.setattr(document_service, "chunk_file", gated_chunk_file)
    app = make_app(project / "inventory.py")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.document is not None, what="the file")
        await wait_until_idle(pilot, app)
        stats = app.explore.query_one(StatsPanel)
        chunks_pane = app.explore.query_one("#chunks")
        count = len(app.document.chunks)
        assert "re-chunking" not in str(stats.render()) and chunks_pane.border_title == f"Chunks ({count})"
        gate.clear()
        await pilot.press("minus")  # 300 -> 200
        await pilot.pause()
        shown = str(stats.render())
        assert "re-chunking for max 200 nws" in shown and "these figures: max 300 nws" in shown
        assert chunks_pane.border_title == f"Chunks ({count} for max 300 nws, re-chunking…)"
        gate.set()
        await wait_until_idle(pilot, app)
        assert app.document.options.max_size == 200
        assert "re-chunking" not in str(stats.render())
        assert chunks_pane.border_title == f"Chunks ({len(app.document.chunks)})"


async def test_one_chunk_is_not_called_chunks(tmp_path: Path):
    path = tmp_path / "one.py"
    path.write_text("x = 1\n")
    app = make_app(path)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.document is not None, what="the file")
        await wait_until_idle(pilot, app)
        assert len(app.document.chunks) == 1
        shown = str(app.explore.query_one(StatsPanel).render())
        assert shown.startswith("1 chunk ") and "1 chunks" not in shown


async def test_ctrl_c_quits(project: Path):
    app = make_app(project / "inventory.py")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.document is not None, what="the file")
        await pilot.press("ctrl+c")
        await wait_for(pilot, lambda: app.return_code is not None, what="the app to quit")
    assert app.return_code == 0


async def test_help_names_bracket_keys_as_typed(project: Path):
    app = make_app(project / "inventory.py")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.document is not None, what="the file")
        await pilot.press("question_mark")
        pane = await wait_for(pilot, lambda: app.screen.query("#help-text").first(None), what="the help")
        shown = "\n".join(text for text, _ in pane.lines)
        assert "square_bracket" not in shown
        assert any(text.strip().startswith("] ") for text, _ in pane.lines)
        assert any(text.strip().startswith("[ ") for text, _ in pane.lines)


async def test_every_parameter_is_visible_at_80_by_24(project: Path):
    app = make_app(project / "inventory.py")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.document is not None, what="the file")
        await wait_until_idle(pilot, app)
        screen = app.explore
        assert screen.query_one("#right").region.right <= 80
        for selector in ("#max-size", "#size-unit", "#overlap", "#context-mode", "#language", "#strategy"):
            region = screen.query_one(selector).region
            assert region.width >= 6 and region.right <= 80 and region.bottom <= 24, selector
        assert screen.query_one("#chunks").region.right <= 80


async def test_the_chunk_pane_breaks_lines_where_the_source_pane_does(tmp_path: Path):
    path = tmp_path / "notes.txt"
    path.write_text("alpha\fbeta\vgamma\u2028delta\nsecond line\n")
    app = make_app(path)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.document is not None, what="the file")
        await wait_until_idle(pilot, app)
        assert app.explore.query_one(SourceView).line_count == 2
        detail = app.explore.query_one(ChunkDetail)
        assert detail.shown is app.document.chunks[0]
        assert any(text.startswith("alpha") and text.endswith("delta") for text, _ in detail.lines)
        assert any(text == "second line" for text, _ in detail.lines)


async def test_enter_on_an_empty_export_path_says_why(project: Path):
    app = make_app(project / "inventory.py")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.document is not None, what="the file")
        await wait_until_idle(pilot, app)
        await pilot.press("e")
        field = await wait_for(pilot, lambda: app.screen.query("#export-path").first(None), what="the dialog")
        field.value = "   "
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ExportScreen), "the dialog closed without a word"
        assert "Type the path" in str(app.screen.query_one("#export-problem", Static).render())


async def test_a_file_name_with_a_newline_is_shown_whole_and_safe(project: Path):
    path = project / "two\nlines.py"
    path.write_text("x = 1\n")
    app = make_app(project)
    async with app.run_test(size=SIZE) as pilot:
        tree = app.explore.query_one(FileTree)
        node = await wait_for(pilot, lambda: tree.find_node(str(path)), what="the file in the tree")
        assert "lines.py" in node.label.plain and "\n" not in node.label.plain
        await choose_in_tree(pilot, app, path)
        await wait_for(pilot, lambda: app.document is not None, what="the file")
        title = str(app.explore.query_one(SourceView).border_title)
        assert title.startswith("two") and title.endswith("lines.py") and "\n" not in title


@pytest.mark.parametrize("context_mode", ["full", "minimal"])
async def test_the_defines_column_lists_definitions_not_imports(tmp_path: Path, context_mode: str):
    path = tmp_path / "tool.py"
    path.write_text("import os\nimport json as codec\n\n\ndef load(name):\n    return codec.loads(os.fspath(name))\n")
    app = make_app(path, max_size=1000, context_mode=context_mode)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.document is not None, what="the file")
        await wait_until_idle(pilot, app)
        assert len(app.document.chunks) == 1
        chunk_list = app.explore.query_one(ChunkList)
        chunk_list.scroll_to(0, 0, animate=False, immediate=True)
        row = chunk_list.render_line(1).text  # line 0 is the column header
        assert row.rstrip().endswith("load"), row
        assert "codec" not in row and "os" not in row.split()


async def test_a_file_fixed_after_being_undecodable_is_shown_again(project: Path):
    path = project / "inventory.py"
    good = path.read_bytes()
    app = make_app(path, watch=True)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.document is not None, what="the file")
        await wait_until_idle(pilot, app)
        await wait_until_watching(pilot, app)
        path.write_bytes(b"\xff\xfe\x00 not text\n")
        await wait_for(pilot, lambda: app.document is None and "Not a text file" in app.problem, what="the refusal")
        assert app.explore.sub_title == ""
        path.write_bytes(good)
        await wait_for(pilot, lambda: app.document is not None, what="the fixed file")
        assert app.document.source.data == good and app.problem == ""
        assert app.explore.sub_title == "inventory.py"


async def test_a_removed_folder_clears_the_view_and_is_watched_again_once_back(project: Path):
    path = project / "inventory.py"
    good = path.read_bytes()
    app = make_app(path, watch=True)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.document is not None, what="the file")
        await wait_until_idle(pilot, app)
        tree = app.explore.query_one(FileTree)
        await wait_until_watching(pilot, app)
        shutil.rmtree(project)
        await wait_for(pilot, lambda: app.document is None, what="the view to clear")
        # the tree lists the missing folder again meanwhile: it is not a file to open
        await wait_for(pilot, lambda: tree.find_node(str(path)) is None, what="the tree to drop the removed files")
        await wait_until_idle(pilot, app)
        assert "its folder was removed" in app.problem
        assert app.explore.sub_title == "" and app.explore.query_one("#chunks").border_title == "Chunks"
        project.mkdir()
        path.write_bytes(good)
        await wait_for(pilot, lambda: app.document is not None, what="the file to come back")
        (project / "later.py").write_text("y = 2\n")
        await wait_for(pilot, lambda: tree.find_node(str(project / "later.py")), what="a new file listed")


@pytest.mark.parametrize("made_again", ["once the watch saw it gone", "at once"])
async def test_a_folder_back_is_reported_once_watched_again_so_the_first_change_is_seen(tmp_path: Path, made_again: str):
    """The app lists the folder again when told it is back: a file written right then must
    still be reported, so the new watch has to be set up before that. A folder removed and
    made again at once (it often gets the same inode number) is watched again as well."""
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.py").write_text("x = 1\n")
    late = root / "late.py"
    started, gone, seen = asyncio.Event(), asyncio.Event(), asyncio.Event()

    def post(message: object) -> None:
        if isinstance(message, WatchStarted):
            started.set()
            return
        assert isinstance(message, FilesChangedOnDisk)
        if ("deleted", str(root)) in message.changes:
            gone.set()
        if message.changes == [("added", str(root))]:
            late.write_text("y = 2\n")  # while the app is being told, as its listing would run
        if ("added", str(late)) in message.changes:
            seen.set()

    watching = asyncio.create_task(watch_directory(str(root), post))
    try:
        await asyncio.wait_for(started.wait(), HANG_SECONDS)
        shutil.rmtree(root)
        if made_again == "at once":
            root.mkdir()
        await asyncio.wait_for(gone.wait(), HANG_SECONDS)
        if made_again != "at once":
            root.mkdir()
        await asyncio.wait_for(seen.wait(), HANG_SECONDS)
    finally:
        watching.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await watching


async def test_gitignore_edits_apply_to_the_tree(project: Path):
    app = make_app(project, watch=True)
    async with app.run_test(size=SIZE) as pilot:
        tree = app.explore.query_one(FileTree)
        await wait_for(pilot, lambda: tree.find_node(str(project / "router.ts")), what="the tree")
        await wait_until_watching(pilot, app)
        (project / ".gitignore").write_text("*.ts\n")
        # The tree reloads as a whole (briefly empty): wait for the filtered tree, not any tree.
        await wait_for(pilot, lambda: tree.find_node(str(project / "router.ts")) is None
                       and tree.find_node(str(project / "inventory.py")) is not None,
                       what="router.ts hidden, inventory.py still shown")
        (project / ".gitignore").write_text("")
        await wait_for(pilot, lambda: tree.find_node(str(project / "router.ts")), what="router.ts shown again")


async def test_any_chunk_of_a_minified_file_can_be_seen(tmp_path: Path):
    path = tmp_path / "bundle.min.js"
    path.write_text("".join(f"var v{k}={k};" for k in range(12000)) + "\n")  # one line, ~150,000 characters
    app = make_app(path, max_size=200, size_unit="chars")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.document is not None and not app.document.file.partial, what="the file")
        await wait_until_idle(pilot, app)
        chunks = app.document.chunks
        assert len(chunks) > 500
        source = app.explore.query_one(SourceView)
        await focus(pilot, source)
        for index in (500, len(chunks) - 1, 3):
            app.explore.select_chunk(index)
            await pilot.pause()
            chunk = chunks[index]
            row = source.render_line(source.cursor_line - int(source.scroll_y)).text
            assert chunk.text[:30] in row, f"chunk {index + 1} is not on screen"
            assert source.cursor_byte() == chunk.byte_range.start
        # The end of the line is reachable too, and its note says what is shown.
        await pilot.press("end")
        await pilot.pause()
        row = source.render_line(source.cursor_line - int(source.scroll_y)).text
        assert "v11999=11999;" in row


async def test_a_failed_rechunk_leaves_the_parameters_of_the_chunks_shown(project: Path, monkeypatch: pytest.MonkeyPatch):
    real_chunk_file = document_service.chunk_file

    def chunk_file_failing_at_200(file, options, *args, **kwargs):
        if options.max_size == 200:
            raise ValueError("the engine failed (a test)")
        return real_chunk_file(file, options, *args, **kwargs)

    monkeypatch.setattr(document_service, "chunk_file", chunk_file_failing_at_200)
    app = make_app(project / "inventory.py")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.document is not None, what="the file")
        await wait_until_idle(pilot, app)
        await pilot.press("minus")  # 300 -> 200: fails
        await wait_until_idle(pilot, app)
        await pilot.pause()
        assert app.options.max_size == 300 == app.document.options.max_size
        assert "re-chunking" not in str(app.explore.query_one(StatsPanel).render())


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symlinks")
async def test_a_link_to_a_folder_inside_the_root_is_not_listed_twice(project: Path):
    # The walk never enters such a link (git lists it as one entry): its files are listed
    # once, under the folder's own name, in the tree as in every export.
    (project / "pkg").mkdir()
    (project / "pkg" / "mod.py").write_text("x = 1\n")
    (project / "again").symlink_to(project / "pkg")
    app = make_app(project)
    async with app.run_test(size=SIZE) as pilot:
        tree = app.explore.query_one(FileTree)
        await wait_for(pilot, lambda: tree.find_node(str(project / "pkg")), what="the tree")
        await wait_until_idle(pilot, app)
        listed = {os.path.basename(str(node.data.path)) for node in tree.root.children if node.data is not None}
        assert "pkg" in listed and "again" not in listed
