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
