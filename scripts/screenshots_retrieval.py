"""Screenshots of the retrieval views (the sweep's whiskers, the queries view), from the real app.

    python scripts/screenshots_retrieval.py [--out screenshots] [--only sweep|queries|history]

All evaluate this repository's own ``explorer`` package: queries from its docstrings, and
(``history``) from the commits of this checkout that changed it.
Writes SVG files and, where ``rsvg-convert`` is installed, PNG files beside them.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "scripts"))

from screenshots_teach import make_app, save, wait_for  # noqa: E402

from explorer.engine.options import ChunkOptions  # noqa: E402
from explorer.tui.queries.model import spread  # noqa: E402
from explorer.tui.queries.screen import QueriesScreen, default_settings  # noqa: E402
from explorer.tui.queries.table import QueryTable  # noqa: E402
from explorer.tui.sweep.retrieval import RetrievalPanel  # noqa: E402
from explorer.tui.sweep.screen import SweepScreen  # noqa: E402
from screenshots import SIZE, to_png  # noqa: E402

ROOT = REPO / "explorer"
__all__ = ["to_png"]


async def sweep_shot(out: Path) -> None:
    app = make_app(ROOT, ChunkOptions(max_size=1000))
    async with app.run_test(size=SIZE) as pilot:
        app.action_sweep()
        await wait_for(pilot, lambda: isinstance(app.screen, SweepScreen) and app.screen.result is not None, 300)
        panel = app.screen.query_one(RetrievalPanel)
        await wait_for(pilot, lambda: panel.run is not None, 300)
        await pilot.pause(0.3)
        panel.scroll_visible(animate=False)
        await pilot.pause(0.3)
        save(app, out, "sweep-retrieval")


async def queries_shot(out: Path) -> None:
    app = make_app(ROOT, ChunkOptions(max_size=500))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.5)
        await pilot.press("r")
        await wait_for(pilot, lambda: isinstance(app.screen, QueriesScreen) and app.screen.run is not None, 300)
        screen = app.screen
        assert isinstance(screen, QueriesScreen) and screen.run is not None
        run = screen.run
        # A query the settings disagree on, whose top 5 holds a hit and a miss in its own file.
        chosen = max(range(len(run.result.queries)), key=lambda q: (
            len({c.hit for c in run.settings[0].outcomes[q].top if c.path == run.result.queries[q].path}),
            spread(run, q)))
        table = screen.query_one(QueryTable)
        table.focus()
        table.move_cursor(row=chosen, animate=False)
        line = run.result.queries[chosen].line_start
        view = screen.source_view
        await wait_for(pilot, lambda: view.scroll_y <= line < view.scroll_y + view.scrollable_content_region.height, 30)
        await pilot.pause(0.5)
        save(app, out, "queries")


async def history_shot(out: Path) -> None:
    app = make_app(ROOT, ChunkOptions(max_size=500))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.5)
        app.push_screen(QueriesScreen(str(ROOT), settings=default_settings(ChunkOptions(max_size=500)),
                                      queries="history"))
        await wait_for(pilot, lambda: isinstance(app.screen, QueriesScreen) and app.screen.run is not None, 300)
        screen = app.screen
        assert isinstance(screen, QueriesScreen) and screen.run is not None
        run = screen.run
        # A commit that changed several definitions, found by some setting, its message not naming them.
        chosen = max(range(len(run.result.queries)), key=lambda q: (
            not run.result.queries[q].names_target, min(len(run.result.queries[q].more), 2),
            any(c.hit for c in run.settings[0].outcomes[q].top), spread(run, q)))
        table = screen.query_one(QueryTable)
        table.focus()
        table.move_cursor(row=table.get_row_index(str(chosen)), animate=False)
        line = run.result.queries[chosen].line_start
        view = screen.source_view
        await wait_for(pilot, lambda: view.scroll_y <= line < view.scroll_y + view.scrollable_content_region.height, 30)
        await pilot.pause(0.5)
        save(app, out, "queries-history")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(REPO / "screenshots"), help="folder for the pictures")
    parser.add_argument("--only", choices=("sweep", "queries", "history"), help="make one only")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    os.environ.setdefault("TEXTUAL_ANIMATIONS", "none")
    for name, make in {"sweep": sweep_shot, "queries": queries_shot, "history": history_shot}.items():
        if args.only in (None, name):
            asyncio.run(make(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
