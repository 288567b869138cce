"""A unit change gives a sensible size in the new unit: the max size is converted by the
ratio measured on the open file (or code's typical one), the notice says which, and
tokens start with an offline tokenizer, from the parameters and from the palette."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Select

from explorer.engine.sizing import measure_for, size_in_unit
from explorer.engine.text import SourceText

from .helpers import SIZE, make_app, notified, wait_for, wait_until_idle
from .test_explorer import open_app


async def test_picking_tokens_converts_the_max_size_by_the_files_own_ratio(project: Path):
    path = project / "inventory.py"
    messages: list = []
    app = make_app(path, max_size=300)
    async with app.run_test(size=SIZE, notifications=True, message_hook=messages.append) as pilot:
        await open_app(app, pilot)
        app.explore.query_one("#size-unit", Select).value = "tokens"
        await wait_for(pilot, lambda: app.document.options.size_unit == "tokens", what="the tokens unit")
        await wait_until_idle(pilot, app)
        options = app.document.options
        source = SourceText(path.read_bytes())
        want = size_in_unit(300, measure_for("nws", None), measure_for("tokens", "cl100k_base"), source)
        assert want.measured and options.max_size == want.size
        assert 60 <= options.max_size <= 150  # about a third of 300 nws: not 300 tokens
        assert options.tokenizer == "cl100k_base"
        notice = next(n.message for n in notified(messages) if n.title == "Size unit")
        assert notice.startswith(f"max size 300 nws → {want.size} tokens ({want.ratio:.2g} tokens per nws, "
                                 "measured on inventory.py)")
        assert "tokens counted with cl100k_base" in notice

        # And back: about the size it started from, by the same file's ratio.
        app.explore.query_one("#size-unit", Select).value = "nws"
        await wait_for(pilot, lambda: app.document.options.size_unit == "nws", what="the nws unit")
        assert 270 <= app.options.max_size <= 330


async def test_the_palette_picks_tokens_without_a_tokenizer_typed(project: Path):
    app = make_app(project / "inventory.py", max_size=300)
    async with app.run_test(size=SIZE) as pilot:
        await open_app(app, pilot)
        assert app.options.tokenizer is None
        await pilot.press("ctrl+p")
        await pilot.pause(0.2)
        await pilot.press(*"params: size unit tokens")
        await wait_for(pilot, lambda: app.screen.query("CommandList") and app.screen.query("CommandList").first()
                       .option_count and "size unit tokens" in str(app.screen.query("CommandList").first()
                                                                    .get_option_at_index(0).prompt),
                       what="the palette to find the command")
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.options.size_unit == "tokens", what="the tokens unit")
        await wait_until_idle(pilot, app)
        assert app.options.tokenizer == "cl100k_base" and app.options.max_size < 300
        assert app.document.options == app.options

