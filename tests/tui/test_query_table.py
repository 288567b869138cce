"""The queries view's table keeps its rows aligned under its header however early it is drawn.

DataTable measures auto-width columns only when it is next idle, and the cells it drew
before that keep their old widths. On a busy machine the screen can paint the table
between the rows being added and that moment: the rows drawn then stayed narrower than
the header (ranks under the wrong setting) until the cursor passed over them."""

from __future__ import annotations

from explorer.tui.queries.screen import QueriesScreen

from .helpers import FIXTURES, make_app, wait_for, wait_until_idle


async def test_rows_drawn_before_the_table_is_idle_keep_the_final_column_widths(monkeypatch) -> None:
    monkeypatch.setattr(QueriesScreen, "jobs", 1)
    app = make_app(FIXTURES / "inventory.py")
    async with app.run_test(size=(160, 45)) as pilot:
        await wait_for(pilot, lambda: app.document is not None, what="the file")
        await wait_until_idle(pilot, app)
        await pilot.press("r")
        await wait_for(pilot, lambda: isinstance(app.screen, QueriesScreen) and app.screen.run is not None,
                       what="the evaluation")
        screen = app.screen
        assert isinstance(screen, QueriesScreen) and screen.run is not None
        table, run = screen.table, screen.run
        targets = [f"{q.path}:{q.line_start + 1}" for q in run.result.queries]
        assert len(targets) >= 3

        table.show_run(run)
        rows = range(1, 1 + len(targets))  # below the header
        early = [table.render_line(y).text for y in rows]  # painted before the table is next idle
        await pilot.pause()
        table.move_cursor(row=2)
        await wait_for(pilot, lambda: table.cursor_row == 2, what="the cursor")
        await pilot.pause()
        late = [table.render_line(y).text for y in rows]
        header = table.render_line(0).text
        for lines in (early, late):
            assert [target in line for target, line in zip(targets, lines)] == [True] * len(targets), lines
        # every rank sits under its setting's header, on every row
        for k, setting in enumerate(run.settings):
            label = " ".join(str(getattr(setting.options, name)) for name in run.result.varied)
            end = header.index(label) + len(label)
            for q, line in enumerate(late):
                rank = table.get_row_at(q)[2 + k].plain
                assert line[end - len(rank):end] == rank, (label, line)
