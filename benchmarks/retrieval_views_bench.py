"""The explorer's retrieval views on this repository's own package, through Textual's test harness.

    python benchmarks/retrieval_views_bench.py [--root explorer] [--runs 3] [--jobs 1]

Opens the queries view (``r``: the explorer's settings, the other strategy, double the
size) and prints medians over the runs of:
* the evaluation: from the key until the queries are listed (read, chunk, BM25, score);
* showing it on the UI thread (the table filled, the first query drawn);
* choosing a query: a cursor move until Pilot finds the app idle (detail, source drawn;
  Pilot's idle detection itself adds some 60-90 ms, see tui_bench.py);
* UI responsiveness while the evaluation runs in its worker: the median, 99th
  percentile and longest gap of a 10 ms timer on the UI loop.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from explorer.engine.options import ChunkOptions  # noqa: E402
from explorer.tui.app import ChunkExplorerApp  # noqa: E402
from explorer.tui.queries.model import RetrievalRun  # noqa: E402
from explorer.tui.queries.screen import QueriesScreen  # noqa: E402
from explorer.tui.queries.table import QueryTable  # noqa: E402


async def wait_for(pilot, predicate, timeout: float = 300.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise TimeoutError("the app did not get there in time")
        await pilot.pause(0.01)


async def one_run(root: Path) -> dict[str, float]:
    app = ChunkExplorerApp(str(root), ChunkOptions(max_size=500), watch=False, show_timings=False)
    figures: dict[str, float] = {}
    shown: list[float] = []
    show_run = QueriesScreen._show_run

    def timed_show_run(self: QueriesScreen, run: RetrievalRun) -> None:
        started = time.perf_counter()
        show_run(self, run)
        shown.append(time.perf_counter() - started)

    QueriesScreen._show_run = timed_show_run  # type: ignore[method-assign]
    gaps: list[float] = []
    try:
        async with app.run_test(size=(180, 48)) as pilot:
            await pilot.pause(0.5)
            last = [time.perf_counter()]

            def tick() -> None:
                now = time.perf_counter()
                gaps.append(now - last[0])
                last[0] = now

            timer = app.set_interval(0.01, tick)
            started = time.perf_counter()
            await pilot.press("r")
            await wait_for(pilot, lambda: isinstance(app.screen, QueriesScreen) and app.screen.run is not None)
            figures["evaluation s"] = time.perf_counter() - started
            timer.stop()
            screen = app.screen
            table = screen.query_one(QueryTable)
            moves = []
            for row in (10, 50, 100, 150):
                started = time.perf_counter()
                table.move_cursor(row=min(row, table.row_count - 1))
                await pilot.pause()
                moves.append(time.perf_counter() - started)
            figures["choose a query ms"] = 1000 * statistics.median(moves)
            assert isinstance(screen, QueriesScreen) and screen.run is not None
            figures["queries"] = len(screen.run.result.queries)
    finally:
        QueriesScreen._show_run = show_run  # type: ignore[method-assign]
    gaps.sort()
    figures["show on UI thread ms"] = 1000 * shown[0]
    figures["UI gap median ms"] = 1000 * statistics.median(gaps)
    figures["UI gap p99 ms"] = 1000 * gaps[int(0.99 * (len(gaps) - 1))]
    figures["UI gap max ms"] = 1000 * gaps[-1]
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=str(REPO / "explorer"), help="the directory to evaluate")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=0, help="worker processes (0: every core)")
    args = parser.parse_args()
    os.environ.setdefault("TEXTUAL_ANIMATIONS", "none")
    QueriesScreen.jobs = args.jobs or None
    runs = [asyncio.run(one_run(Path(args.root))) for _ in range(args.runs)]
    print(f"queries view on {args.root} ({runs[0]['queries']:.0f} queries, 3 settings, "
          f"jobs={args.jobs or 'all cores'}), medians of {args.runs} runs:")
    for name in runs[0]:
        if name != "queries":
            print(f"  {name:<22} {statistics.median(r[name] for r in runs):8.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
