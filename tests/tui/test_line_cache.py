"""Line-API widgets keep their base style and lines until the style or content changes."""

from __future__ import annotations

from textual.app import App, ComposeResult

from explorer.tui.widgets.text_pane import TextPane


class PaneApp(App[None]):
    def compose(self) -> ComposeResult:
        yield TextPane()


def backgrounds(pane: TextPane) -> set:
    return {segment.style.bgcolor for segment in pane.render_line(0) if segment.style}


async def test_a_theme_change_redraws_cached_lines_in_the_new_style():
    app = PaneApp()
    async with app.run_test() as pilot:
        app.theme = "textual-dark"
        pane = app.query_one(TextPane)
        pane.set_lines([("[bold]not markup[/]", None), ("two", None)])
        await pilot.pause()
        assert pane.render_line(0).text.startswith("[bold]not markup[/]")
        dark = backgrounds(pane)
        app.theme = "textual-light"
        await pilot.pause()
        light = backgrounds(pane)
        assert dark and light and dark != light

        pane.set_lines([("changed", None)])
        assert pane.render_line(0).text.startswith("changed")


async def test_the_chunk_list_and_source_view_redraw_cached_lines_after_a_theme_change(project):
    from explorer.tui.widgets.chunks.list import ChunkList
    from explorer.tui.widgets.source.view import SourceView

    from .helpers import SIZE, make_app, wait_for, wait_until_idle

    app = make_app(project / "inventory.py")
    async with app.run_test(size=SIZE) as pilot:
        app.theme = "textual-dark"
        await wait_for(pilot, lambda: app.document is not None, what="the file to open")
        await wait_until_idle(pilot, app)
        chunk_list, source = app.explore.query_one(ChunkList), app.explore.query_one(SourceView)

        def drawn() -> tuple[set, set]:
            # A chunk row (the cursor's and another) and a line of code with its gutter.
            rows = {segment.style.bgcolor for y in (1, 2) for segment in chunk_list.render_line(y) if segment.style}
            code = {segment.style.bgcolor for segment in source.render_line(0) if segment.style}
            return rows, code

        dark = drawn()
        assert (0, True, chunk_list.size.width) in chunk_list.rows.lines  # the cursor row, cached
        app.theme = "textual-light"
        await pilot.pause()
        light = drawn()
        assert all(dark) and all(light)
        assert dark[0] != light[0] and dark[1] != light[1]
