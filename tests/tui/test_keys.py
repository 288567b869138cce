"""Keys that belong to their screen: footers, help, Escape, focused fields, layout keys, the palette's file search."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from textual.widgets import Input

from explorer.tui.screens.explore import ExploreScreen
from explorer.tui.screens.help import HelpScreen
from explorer.tui.screenshot import save_screenshot
from explorer.tui.sweep.screen import SweepScreen
from explorer.tui.teach.screen import TeachScreen
from explorer.tui.tools import open_teach
from explorer.tui.widgets.footer import KeyFooter, fit, key_width
from explorer.tui.widgets.footer_key import FooterKey
from explorer.tui.widgets.source.view import SourceView

from .helpers import SIZE, make_app, run_from_palette, settled, wait_for, wait_until_idle


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
        assert {"Size+", "Teach", "Compare", "Zoom", "Help", "Quit"} <= set(footer_keys(app))
        app.action_sweep()
        await wait_for(pilot, lambda: isinstance(app.screen, SweepScreen), what="the sweep")
        await pilot.pause()
        app.screen.query_one("#sweep-table").focus()
        await pilot.pause()
        shown = footer_keys(app)
        assert "Size+" not in shown and "Teach" not in shown and "Compare" not in shown
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


async def test_a_focused_field_gets_its_characters_and_the_footer_says_so(project: Path):
    app = make_app(project / "inventory.py")
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot, app)
        await pilot.press("2")
        assert "Size+" in footer_keys(app) and "Next" in footer_keys(app)
        await pilot.press("6")  # the parameters: the max size field
        await pilot.pause()
        assert isinstance(app.screen.focused, Input)
        shown = footer_keys(app)
        assert "Size+" not in shown and "Next" not in shown and "Teach" not in shown
        assert "Help" not in shown  # the field takes ? too (and refuses it: it holds a number)
        size, overlap = app.options.max_size, app.options.overlap_lines
        await pilot.press("plus", "greater_than_sign", "n", "t")
        await settled(pilot)
        assert isinstance(app.screen, ExploreScreen)
        assert (app.options.max_size, app.options.overlap_lines) == (size, overlap)


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
        everything = ["Size+", "Size-", "Teach", "Compare", "Zoom", "Next problem", "Find", "Repository", "Next"]
        kept = [name for name in everything if name in shown]
        assert kept == everything[: len(kept)], "the least used keys go first"
        if width >= 160:
            assert "Overlap+" in shown


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
                       what="the evaluation", timeout=30)
        screen: QueriesScreen = app.screen  # type: ignore[assignment]
        run = screen.run
        assert run is not None
        table = screen.query_one(QueryTable)
        row = next(q for q, query in enumerate(run.result.queries) if query.path == "router.ts")
        table.focus()
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
                       what="the new evaluation", timeout=30)
        assert [s.options for s in screen.run.settings] == [picker.candidates[0], wanted[0]]  # type: ignore[union-attr]
        assert screen.run.result.varied == ["context_mode"]  # type: ignore[union-attr]
