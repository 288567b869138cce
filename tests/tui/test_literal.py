"""Names and text from disk are shown literally: never read as markup, on one line."""

from __future__ import annotations

from pathlib import Path

from textual.content import Content
from textual.fuzzy import Matcher
from textual.notifications import Notify
from textual.widgets import Input

from explorer.tui.compare.screen import CompareScreen
from explorer.tui.export.dialog import ExportScreen
from explorer.tui.literal import highlighted, literal
from explorer.tui.palette.actions import ExplorerCommands
from explorer.tui.palette.samples import SampleCommands
from explorer.tui.teach.screen import TeachScreen
from explorer.tui.widgets.source.view import SourceView

from .helpers import SIZE, make_app, wait_for, wait_until_idle

CLICKABLE = "[@click=app.quit]ok.py"
BOLD = "[bold]b.py"


def shown(title: str | None) -> str:
    """What a border title draws (the getter gives it back as markup)."""
    return Content.from_markup(title or "").plain


def test_literal_content_keeps_brackets_and_shows_control_characters():
    assert literal(CLICKABLE).plain == CLICKABLE
    assert literal("two\nlines.py").plain == "two␊lines.py"
    assert not literal(BOLD).spans


def test_palette_highlight_keeps_the_name_literal():
    content = highlighted(Matcher("bold"), BOLD)
    assert content.plain == BOLD
    assert [(span.start, span.end) for span in content.spans] == [(1, 2), (2, 3), (3, 4), (4, 5)]


async def test_file_names_with_markup_show_literally_in_titles_and_notifications(tmp_path: Path):
    for name in (CLICKABLE, BOLD):
        (tmp_path / name).write_text("def f():\n    return 1\n")
    messages: list = []
    app = make_app(tmp_path / CLICKABLE)
    async with app.run_test(size=SIZE, message_hook=messages.append) as pilot:
        await wait_for(pilot, lambda: app.document is not None, what="the file")
        await wait_until_idle(pilot, app)
        source = app.explore.query_one(SourceView)
        assert shown(source.border_title) == CLICKABLE
        assert app.explore.sub_title == CLICKABLE

        app.open_file(str(tmp_path / BOLD))
        await wait_for(pilot, lambda: app.document is not None and app.document.path.endswith(BOLD), what="b.py")
        await wait_until_idle(pilot, app)
        assert shown(source.border_title) == BOLD

        # Deleted on disk: the subtitle names it, literally.
        (tmp_path / BOLD).unlink()
        app.problem = f"{BOLD} was deleted"
        await pilot.pause()
        assert shown(source.border_subtitle).startswith(f"{BOLD} was deleted")

        app.action_save_settings()
        await pilot.pause()
        # An export to a file whose name is markup: the notification names it literally.
        await pilot.press("e")
        await wait_for(pilot, lambda: isinstance(app.screen, ExportScreen), what="the export dialog")
        app.screen.query_one(Input).value = str(tmp_path / "[red]out.json")
        await pilot.press("enter")
        await wait_for(pilot, lambda: any(isinstance(m, Notify) and m.notification.title == "Exported"
                                          for m in messages), what="the export")
        notes = [m.notification for m in messages if isinstance(m, Notify)]
        assert any("[red]out.json" in n.message for n in notes)
        assert len(notes) >= 2 and all(not n.markup for n in notes)

        await pilot.press("t")
        await wait_for(pilot, lambda: isinstance(app.screen, TeachScreen), what="teach mode")
        assert shown(app.screen.query_one("#teach-source").border_title) == BOLD
        assert app.screen.sub_title == BOLD
        await pilot.press("escape")
        await pilot.press("c")
        await wait_for(pilot, lambda: isinstance(app.screen, CompareScreen), what="the compare view")
        assert app.screen.sub_title == BOLD


async def test_palette_entries_show_sample_descriptions_literally(tmp_path: Path):
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        hits = [hit async for hit in SampleCommands(app.screen).discover()]
        hits += [hit async for hit in ExplorerCommands(app.screen).discover()]
        rust = next(hit for hit in hits if hit.text == "teach: open sample inventory.rs")
        # What the palette draws: Content.from_markup of the prompt and of the help.
        assert "#[derive]" in Content.from_markup(rust.help).plain
        assert Content.from_markup(rust.prompt).plain == "teach: open sample inventory.rs"
        found = [hit async for hit in SampleCommands(app.screen).search("rs")]
        assert all(Content.from_markup(hit.prompt).plain == hit.text for hit in found)


async def test_a_file_beside_the_root_with_the_same_prefix_is_titled_by_its_full_path(tmp_path: Path):
    root = tmp_path / "proj"
    root.mkdir()
    (root / "a.py").write_text("a = 1\n")
    beside = tmp_path / "project2" / "b.py"  # "/…/proj" is a prefix of "/…/project2"
    beside.parent.mkdir()
    beside.write_text("b = 2\n")
    app = make_app(root)
    async with app.run_test(size=SIZE) as pilot:
        app.open_file(str(root / "a.py"))
        await wait_for(pilot, lambda: app.document is not None, what="a.py")
        source = app.explore.query_one(SourceView)
        assert shown(source.border_title) == "a.py"
        app.open_file(str(beside))
        await wait_for(pilot, lambda: app.document.path == str(beside), what="b.py")
        await pilot.pause()
        assert shown(source.border_title) == str(beside)
