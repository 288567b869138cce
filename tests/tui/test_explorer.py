"""Behaviour of the explorer, driven with Pilot: open, tune, follow links, render safely."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from textual.notifications import Notify
from textual.widgets import Input, Select

import explorer
from explorer.engine.options import ChunkOptions, options_in_unit
from explorer.tui.document.messages import ChunkingFailed, ChunksReady, FileOpened, FileOpenFailed
from explorer.tui.widgets.ast.tree import AstEntry, AstTree
from explorer.tui.widgets.chunks.detail import ChunkDetail
from explorer.tui.widgets.chunks.list import ChunkList
from explorer.tui.widgets.files.tree import FileTree
from explorer.tui.widgets.params.panel import ParamsPanel
from explorer.tui.widgets.scope.tree import ScopeTree
from explorer.tui.widgets.source.view import SourceView

from .helpers import SIZE, edit_field, focus, make_app, notified, wait_for, wait_until_idle


def expected_chunks(path: Path, options: ChunkOptions, root: Path):
    """What the engine gives for the same file and options (the explorer must show exactly that)."""
    rel = path.relative_to(root).as_posix()
    return explorer.chunk(rel, path.read_bytes(), **options.to_dict())


def spans(chunks) -> list[tuple[int, int]]:
    return [(c.byte_range.start, c.byte_range.end) for c in chunks]


async def open_app(app, pilot):
    await wait_for(pilot, lambda: app.document is not None or app.problem, what="the file to open")
    await wait_until_idle(pilot, app)


async def test_opening_a_file_shows_its_chunks_everywhere(project: Path):
    path = project / "inventory.py"
    app = make_app(path)
    async with app.run_test(size=SIZE) as pilot:
        await open_app(app, pilot)
        screen = app.explore
        document = app.document
        want = expected_chunks(path, app.options, project)
        assert spans(document.chunks) == spans(want)
        assert [c.contextualized_text for c in document.chunks] == [c.contextualized_text for c in want]
        assert len(want) > 3, "the fixture should give several chunks at max_size 300"
        chunk_list = screen.query_one(ChunkList)
        assert chunk_list.chunking is document.chunking
        assert screen.query_one("#chunks").border_title == f"Chunks ({len(want)})"
        source = screen.query_one(SourceView)
        assert source.line_count == len(path.read_text().splitlines())
        ast = screen.query_one(AstTree)
        assert ast.root.data.node.type == "module"
        assert len(ast.root.children) == ast.root.data.node.named_child_count
        scope = screen.query_one(ScopeTree)
        names = [str(node.label) for node in scope.root.children]
        assert any("class Inventory" in name for name in names)
        # The first chunk is selected and described.
        assert chunk_list.cursor == 0
        assert screen.query_one(ChunkDetail).shown is document.chunks[0]
        # The file tree marks source files with their language.
        tree = screen.query_one(FileTree)
        await wait_for(pilot, lambda: tree.find_node(str(path)) is not None, what="the tree to load")
        assert tree.language_of(path) == "python"


async def test_file_tree_respects_gitignore_and_opens_files(project: Path):
    (project / ".gitignore").write_text("ignored/\n*.log\n")
    (project / "ignored").mkdir()
    (project / "ignored" / "secret.py").write_text("x = 1\n")
    (project / "build.log").write_text("noise\n")
    app = make_app(project)
    async with app.run_test(size=SIZE) as pilot:
        tree = app.explore.query_one(FileTree)
        await wait_for(pilot, lambda: tree.find_node(str(project / "inventory.py")), what="the tree to load")
        shown = sorted(str(node.label) for node in tree.root.children)
        assert "inventory.py" in shown and "router.ts" in shown
        assert not any(name in ("ignored", "build.log") for name in shown)
        assert app.document is None
        node = tree.find_node(str(project / "router.ts"))
        tree.select_node(node)
        await open_app(app, pilot)
        assert app.document.path == str(project / "router.ts")
        assert app.document.file.parsed.language == "typescript"


async def test_each_parameter_changes_the_chunks(project: Path):
    """Keys and form fields, one after the other on one open file: each change re-chunks
    to exactly what the engine gives; only language and strategy re-parse."""
    path = project / "inventory.py"
    app = make_app(path)
    async with app.run_test(size=SIZE) as pilot:
        await open_app(app, pilot)
        screen = app.explore

        async def changed(before, **change):
            want_options = dataclasses.replace(before.options, **change)
            await wait_for(pilot, lambda: app.document.options == want_options, what=f"{change}")
            await wait_until_idle(pilot, app)
            after = app.document
            want = expected_chunks(path, after.options, project)
            assert spans(after.chunks) == spans(want), change
            assert [c.contextualized_text for c in after.chunks] == [c.contextualized_text for c in want], change
            assert [c.contextualized_text for c in after.chunks] != [c.contextualized_text for c in before.chunks], change
            # The form shows what is in force.
            assert screen.query_one("#max-size", Input).value == str(after.options.max_size)
            assert screen.query_one("#overlap", Input).value == str(after.options.overlap_lines)
            return after

        for keys, change in (
            (["plus"], {"max_size": 400}),
            (["minus", "minus"], {"max_size": 200}),
            (["greater_than_sign", "greater_than_sign"], {"overlap_lines": 2}),
            (["less_than_sign"], {"overlap_lines": 1}),
        ):
            before = app.document
            await pilot.press(*keys)
            after = await changed(before, **change)
            assert after.file is before.file, "re-chunking must reuse the parsed file"
        for select_id, value, field, reparse in (
            ("#size-unit", "lines", "size_unit", False),
            ("#size-unit", "nws", "size_unit", False),
            ("#context-mode", "none", "context_mode", False),
            ("#context-mode", "minimal", "context_mode", False),
            ("#strategy", "lines", "strategy", True),
            ("#strategy", "ast", "strategy", True),
            ("#language", "text", "language", True),
        ):
            before = app.document
            screen.query_one(select_id, Select).value = value
            change: dict[str, object] = {field: value}
            if field == "size_unit":  # the max size is converted to the new unit (by the file's ratio)
                change["max_size"] = options_in_unit(before.options, value, before.source)[0].max_size
                assert change["max_size"] != before.options.max_size
            after = await changed(before, **change)
            assert (after.file is not before.file) == reparse, field
        assert app.document.file.parsed.fallback == "plain text"


async def test_a_typed_max_size_is_applied_once_when_the_field_is_left(project: Path):
    path = project / "inventory.py"
    messages = []
    app = make_app(path)
    async with app.run_test(size=SIZE, message_hook=messages.append) as pilot:
        await open_app(app, pilot)
        await edit_field(pilot, app.explore.query_one(ParamsPanel), "max-size")
        await pilot.press("ctrl+a", "ctrl+k", "8", "0", "0", "tab")  # home, clear to end, type 800, leave
        await wait_for(pilot, lambda: app.document.options.max_size == 800, what="max_size 800")
        await wait_until_idle(pilot, app)
        runs = [m for m in messages if isinstance(m, ChunksReady)]
        assert [m.chunking.options.max_size for m in runs] == [800]
        assert spans(app.document.chunks) == spans(expected_chunks(path, app.document.options, project))
        # Keys typed into the field did not reach the app's bindings (no size step happened).
        assert app.document.options.max_size == 800


async def test_rapid_changes_coalesce_and_end_on_the_last_value(project: Path):
    path = project / "inventory.py"
    messages = []
    app = make_app(path)
    async with app.run_test(size=SIZE, message_hook=messages.append) as pilot:
        await open_app(app, pilot)
        # Six changes within one tick: the first starts a run, the others only replace
        # the pending request, so exactly two runs happen and the last value wins.
        for size in range(400, 1000, 100):
            app.set_option(max_size=size)
        await wait_until_idle(pilot, app)
        runs = [m.chunking.options.max_size for m in messages if isinstance(m, ChunksReady)]
        assert runs == [400, 900]
        assert app.document.options.max_size == 900
        assert spans(app.document.chunks) == spans(expected_chunks(path, app.document.options, project))
        # Keys go the same way.
        await pilot.press("plus", "plus")
        await wait_until_idle(pilot, app)
        assert app.document.options.max_size == 1100


async def test_next_and_previous_chunk_follow_into_the_source(project: Path):
    path = project / "inventory.py"
    app = make_app(path)
    async with app.run_test(size=SIZE) as pilot:
        await open_app(app, pilot)
        screen = app.explore
        source = screen.query_one(SourceView)
        chunk_list = screen.query_one(ChunkList)
        detail = screen.query_one(ChunkDetail)
        await pilot.press("full_stop", "full_stop")
        chunk = app.document.chunks[2]
        assert chunk_list.cursor == 2
        assert source.selected_chunk == 2
        assert source.cursor_line == chunk.line_range.start
        assert detail.shown is chunk
        assert detail.lines[0][0].startswith(f"Chunk 3 of {len(app.document.chunks)}")
        await pilot.press("comma")
        assert chunk_list.cursor == 1 and source.selected_chunk == 1
        # The last chunk is reachable and the view scrolls to it.
        for _ in range(len(app.document.chunks)):
            await pilot.press("full_stop")
        last = app.document.chunks[-1]
        assert chunk_list.cursor == len(app.document.chunks) - 1
        assert source.scroll_y <= last.line_range.start < source.scroll_y + source.scrollable_content_region.height


async def test_moving_the_source_cursor_selects_chunk_node_and_entity(project: Path):
    path = project / "inventory.py"
    app = make_app(path)
    async with app.run_test(size=SIZE) as pilot:
        await open_app(app, pilot)
        screen = app.explore
        source = screen.query_one(SourceView)
        text = path.read_text()
        line = next(i for i, row in enumerate(text.splitlines()) if "left = self.available" in row)
        column = text.splitlines()[line].index("available")
        await focus(pilot, source)
        source.move_cursor(line, column)
        await pilot.pause()
        byte = source.cursor_byte()
        document = app.document
        want_chunk = next(i for i, c in enumerate(document.chunks) if c.byte_range.start <= byte < c.byte_range.end)
        await wait_for(pilot, lambda: screen.query_one(ChunkList).cursor == want_chunk, what="chunk list to follow")
        assert source.selected_chunk == want_chunk
        ast = screen.query_one(AstTree)
        await wait_for(pilot, lambda: ast.cursor_node is not None and isinstance(ast.cursor_node.data, AstEntry)
                       and ast.cursor_node.data.node.type == "identifier", what="AST to follow")
        node = ast.cursor_node.data.node
        assert node.text == b"available" and node.start_byte <= byte < node.end_byte
        scope = screen.query_one(ScopeTree)
        await wait_for(pilot, lambda: scope.cursor_node is not None and getattr(scope.cursor_node.data, "name", None) == "reserve",
                       what="scope to follow")
        # Following quietly: the panes did not send the source elsewhere.
        assert source.cursor_line == line and source.highlighted_range is None


async def test_picking_an_ast_node_or_entity_highlights_it_in_the_source(project: Path):
    path = project / "inventory.py"
    messages = []
    app = make_app(path)
    async with app.run_test(size=SIZE, message_hook=messages.append) as pilot:
        await open_app(app, pilot)
        screen = app.explore
        source = screen.query_one(SourceView)
        ast = screen.query_one(AstTree)
        await focus(pilot, ast)
        await pilot.press("end")  # the last top-level node: function restock
        await wait_for(pilot, lambda: source.highlighted_range is not None, what="AST pick to reach the source")
        node = ast.cursor_node.data.node
        assert node.type == "function_definition"
        assert source.highlighted_range == (node.start_byte, node.end_byte)
        assert source.cursor_line == node.start_point[0]
        assert any(isinstance(m, AstTree.SyntaxNodeSelected) for m in messages)
        assert screen.query_one(ChunkList).cursor == app.document.chunking.layout.chunk_at(node.start_byte)

        scope = screen.query_one(ScopeTree)
        await pilot.press("4")  # focus the scope pane
        inventory = next(n for n in scope.root.children if getattr(n.data, "name", "") == "Inventory")
        scope.move_cursor(inventory)
        await wait_for(pilot, lambda: source.highlighted_range == (inventory.data.start, inventory.data.end),
                       what="scope pick to reach the source")
        assert source.cursor_line == inventory.data.line_start
        # ...and the AST follows to the class.
        await wait_for(pilot, lambda: ast.cursor_node.data.node.start_byte >= inventory.data.start
                       and ast.cursor_node.data.node.end_byte <= inventory.data.end, what="AST to follow the scope")


async def test_clicking_a_chunk_row_selects_it(project: Path):
    app = make_app(project / "inventory.py")
    async with app.run_test(size=SIZE) as pilot:
        await open_app(app, pilot)
        chunk_list = app.explore.query_one(ChunkList)
        await pilot.click(ChunkList, offset=(10, 4))  # border, header, chunks 1, 2, 3
        assert chunk_list.cursor == 2
        assert app.explore.query_one(SourceView).selected_chunk == 2


async def test_markup_in_a_file_renders_literally(project: Path):
    path = project / "markup.txt"
    path.write_text(path.read_text() + "escape \x1b[31mred\x1b[0m bell\x07 del\x7f end\n")
    app = make_app(path)
    async with app.run_test(size=(240, 45)) as pilot:
        await open_app(app, pilot)
        source = app.explore.query_one(SourceView)
        rows = [source.render_line(y).text for y in range(5)]
        assert "[bold]This is not bold[/] and [red]not red[/red]." in rows[0]
        assert "[/] [/bold] [link=https://example.com]not a link[/link]" in rows[1]
        assert "    A tab, then [b]x[/b]" in rows[2]
        assert "escape ␛[31mred␛[0m bell␇ del␡ end" in rows[3]
        assert not any(ch in "".join(rows) for ch in "\x1b\x07\x7f\t")
        detail = app.explore.query_one(ChunkDetail)
        detail_rows = [detail.render_line(y).text for y in range(detail.size.height)]
        assert any("[bold]This is not bold[/]" in row for row in detail_rows)


async def test_a_binary_file_is_reported_not_shown(project: Path):
    path = project / "logo.png"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)))
    app = make_app(path)
    messages: list = []
    async with app.run_test(message_hook=messages.append, size=SIZE, notifications=True) as pilot:
        await open_app(app, pilot)
        assert app.document is None
        assert app.problem == "logo.png: Not a text file: contains NUL bytes"
        source = app.explore.query_one(SourceView)
        rows = [source.render_line(y).text for y in range(source.size.height)]
        assert any("Not a text file" in row for row in rows)
        assert any("Not a text file" in n.message for n in notified(messages))
        # Opening a text file afterwards works.
        app.open_file(str(project / "inventory.py"))
        await wait_for(pilot, lambda: app.document is not None, what="the next file")
        assert app.problem == ""


async def test_an_unknown_file_type_is_chunked_by_lines(project: Path):
    path = project / "notes.weird"
    path.write_text("".join(f"line {i} " + "word " * 10 + "\n" for i in range(60)))
    app = make_app(path)
    async with app.run_test(size=SIZE) as pilot:
        await open_app(app, pilot)
        assert app.document.file.parsed.fallback == "unknown language"
        assert len(app.document.chunks) > 1
        assert "no syntax tree" in str(app.explore.query_one(AstTree).root.label)


async def test_opened_messages_carry_generations_and_stale_results_are_dropped(project: Path):
    messages = []
    app = make_app(project / "inventory.py")
    async with app.run_test(size=SIZE, message_hook=messages.append) as pilot:
        await open_app(app, pilot)
        first = app.document
        # Open two files back to back: only the last one may end up shown.
        app.open_file(str(project / "router.ts"))
        app.open_file(str(project / "markup.txt"))
        await wait_until_idle(pilot, app)  # both loads ended; their messages are handled
        shown = app.document
        assert shown.path == str(project / "markup.txt")
        opened = [m for m in messages if isinstance(m, FileOpened)]
        assert opened[-1].document.path == str(project / "markup.txt")
        assert first.generation < shown.generation == app.service.generation

        # The race, forced: results of the first load arrive after the last one's. They
        # must all be dropped (run -1: no chunking run of the service).
        app.post_message(FileOpened(first))
        app.post_message(FileOpenFailed(first.path, "stale failure", first.generation))
        app.post_message(ChunksReady(first.chunking, first.generation, -1))
        app.post_message(ChunkingFailed("stale failure", first.generation, -1))
        await pilot.pause()  # the app has handled the messages posted before
        assert app.document is shown and app.problem == ""
        assert not any(isinstance(m, Notify) and "stale" in m.notification.message for m in messages)

        # The same result for the current generation is taken: the generation decided.
        current = dataclasses.replace(first, generation=app.service.generation)
        app.post_message(FileOpened(current))
        await wait_for(pilot, lambda: app.document is current, what="the current result")
