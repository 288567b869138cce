"""The sweep panel: runs the engine's sweep over the explored directory, lists settings, saves one."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console
from textual.widgets import DataTable, Input, Static

from explorer.engine.measure.sweep import settings_grid
from explorer.engine.options import ChunkOptions, option_values
from explorer.tui.sweep.screen import SweepScreen
from explorer.workspace.settings import SETTINGS_FILE, read_settings_file
from explorer.workspace.sweep import sweep_paths

from .helpers import SIZE, make_app, notified, wait_for


@pytest.fixture(autouse=True)
def _in_process(monkeypatch: pytest.MonkeyPatch) -> None:
    # One job: the sweep runs in the worker thread, no process pool to start in a test.
    monkeypatch.setattr(SweepScreen, "jobs", 1)


def test_the_grid_fields_read_values_as_the_cli_flags_do():
    assert option_values("max_size", "500, 1000 1500,,1000") == [500, 1000, 1500]
    for bad, message in (("", "list at least one value of max_size"),
                         ("abc", "max_size must be a whole number of at least 1, got 'abc'"),
                         ("100,-5", "max_size must be a whole number of at least 1, got -5"),
                         ("0", "max_size must be a whole number of at least 1, got 0")):
        with pytest.raises(ValueError, match=message):
            option_values("max_size", bad)


def rendered(renderable) -> str:
    console = Console(width=160, record=True, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


async def open_sweep(app, pilot) -> SweepScreen:
    await pilot.pause()
    app.action_sweep()
    await wait_for(pilot, lambda: isinstance(app.screen, SweepScreen) and app.screen.result is not None,
                   what="the sweep")
    await pilot.pause()
    return app.screen  # type: ignore[return-value]


async def test_sweep_lists_settings_reruns_and_saves_the_chosen_one(project: Path):
    app = make_app(project, max_size=1500)
    messages: list = []
    async with app.run_test(message_hook=messages.append, size=SIZE) as pilot:
        screen = await open_sweep(app, pilot)
        result = screen.result
        sizes = [s.options.max_size for s in result.settings]
        assert sizes == [500, 1000, 1500, 2000, 3000]
        # The figures are the engine's sweep over the same files.
        want = sweep_paths(str(project), settings_grid(ChunkOptions(max_size=1500), {"max_size": sizes}), jobs=1)
        assert result.files == want.files >= 2  # inventory.py and router.ts
        assert [s.chunks for s in result.settings] == [s.chunks for s in want.settings]
        table = screen.query_one(DataTable)
        assert table.row_count == 5
        rows = [[str(cell) for cell in table.get_row_at(k)] for k in range(5)]
        assert [row[1] for row in rows] == ["500", "1,000", "1,500", "2,000", "3,000"]
        assert [row[2] for row in rows] == [f"{s.chunks:,}" for s in want.settings]
        assert rows[2][0] == "3*", "the setting in use is marked"
        chart = rendered(screen.query_one("#sweep-chart", Static).content)
        for setting in want.settings:  # one bar row per setting, with its figures
            assert f"{setting.options.max_size:,}" in chart and f"{setting.chunks:,}" in chart
        assert "index size" in chart and "split defs%" in chart

        # Other sizes, typed in the field.
        sizes = screen.query_one("#sweep-sizes", Input)
        sizes.value = "200, 400"
        sizes.focus()
        first = screen.result
        await pilot.press("enter")
        await wait_for(pilot, lambda: screen.result is not first, what="the second sweep")
        assert [s.options.max_size for s in screen.result.settings] == [200, 400]
        assert screen.query_one(DataTable).row_count == 2

        sizes.value = "big"
        sizes.focus()  # a finished sweep puts the focus on the table
        before = screen.sweeping.generation
        await pilot.press("enter")
        await pilot.pause()
        assert screen.sweeping.generation == before, "nothing runs on bad input"
        assert any(n.message == "max_size must be a whole number of at least 1, got 'big'" for n in notified(messages))
        assert not (project / SETTINGS_FILE).exists(), "nothing is saved unless asked"

        # Pick the second row: s applies it and writes the settings file.
        table.focus()
        table.move_cursor(row=1)
        await pilot.press("s")
        await pilot.pause()
        assert app.options.max_size == 400
        saved = read_settings_file(project / SETTINGS_FILE)
        assert saved.options.max_size == 400
        assert str(table.get_row_at(1)[0]) == "2*" and str(table.get_row_at(0)[0]) == "1"




async def test_the_sweep_takes_a_grid_and_shows_definitions_cut_because_too_big(project: Path):
    app = make_app(project, max_size=1500)
    messages: list = []
    async with app.run_test(message_hook=messages.append, size=SIZE) as pilot:
        screen = await open_sweep(app, pilot)
        screen.query_one("#sweep-sizes", Input).value = "60, 1500"
        screen.query_one("#sweep-overlap", Input).value = "0,3"
        screen.query_one("#sweep-strategy", Input).value = "ast, lines"
        first = screen.result
        screen.query_one("#sweep-strategy", Input).focus()
        await pilot.press("enter")
        await wait_for(pilot, lambda: screen.result is not first, what="the grid sweep")
        result = screen.result
        grid = settings_grid(ChunkOptions(max_size=1500),
                             {"strategy": ["ast", "lines"], "max_size": [60, 1500], "overlap_lines": [0, 3]})
        assert [s.options for s in result.settings] == grid
        want = sweep_paths(str(project), grid, jobs=1)
        table = screen.query_one(DataTable)
        headers = [str(column.label) for column in table.columns.values()]
        cut, split = headers.index("cut too big"), headers.index("split (fit)")
        rows = [[str(cell) for cell in table.get_row_at(k)] for k in range(table.row_count)]
        assert len(rows) == 8
        assert rows[0][1] == "60 · overlap 0 · ast" and rows[-1][1] == "1,500 · overlap 3 · lines"
        for row, setting in zip(rows, want.settings):
            assert row[cut].startswith(f"{setting.cut_too_big:,} (")
            assert row[split].startswith(f"{setting.split_definitions:,} (")
        small_ast = want.settings[0]
        assert small_ast.cut_too_big > 0 and small_ast.split_definitions == 0
        assert "cut too big%" in rendered(screen.query_one("#sweep-chart", Static).content)

        # A bad value in any field: nothing runs, and the message says which field.
        screen.query_one("#sweep-context", Input).value = "full, most"
        screen.query_one("#sweep-context", Input).focus()
        before = screen.sweeping.generation
        await pilot.press("enter")
        await pilot.pause()
        assert screen.sweeping.generation == before
        assert any(n.message == "context_mode must be one of none, minimal, full, got 'most'"
                   for n in notified(messages))
