"""History queries in the explorer: the sweep's queries field, the trade-off drawn with
the CLI's own cells (the same run agrees point for point with ``eval`` in text and JSON),
and the queries view showing a commit's subject and targets, ``t`` teaching the target's file."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from rich.console import Console
from textual.widgets import Input, Static

from explorer.cli.main import main
from explorer.tui.queries.screen import QueriesScreen
from explorer.tui.queries.table import QueryTable
from explorer.tui.sweep.retrieval import RetrievalPanel
from explorer.tui.sweep.screen import SweepScreen
from explorer.tui.teach.screen import TeachScreen

from .helpers import SIZE, focus, make_app, notified, wait_for

SIZES = "60, 300, 3000"


@pytest.fixture(autouse=True)
def _in_process(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(SweepScreen, "jobs", 1)
    monkeypatch.setattr(QueriesScreen, "jobs", 1)


def rendered(renderable) -> str:
    console = Console(width=220, record=True, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


def tradeoff_lines(text: str) -> list[str]:
    """The trade-off table's rows, spaces collapsed (the two faces pad differently)."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip().startswith("Trade-off:"))
    rows = []
    for line in lines[start + 2:]:
        if not line.strip() or not line.strip()[0].isdigit():
            break
        rows.append(" ".join(line.split()))
    return rows


async def test_the_sweep_evaluates_history_and_draws_the_clis_tradeoff(history_repo: Path, capsys):
    app = make_app(history_repo, max_size=300)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.action_sweep()
        await wait_for(pilot, lambda: isinstance(app.screen, SweepScreen) and app.screen.result is not None,
                       what="the sweep")
        screen = app.screen
        panel = screen.query_one(RetrievalPanel)
        sizes = screen.query_one("#sweep-sizes", Input)
        sizes.value = SIZES
        screen.query_one("#sweep-queries", Input).value = "history"
        await focus(pilot, sizes)
        await pilot.press("enter")  # the sweep runs again, then the retrieval with history queries
        await wait_for(pilot, lambda: panel.run is not None and len(panel.run.settings) == 3,
                       what="the retrieval evaluation")
        run = panel.run
        assert {q.origin for q in run.result.queries} == {"history"}
        chart = rendered(panel.query_one("#retrieval-chart", Static).content)
        assert "queries from history" in chart and "History: " in chart
        assert "Per query source" in chart
        explorer_rows = tradeoff_lines(chart)
        ours = run.front.to_dict(run.result)

        # the queries view: the commit's subject, its targets, and t teaches the target's file
        await pilot.press("v")
        await wait_for(pilot, lambda: isinstance(app.screen, QueriesScreen), what="the queries view")
        view: QueriesScreen = app.screen  # type: ignore[assignment]
        table = view.query_one(QueryTable)
        await wait_for(pilot, lambda: table.row_count == len(run.result.queries), what="the query list")
        row = next(q for q, query in enumerate(run.result.queries) if query.subject.startswith("Escape every shell"))
        await focus(pilot, table)
        table.move_cursor(row=table.get_row_index(str(row)))
        await pilot.pause()
        cells = [str(cell) for cell in table.get_row(str(row))]
        assert cells[1].startswith("src/app/commands.py:")
        assert cells[-1].startswith("Escape every shell")
        detail = rendered(view.query_one("#queries-detail", Static).content)
        query = run.result.queries[row]
        assert f"commit {query.commit[:10]}" in detail
        assert "The quote_argument helper missed backticks" in detail
        assert "function quote_argument in src/app/commands.py" in detail and "named in its message" in detail
        await pilot.press("t")
        await wait_for(pilot, lambda: isinstance(app.screen, TeachScreen), what="teach mode")
        assert str(app.screen.path).endswith("src/app/commands.py")

    # the same directory and grid through the CLI, in text and in JSON
    argv = [str(history_repo), "--queries", "history", "--max-size", SIZES.replace(" ", ""), "--no-settings"]
    capsys.readouterr()
    assert main(["eval", *argv, "--no-chart", "--reference", "2"]) == 0
    text = capsys.readouterr().out
    assert main(["eval", *argv, "--json", "--reference", "2"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert tradeoff_lines(text) == explorer_rows
    # point for point (the advice placed on them may differ: the explorer's settings in use are #2)
    assert document["pareto"]["points"] == ours["points"] and document["pareto"]["fronts"] == ours["fronts"]


async def test_a_bad_query_source_is_refused_with_the_valid_ones(history_repo: Path):
    app = make_app(history_repo, max_size=300)
    seen: list = []
    async with app.run_test(size=SIZE, message_hook=seen.append) as pilot:
        await pilot.pause()
        app.action_sweep()
        await wait_for(pilot, lambda: isinstance(app.screen, SweepScreen) and app.screen.result is not None,
                       what="the sweep")
        screen = app.screen
        queries = screen.query_one("#sweep-queries", Input)
        queries.value = "docs,commits"
        await focus(pilot, queries)
        await pilot.press("enter")
        await pilot.pause()
        messages = [n.message for n in notified(seen)]
        assert any("docs, calls, types, history" in m for m in messages), messages
