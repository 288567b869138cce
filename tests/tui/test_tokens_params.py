"""The tokens unit in the explorer: picking it starts with an offline encoding, the
chunks fit with their header, and a tokenizer typed in applies on Enter."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input, Select

from explorer.tui.widgets.chunks.list import ChunkList
from explorer.tui.widgets.params.panel import ParamsPanel

from .helpers import SIZE, edit_field, make_app, wait_for, wait_until_idle
from .test_explorer import expected_chunks, open_app, spans


async def test_the_tokens_unit_from_the_parameters(project: Path):
    path = project / "inventory.py"
    app = make_app(path)
    async with app.run_test(size=SIZE) as pilot:
        await open_app(app, pilot)
        screen = app.explore
        screen.query_one("#size-unit", Select).value = "tokens"
        await wait_for(pilot, lambda: app.document.options.size_unit == "tokens", what="the tokens unit")
        await wait_until_idle(pilot, app)
        options = app.document.options
        assert options.tokenizer == "cl100k_base" and options.fit_embedded
        assert screen.query_one("#tokenizer", Input).value == "cl100k_base"
        chunks = app.document.chunks
        assert spans(chunks) == spans(expected_chunks(path, options, project))
        assert all(c.embedded_size <= options.max_size for c in chunks)
        # The chunk list shows the embedded size next to the size.
        chunk_list = screen.query_one(ChunkList)
        row = chunk_list._row(0, 80).text
        _, _, size, embed = chunk_list.widths  # each column as wide as its widest cell
        assert f"{chunks[0].size:>{size}} {chunks[0].embedded_size:>{embed}}" in row

        await edit_field(pilot, screen.query_one(ParamsPanel), "tokenizer")
        await pilot.press("ctrl+a", "ctrl+k", *"o200k_base", "enter")
        await wait_for(pilot, lambda: app.document.options.tokenizer == "o200k_base", what="o200k_base")
        await wait_until_idle(pilot, app)
        assert all(c.tokenizer == "o200k_base" for c in app.document.chunks)

        await edit_field(pilot, screen.query_one(ParamsPanel), "tokenizer")
        await pilot.press("ctrl+a", "ctrl+k", *"nope", "enter")
        await pilot.pause()
        assert app.document.options.tokenizer == "o200k_base"  # refused, with a message
