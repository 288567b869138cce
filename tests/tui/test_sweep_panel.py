"""The sweep panel: runs the engine's sweep over the explored directory, lists settings, saves one."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console
from textual.widgets import Input, Static

from explorer.engine.measure.sweep import settings_grid
from explorer.engine.options import ChunkOptions, option_values
from explorer.tui.sweep.advice import AdviceLine
from explorer.tui.sweep.screen import SweepScreen
from explorer.tui.sweep.table import SweepTable
from explorer.tui.widgets.footer import KeyFooter
from explorer.workspace.settings import SETTINGS_FILE, read_settings_file
from explorer.workspace.sweep import sweep_paths

from .helpers import SIZE, focus, make_app, notified, wait_for


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


def column(table: SweepTable, key: str) -> list[str]:
    """The cells of one column, top to bottom (the columns shown depend on the width)."""
    return [str(table.get_cell(row_key, key)) for row_key in table.rows]


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
        table = screen.query_one(SweepTable)
        assert table.row_count == 5
        assert column(table, "setting") == ["500", "1,000", "1,500", "2,000", "3,000"]
        assert column(table, "chunks") == [f"{s.chunks:,}" for s in want.settings]
        assert column(table, "#")[2].startswith("3*"), "the setting in use is marked"
        chart = rendered(screen.query_one("#sweep-chart", Static).content)
        for setting in want.settings:  # one bar row per setting, with its figures
            assert f"{setting.options.max_size:,}" in chart and f"{setting.chunks:,}" in chart
        assert "index size" in chart and "split defs%" in chart

        # Other sizes, typed in the field.
        sizes = screen.query_one("#sweep-sizes", Input)
        sizes.value = "200, 400"
        await focus(pilot, sizes)
        first = screen.result
        await pilot.press("enter")
        await wait_for(pilot, lambda: screen.result is not first, what="the second sweep")
        assert [s.options.max_size for s in screen.result.settings] == [200, 400]
        assert table.row_count == 2

        sizes.value = "big"
        await focus(pilot, sizes)
        before = screen.sweeping.generation
        await pilot.press("enter")
        await pilot.pause()
        assert screen.sweeping.generation == before, "nothing runs on bad input"
        assert any(n.message == "max_size must be a whole number of at least 1, got 'big'" for n in notified(messages))
        assert not (project / SETTINGS_FILE).exists(), "nothing is saved unless asked"
        assert screen.focused is sizes, "a bad value keeps the field"
        await pilot.press("escape")  # escape leaves the field for the table, the sweep stays
        assert screen.focused is table and app.screen is screen

        # Pick the second row: s applies it and writes the settings file, and says what it wrote.
        table.move_cursor(row=1)
        await pilot.press("s")
        await wait_for(pilot, lambda: (project / SETTINGS_FILE).exists(), what="the settings file")
        assert app.options.max_size == 400
        saved = read_settings_file(project / SETTINGS_FILE)
        assert saved.options.max_size == 400
        notice = next(n.message for n in notified(messages) if n.title == "Settings saved")
        assert notice.startswith("Wrote #2 (400): max 400 nws, overlap 0, context full, ast, fit auto to ") and str(project / SETTINGS_FILE) in notice
        await wait_for(pilot, lambda: column(table, "#")[1].startswith("2*"), what="the mark to move")
        assert not column(table, "#")[0].startswith("1*")


async def test_j_ten_times_then_s_saves_row_eleven_of_twelve(project: Path):
    """One focus stop holds the rows: the keys that move the cursor and the one that saves act
    on the same row, whichever pane had the focus before."""
    app = make_app(project, max_size=1500)
    messages: list = []
    async with app.run_test(message_hook=messages.append, size=(80, 24)) as pilot:
        screen = await open_sweep(app, pilot)
        sizes = ",".join(str(100 * k) for k in range(1, 13))
        field = screen.query_one("#sweep-sizes", Input)
        field.value = sizes
        first = screen.result
        await focus(pilot, field)
        await pilot.press("enter")
        await wait_for(pilot, lambda: screen.result is not first, what="the 12-setting sweep")
        table = screen.query_one(SweepTable)
        assert table.row_count == 12 and screen.focused is table
        await pilot.press("home", *["j"] * 10, "s")
        await wait_for(pilot, lambda: (project / SETTINGS_FILE).exists(), what="the settings file")
        assert app.options.max_size == 1100
        assert read_settings_file(project / SETTINGS_FILE).options.max_size == 1100
        notice = next(n.message for n in notified(messages) if n.title == "Settings saved")
        assert notice.startswith("Wrote #11 (1,100): max 1,100 nws, overlap 0"), notice


async def test_the_sweep_has_one_focus_stop_per_pane_and_the_details_scroll(project: Path):
    app = make_app(project, max_size=1500)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_sweep(app, pilot)
        table = screen.query_one(SweepTable)
        stops = []
        for _ in range(8):
            await pilot.press("tab")
            stops.append(screen.focused.id if screen.focused is not None else None)
        # The five fields, the table, the details: nothing else takes the focus.
        assert set(stops) == {"sweep-strategy", "sweep-context", "sweep-sizes", "sweep-overlap", "sweep-queries",
                              "sweep-table", "sweep-details"}
        details = screen.query_one("#sweep-details")
        await focus(pilot, details)
        await pilot.pause()
        row = table.cursor_row
        await pilot.press("j", "s")  # the details scroll; s is the table's and does nothing here
        await pilot.pause()
        assert table.cursor_row == row and not (project / SETTINGS_FILE).exists()


async def test_the_sweep_takes_a_grid_and_shows_definitions_cut_because_too_big(project: Path):
    app = make_app(project, max_size=1500)
    messages: list = []
    async with app.run_test(message_hook=messages.append, size=SIZE) as pilot:
        screen = await open_sweep(app, pilot)
        screen.query_one("#sweep-sizes", Input).value = "60, 1500"
        screen.query_one("#sweep-overlap", Input).value = "0,3"
        screen.query_one("#sweep-strategy", Input).value = "ast, lines"
        first = screen.result
        await focus(pilot, screen.query_one("#sweep-strategy", Input))
        await pilot.press("enter")
        await wait_for(pilot, lambda: screen.result is not first, what="the grid sweep")
        result = screen.result
        grid = settings_grid(ChunkOptions(max_size=1500),
                             {"strategy": ["ast", "lines"], "max_size": [60, 1500], "overlap_lines": [0, 3]})
        assert [s.options for s in result.settings] == grid
        want = sweep_paths(str(project), grid, jobs=1)
        table = screen.query_one(SweepTable)
        labels = column(table, "setting")
        assert len(labels) == 8
        assert labels[0] == "60 · overlap 0 · ast" and labels[-1] == "1,500 · overlap 3 · lines"
        for cut, split, setting in zip(column(table, "cut too big"), column(table, "split (fit)"), want.settings):
            assert cut.startswith(f"{setting.cut_too_big:,} (")
            assert split.startswith(f"{setting.split_definitions:,} (")
        small_ast = want.settings[0]
        assert small_ast.cut_too_big > 0 and small_ast.split_definitions == 0
        chart = rendered(screen.query_one("#sweep-chart", Static).content)
        assert "cut too big%" in chart
        assert "(% of all definitions)" in chart and "(% of those that fit)" in chart  # what the shares are of

        # A bad value in any field: nothing runs, and the message says which field.
        screen.query_one("#sweep-context", Input).value = "full, most"
        await focus(pilot, screen.query_one("#sweep-context", Input))
        before = screen.sweeping.generation
        await pilot.press("enter")
        await pilot.pause()
        assert screen.sweeping.generation == before
        assert any(n.message == "context_mode must be one of none, minimal, full, got 'most'"
                   for n in notified(messages))


@pytest.mark.parametrize("size", [(80, 24), (160, 45)], ids=lambda size: f"{size[0]}x{size[1]}")
async def test_the_advice_line_is_on_screen_and_follows_the_setting_in_use(project: Path, size: tuple[int, int]):
    app = make_app(project, max_size=1500)
    async with app.run_test(size=size) as pilot:
        screen = await open_sweep(app, pilot)
        await wait_for(pilot, lambda: screen.retrieval.run is not None, what="the evaluation")
        await pilot.pause()
        line = screen.query_one(AdviceLine)
        region = line.region
        footer = screen.query_one(KeyFooter).region
        assert line.display and region.height >= 2 and region.bottom <= footer.y and region.right <= size[0]
        before = rendered(line.content)
        assert before.startswith("Advice: ") and "#3" in before, before  # 1,500 is in use: #3
        run = screen.retrieval.run
        advised = run.settings[run.recommendation.setting].index
        other = next(k for k in range(5) if k not in (2, advised))
        table = screen.query_one(SweepTable)
        table.move_cursor(row=other)
        await pilot.press("s")
        await wait_for(pilot, lambda: rendered(line.content) != before, what="the advice to follow the save")
        after = rendered(line.content)
        assert f"#{other + 1}" in after, after
        assert screen.query_one(AdviceLine).region.bottom <= footer.y
