"""Keys that belong to their screen: footers, help, Escape, focused fields, layout keys, the palette's file search."""

from __future__ import annotations

import dataclasses
import os
import shutil
from pathlib import Path

import pytest
from textual.widgets import Input

from explorer.tui.document.messages import ChunksReady
from explorer.tui.screens.explore import ExploreScreen
from explorer.tui.screens.help import HelpScreen
from explorer.tui.screenshot import save_screenshot
from explorer.tui.sweep.screen import SweepScreen
from explorer.tui.teach.screen import TeachScreen
from explorer.tui.tools import open_teach
from explorer.tui.widgets.footer import KeyFooter, fit, key_width
from explorer.tui.widgets.footer_key import FooterKey
from explorer.tui.widgets.params.panel import ParamsPanel
from explorer.tui.widgets.source.view import SourceView

from .helpers import SIZE, focus, make_app, notified, run_from_palette, settled, wait_for, wait_until_idle


def footer_keys(app) -> list[str]:
    """The descriptions the footer of the screen on top shows, left to right."""
    footer = app.screen.query_one(KeyFooter)
    return [key.description for key in footer.query(FooterKey)]


def help_text(app) -> str:
    return "\n".join(str(line[0]) for line in app.screen.query_one("#help-text").lines)


async def opened(pilot, app) -> None:
    await wait_for(pilot, lambda: app.document is not None and not app.document.file.partial, what="the file")
    await wait_until_idle(pilot, app)


async def test_keys_of_the_explorer_do_not_reach_a_tool_screen(project: Path):
    app = make_app(project / "inventory.py")
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot, app)
        assert {"Size", "Teach", "Compare", "Zoom", "Help", "Quit"} <= set(footer_keys(app))
        app.action_sweep()
        await wait_for(pilot, lambda: isinstance(app.screen, SweepScreen), what="the sweep")
        await pilot.pause()
        await focus(pilot, app.screen.query_one("#sweep-table"))
        await pilot.pause()
        shown = footer_keys(app)
        assert "Size" not in shown and "Teach" not in shown and "Compare" not in shown
        size = app.options.max_size
        await pilot.press("plus", "t", "c", "n")
        await settled(pilot)
        # Nothing happened underneath: the explorer's size is the same, no tool opened over the sweep.
        assert app.options.max_size == size and isinstance(app.screen, SweepScreen)


async def test_escape_returns_to_the_screen_that_opened_this_one(project: Path):
    app = make_app(project / "inventory.py")
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot, app)
        app.action_sweep()
        await wait_for(pilot, lambda: isinstance(app.screen, SweepScreen), what="the sweep")
        open_teach(app, "python")  # from the sweep (the palette's "teach: open sample")
        await wait_for(pilot, lambda: isinstance(app.screen, TeachScreen), what="teach mode")
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, TeachScreen), what="teach to close")
        assert isinstance(app.screen, SweepScreen)
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, ExploreScreen), what="the explorer")


async def test_pane_keys_never_edit_a_field_and_a_field_takes_only_its_characters(project: Path):
    app = make_app(project / "inventory.py")
    messages: list = []
    async with app.run_test(size=SIZE, message_hook=messages.append) as pilot:
        await opened(pilot, app)
        screen = app.explore
        panel = screen.query_one(ParamsPanel)
        before = app.options
        # 6 focuses the Parameters pane, not a field: the digit after it is a pane key again.
        await pilot.press("6")
        await pilot.pause()
        assert screen.focused is panel
        assert "Edit" in footer_keys(app) and "Size" in footer_keys(app)
        await pilot.press("2")
        assert screen.focused is screen.query_one(SourceView)
        await pilot.press("6", "7", "6", "3", "6", "1")
        await pilot.pause(0.2)
        assert app.options == before, "no pane key edited a value"
        assert screen.query_one("#max-size", Input).value == str(before.max_size)

        # Enter edits the field under the cursor; only then do digits go into it, and only there.
        await pilot.press("6", "enter")
        await pilot.pause()
        field = screen.query_one("#max-size", Input)
        assert screen.focused is field
        shown = footer_keys(app)
        assert "Size" not in shown and "Next" not in shown and "Teach" not in shown and "Help" not in shown
        await pilot.press("2", "6", "plus", "t", "n", "greater_than_sign")  # + t n > are refused: a number
        await pilot.pause(0.2)
        assert field.value == "26" and screen.focused is field and isinstance(app.screen, ExploreScreen)
        assert app.options == before, "nothing is applied while typing"
        # Leaving the field (escape, as in every field) applies it, once.
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.document.options.max_size == 26, what="max size 26")
        await wait_until_idle(pilot, app)
        assert screen.focused is panel
        assert app.options == dataclasses.replace(before, max_size=26), "only that field changed"
        runs = [m for m in messages if isinstance(m, ChunksReady)]
        assert [m.chunking.options.max_size for m in runs] == [26]  # one re-chunk

        # Typing 1500 re-chunks once, not four times (1, 15, 150, 1500).
        await pilot.press("enter", "ctrl+a", "ctrl+k", "1", "5", "0", "0")
        await pilot.pause(0.6)
        assert app.options.max_size == 26
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.document.options.max_size == 1500, what="max size 1500")
        await wait_until_idle(pilot, app)
        runs = [m for m in messages if isinstance(m, ChunksReady)]
        assert [m.chunking.options.max_size for m in runs] == [26, 1500]

        # In the pane, the arrows pick a field and change it by the step of + and -.
        await pilot.press("down", "down", "right")
        await wait_for(pilot, lambda: app.options.overlap_lines == 1, what="overlap 1")
        await pilot.press("up", "up", "left")
        await wait_for(pilot, lambda: app.options.max_size == 1400, what="max size 1400")
        await pilot.press("down", "right")
        await wait_for(pilot, lambda: app.options.size_unit == "chars", what="the next unit")
        await wait_until_idle(pilot, app)
        in_chars = app.options.max_size  # the unit change converted the size

        # A bad value is refused when the field is left, in the options' one wording, and the
        # value in force comes back.
        await pilot.press("up", "enter", "ctrl+a", "ctrl+k", "0", "enter")
        await wait_for(pilot, lambda: any(n.message == "max_size must be a whole number of at least 1, got 0"
                                          for n in notified(messages)), what="the refusal")
        assert app.options.max_size == in_chars and field.value == str(in_chars)


async def test_help_lists_the_keys_of_the_screen_it_was_opened_from(project: Path):
    app = make_app(project / "inventory.py")
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot, app)
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen), what="help")
        text = help_text(app)
        assert "Chunk list (5)" in text and "Maximize the focused pane" in text and "Timeline marks" not in text
        await pilot.press("escape")
        await pilot.press("t")
        await wait_for(pilot, lambda: isinstance(app.screen, TeachScreen), what="teach mode")
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen), what="teach's help")
        text = help_text(app)
        assert "Timeline marks" in text and "✂" in text and "Go to the next decision" in text
        assert "Chunk list" not in text and "Maximize the focused pane" not in text
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, TeachScreen), what="teach again")


@pytest.mark.parametrize("width", [60, 80, 160])
async def test_the_footer_drops_whole_keys_and_keeps_help_and_quit(project: Path, width: int):
    app = make_app(project / "inventory.py")
    async with app.run_test(size=(width, 24)) as pilot:
        await opened(pilot, app)
        await pilot.pause()
        footer = app.screen.query_one(KeyFooter)
        keys = list(footer.query(FooterKey))
        assert {"Help", "Quit"} <= {key.description for key in keys}
        # Every key is drawn whole: the keys fit in the footer side by side.
        assert sum(key.outer_size.width for key in keys) <= width
        for key in keys:  # (the palette key on the right has a separator and a margin: 2 cells)
            extra = 2 if key.has_class("-command-palette") else 0
            assert key.outer_size.width == key_width(key.key_display, key.description, key.has_class("-compact")) + extra
        shown = [key.description for key in keys if not key.has_class("-command-palette")]
        everything = ["Find", "Repository", "Problem", "Teach", "Compare", "Next", "Zoom", "Size", "Queries",
                      "Sweep", "Left", "Right", "Overlap", "Export"]
        kept = [name for name in everything if name in shown]
        assert kept == everything[: len(kept)], "the least used keys go first"
        if width >= 80:
            assert {"Find", "Repository", "Problem"} <= set(shown), "what a newcomer needs survives first"
        if width >= 160:
            assert "Overlap" in shown


def test_fit_leaves_out_the_last_keys_first_and_the_pinned_ones_last():
    keys = [(k, k, d, True, "", False) for k, d in [("a", "Alpha"), ("b", "Beta"), ("question_mark", "Help")]]
    assert fit(keys, 100, frozenset({"question_mark"})) == keys
    assert fit(keys, key_width("a", "Alpha") + key_width("question_mark", "Help"),
               frozenset({"question_mark"})) == [keys[0], keys[2]]
    assert fit(keys, key_width("question_mark", "Help"), frozenset({"question_mark"})) == [keys[2]]


async def test_side_panes_collapse_and_the_focused_pane_maximizes(project: Path):
    app = make_app(project / "inventory.py")
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot, app)
        screen = app.explore
        left, right = screen.query_one("#left"), screen.query_one("#right")
        source = screen.query_one(SourceView)
        wide = source.size.width
        await pilot.press("left_square_bracket")
        await pilot.pause()
        assert not left.display and source.size.width > wide
        await pilot.press("1")  # focusing a hidden pane shows it again
        await pilot.pause()
        assert left.display and screen.focused is screen.query_one("#files-tree")
        await pilot.press("2", "z")
        await pilot.pause()
        assert screen.maximized is source and source.outer_size.width == SIZE[0]
        await pilot.press("z")
        await pilot.pause()
        assert screen.maximized is None and right.display
        await pilot.press("7")
        assert screen.focused is screen.query_one("#detail")


async def test_at_80_columns_one_side_pane_shows_and_nothing_runs_off_screen(project: Path):
    app = make_app(project / "inventory.py")
    async with app.run_test(size=(80, 24)) as pilot:
        await opened(pilot, app)
        await pilot.pause()
        screen = app.explore
        left, right = screen.query_one("#left"), screen.query_one("#right")
        assert right.display and not left.display  # a file is open: its chunks, not the tree
        assert screen.query_one(SourceView).size.width >= 36
        await pilot.press("left_square_bracket")
        await pilot.pause()
        assert left.display and not right.display
        for pane in ("#left", "#source"):
            region = screen.query_one(pane).region
            assert region.right <= 80 and region.bottom <= 24
        # Too narrow for every key: z is left out, until a pane is maximized and it restores it.
        await pilot.press("5")
        await pilot.pause()
        assert "Zoom" not in footer_keys(app)
        await pilot.press("z")
        await wait_for(pilot, lambda: "Zoom" in footer_keys(app), what="the key that restores the layout")
        assert screen.maximized is screen.query_one("#chunks") and "Help" in footer_keys(app)
        await pilot.press("z")
        await wait_for(pilot, lambda: "Zoom" not in footer_keys(app), what="the footer as before")
        await pilot.press("left_square_bracket")
        await pilot.pause()
        await pilot.resize_terminal(60, 20)
        await wait_for(pilot, lambda: screen.size == (60, 20), what="the new size laid out")
        await pilot.pause()
        for pane in ("#main", "#left", "#source"):
            region = screen.query_one(pane).region
            assert region.right <= 60 and region.bottom <= 20, pane


async def test_the_palette_finds_files_by_name(project: Path):
    (project / "pkg" / "deep").mkdir(parents=True)
    (project / "pkg" / "deep" / "query.py").write_text("def find(name):\n    return name\n")
    app = make_app(project)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await run_from_palette(pilot, "query.py", "deep")
        await wait_for(pilot, lambda: app.document is not None, what="the file")
        assert app.document.path == os.fspath(project / "pkg" / "deep" / "query.py")
        await wait_until_idle(pilot, app)
        assert isinstance(app.screen, ExploreScreen)


def test_a_screenshot_goes_where_it_can_and_says_why_not(tmp_path: Path):
    home, start = tmp_path / "home", tmp_path / "start"
    home.mkdir()
    start.mkdir()
    # No ~/Downloads: the folder the explorer was started from.
    path = save_screenshot("<svg/>", "Chunk Explorer", os.fspath(start), home=os.fspath(home))
    assert os.path.dirname(path) == os.fspath(start) and Path(path).read_text() == "<svg/>"
    (home / "Downloads").mkdir()
    path = save_screenshot("<svg/>", "Chunk Explorer", os.fspath(start), home=os.fspath(home))
    assert os.path.dirname(path) == os.fspath(home / "Downloads")
    shutil.rmtree(home / "Downloads")
    with pytest.raises(OSError, match="does not exist"):
        save_screenshot("<svg/>", "Chunk Explorer", os.fspath(tmp_path / "gone"), home=os.fspath(home))


async def test_changing_the_size_in_teach_mode_keeps_the_place_in_the_file(project: Path):
    app = make_app(project / "inventory.py")
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot, app)
        await pilot.press("t")
        await wait_for(pilot, lambda: isinstance(app.screen, TeachScreen) and app.screen.run is not None,
                       what="the trace")
        screen: TeachScreen = app.screen  # type: ignore[assignment]
        await pilot.press(*["right_square_bracket"] * 6)
        before, run = screen.step, screen.run
        assert before is not None and before.piece is not None and screen.index > 6
        await pilot.press("plus")
        await wait_for(pilot, lambda: screen.run is not run and screen.run is not None, what="the new trace")
        await pilot.pause()
        assert app.options.max_size == 400 and screen.run.options.max_size == 400  # type: ignore[union-attr]
        after = screen.step
        assert screen.index > 0 and after is not None and after.piece is not None
        assert after.piece.start >= before.piece.start
        # The step before it was still short of that place: it is the first one there.
        earlier = [s for s in screen.run.steps[: screen.index] if s.piece is not None and s.action != "finish"]  # type: ignore[union-attr]
        assert all(s.piece.start < before.piece.start for s in earlier)  # type: ignore[union-attr]


async def test_the_queries_view_teaches_the_target_file_and_compares_the_settings_picked(
    project: Path, monkeypatch: pytest.MonkeyPatch
):
    from textual.widgets import SelectionList

    from explorer.tui.queries.picker import SettingsPicker
    from explorer.tui.queries.screen import QueriesScreen
    from explorer.tui.queries.table import QueryTable

    monkeypatch.setattr(QueriesScreen, "jobs", 1)
    app = make_app(project, max_size=300)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("r")
        await wait_for(pilot, lambda: isinstance(app.screen, QueriesScreen) and app.screen.run is not None,
                       what="the evaluation")
        screen: QueriesScreen = app.screen  # type: ignore[assignment]
        run = screen.run
        assert run is not None
        table = screen.query_one(QueryTable)
        row = next(q for q, query in enumerate(run.result.queries) if query.path == "router.ts")
        await focus(pilot, table)
        table.move_cursor(row=row)
        await pilot.pause()
        await pilot.press("t")
        await wait_for(pilot, lambda: isinstance(app.screen, TeachScreen), what="teach mode")
        assert app.screen.path == os.fspath(project / "router.ts")  # type: ignore[attr-defined]
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is screen, what="the queries view again")

        await pilot.press("s")
        await wait_for(pilot, lambda: isinstance(app.screen, SettingsPicker), what="the settings picker")
        picker: SettingsPicker = app.screen  # type: ignore[assignment]
        checklist = picker.query_one(SelectionList)
        checklist.deselect_all()
        wanted = [options for options in picker.candidates if options.context_mode == "none"][:1]
        checklist.select(0)
        checklist.select(picker.candidates.index(wanted[0]))
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.screen is screen and screen.run is not None and screen.run is not run,
                       what="the new evaluation")
        assert [s.options for s in screen.run.settings] == [picker.candidates[0], wanted[0]]  # type: ignore[union-attr]
        assert screen.run.result.varied == ["context_mode"]  # type: ignore[union-attr]


async def test_help_wraps_at_80_columns_and_names_panes_as_the_screen_shows_them(project: Path,
                                                                                   monkeypatch: pytest.MonkeyPatch):
    from explorer.engine.text import cell_width
    from explorer.tui.repository.screen import RepositoryScreen

    monkeypatch.setattr(RepositoryScreen, "jobs", 1)
    app = make_app(project / "inventory.py")
    async with app.run_test(size=(80, 24)) as pilot:
        await opened(pilot, app)
        for opener in ("R", None):
            if opener:
                await pilot.press(opener)
                await wait_for(pilot, lambda: isinstance(app.screen, RepositoryScreen) and app.screen.model.complete,
                               what="the repository view")
            await pilot.press("question_mark")
            await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen), what="help")
            await pilot.pause()
            pane = app.screen.query_one("#help-text")
            lines = [text for text, _ in pane.lines]
            assert max(cell_width(line) for line in lines) <= pane.size.width, "every line fits: it wraps"
            joined = " ".join(" ".join(line.split()) for line in lines)
            words = " ".join(joined.split())
            if opener:
                assert "File list" in joined and "Problem list" in joined and "Chunk list" in joined
                assert "FileRows" not in joined and "ProblemRows" not in joined and "ChunkRows" not in joined
                assert "Worst first, most problems first, by path, or by kind (the worst kind first)" in words
            else:  # the explorer: each pane titled as its border is, with the key that focuses it
                assert "Chunk list (5)" in joined and "Parameters (6)" in joined and "File finder (1)" in joined
                assert ("The next chunking problem: across files once the repository view has scanned them"
                        in words), "a long line is whole once its wrapped parts are joined"
            await pilot.press("escape")
            await pilot.pause()
            if opener:
                await pilot.press("escape")
                await wait_for(pilot, lambda: isinstance(app.screen, ExploreScreen), what="the explorer")


async def test_every_palette_command_of_the_sweep_leaves_the_explorer_unchanged(project: Path,
                                                                                  monkeypatch: pytest.MonkeyPatch):
    from explorer.tui.palette.screen_keys import ScreenKeyCommands
    from explorer.tui.sweep.screen import SweepScreen

    monkeypatch.setattr(SweepScreen, "jobs", 1)
    app = make_app(project / "inventory.py")
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot, app)
        await pilot.press("S")
        await wait_for(pilot, lambda: isinstance(app.screen, SweepScreen) and app.screen.retrieval.run is not None,
                       what="the sweep and its evaluation")
        sweep = app.screen
        before = app.options
        # What the palette offers on the sweep: its own keys and the app's system commands, no more.
        hits = [hit async for hit in ScreenKeyCommands(sweep).discover()]
        offered = {type(provider).__name__ for provider in (*sweep.COMMANDS, *type(app).COMMANDS)}
        assert "ExplorerCommands" not in offered and "FileFinder" not in offered
        names = [hit.text for hit in hits]
        assert names and all(name.startswith("sweep: ") for name in names), names
        for hit in hits:
            if "back to the explorer" in (hit.text or ""):
                continue  # leaves the sweep (checked last)
            await hit.command()
            await pilot.pause(0.3)
            while app.screen is not sweep:  # a command that opened a view: back to the sweep
                await pilot.press("escape")
                await pilot.pause(0.2)
            assert app.options == before, f"{hit.text} changed the explorer's parameters"
        assert not (project / ".chunk-explorer.toml").exists()


async def test_the_source_grows_with_the_terminal_and_a_maximized_pane_fills_it(project: Path):
    app = make_app(project / "inventory.py")
    async with app.run_test(size=(80, 24)) as pilot:
        await opened(pilot, app)
        screen = app.explore
        source = screen.query_one(SourceView)
        widths = {}
        for size in ((80, 24), (120, 36), (160, 45)):
            await pilot.resize_terminal(*size)
            await pilot.pause(0.2)
            widths[size[0]] = source.region.width
            left, right = screen.query_one("#left"), screen.query_one("#right")
            if size[0] >= 120:  # both side columns show, narrower than the source
                assert left.display and right.display and source.region.width > right.region.width
        assert widths[80] >= 36 and widths[120] >= 52 and widths[160] >= widths[120] + 25, widths
        # z on the chunk text (7) fills the screen but the footer, whatever its height in the layout.
        await pilot.press("7", "z")
        await pilot.pause(0.2)
        detail = screen.query_one("#detail")
        assert screen.maximized is detail
        footer = screen.query_one(KeyFooter)
        assert footer.display and footer.region.height == 1
        assert detail.region.width == 160 and detail.region.height >= 45 - 2, detail.region
        await pilot.press("escape")
        await pilot.pause()
        assert screen.maximized is None


def test_help_text_reflows_sentences_and_keeps_tables():
    from explorer.tui.screens.help import paragraphs

    text = """
First sentence goes on
onto a second line. Then a new one:
  ┃  a mark          ✂  another
Stats: one line.
Next line.
"""
    assert paragraphs(text) == ["First sentence goes on onto a second line. Then a new one:",
                                "  ┃  a mark          ✂  another", "Stats: one line.", "Next line."]
