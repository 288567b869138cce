"""How the repository view behaves on a repository of about 2,000 files, measured through Textual's test harness.

    python benchmarks/repository_view_bench.py [--files 2000] [--runs 1] [--jobs N]

The files are copied from the Python standard library into a temporary folder. Prints
medians of:
* first rows: ``R`` pressed until the first files are listed (walk, start of the pool);
* complete: until every file is chunked and its problems listed;
* the same work headless: the engine's batch with the problems analyzer, no UI (the ratio
  says what showing rows as they arrive costs);
* the longest the UI loop went without running during the scan, and the 95th percentile
  (a 10 ms timer on the UI measures the gaps; ideal ~10 ms), next to the same timer
  over 5 s with the app idle (on a loaded machine, the load alone makes gaps);
* a filter key (``f``) and a sort key (``s``) with every row listed, until the view has settled;
* the results cache: each run scans with an empty cache (the first scan), then again as the
  next start would, every file unchanged (the second scan: every row from the cache).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import statistics
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from explorer.engine.batch import BatchFile, chunk_batch_stream
from explorer.engine.measure.analyzers import analyze_problems
from explorer.engine.options import ChunkOptions
from explorer.tui.app import ChunkExplorerApp
from explorer.tui.repository.screen import RepositoryScreen
from explorer.workspace.cache_dir import CACHE_VARIABLE
from explorer.workspace.walk import plan


def make_repository(target: Path, count: int) -> int:
    """Copy up to ``count`` stdlib Python files (under 200 KB) into ``target``."""
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    copied = 0
    for path in sorted(stdlib.rglob("*.py")):
        if "site-packages" in path.parts or not path.is_file() or path.stat().st_size > 200_000:
            continue
        rel = path.relative_to(stdlib)
        (target / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target / rel)
        copied += 1
        if copied >= count:
            break
    return copied


async def one_run(root: Path, jobs: int | None, idle: bool = True) -> dict[str, float]:
    RepositoryScreen.jobs = jobs
    app = ChunkExplorerApp(str(root), ChunkOptions(), watch=False, show_timings=False)
    result: dict[str, float] = {}
    gaps: list[float] = []
    async with app.run_test(size=(160, 45)) as pilot:
        await pilot.pause(0.3)
        last = [time.perf_counter()]

        def tick() -> None:
            now = time.perf_counter()
            gaps.append(now - last[0])
            last[0] = now

        # The same timer with nothing to do first: what the machine's load alone costs.
        timer = app.set_interval(0.01, tick)
        await asyncio.sleep(5 if idle else 0)
        timer.stop()
        result["idle_gap"] = max(gaps) if gaps else 0.0
        result["idle_p95"] = sorted(gaps)[int(0.95 * (len(gaps) - 1))] if gaps else 0.0
        gaps.clear()
        last[0] = time.perf_counter()
        started = time.perf_counter()
        # The timer runs before the key: the screen's mount is UI work too, and a timer started
        # after ``press`` returns would count Pilot's own wait as the first gap.
        timer = app.set_interval(0.01, tick)
        await pilot.press("R")
        while not (isinstance(app.screen, RepositoryScreen) and app.screen.model.files):
            await asyncio.sleep(0.005)
        result["first"] = time.perf_counter() - started
        while not app.screen.model.complete:
            await asyncio.sleep(0.01)
        result["complete"] = time.perf_counter() - started
        timer.stop()
        result["gap"] = max(gaps) if gaps else 0.0
        result["p95"] = sorted(gaps)[int(0.95 * (len(gaps) - 1))] if gaps else 0.0
        result["files"] = len(app.screen.model.files)
        result["problems"] = sum(len(f.found.problems) for f in app.screen.model.files)
        for key, name in (("f", "filter"), ("s", "sort")):
            started = time.perf_counter()
            await pilot.press(key)
            await pilot.pause()
            result[name] = time.perf_counter() - started
    return result


def headless(root: Path, jobs: int | None) -> float:
    started = time.perf_counter()
    files = plan([str(root)], root=str(root)).files
    for _ in chunk_batch_stream([BatchFile(path=f.path, name=f.rel) for f in files], jobs=jobs,
                                analyze=analyze_problems, keep_chunks=False, options=ChunkOptions()):
        pass
    return time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--files", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=None, help="worker processes (default: every core)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder) / "repo"
        root.mkdir()
        copied = make_repository(root, args.files)
        size = sum(p.stat().st_size for p in root.rglob("*.py")) / 1e6
        print(f"{copied:,} files, {size:.1f} MB (stdlib copies), jobs={args.jobs or os.cpu_count()}")
        cache = Path(folder) / "cache"
        os.environ[CACHE_VARIABLE] = str(cache)  # the user's own cache stays as it is
        runs, seconds = [], []
        for _ in range(args.runs):
            shutil.rmtree(cache, ignore_errors=True)
            runs.append(asyncio.run(one_run(root, args.jobs)))
            seconds.append(asyncio.run(one_run(root, args.jobs, idle=False)))
        stored = sum(p.stat().st_size for p in cache.rglob("*.entry")) / 1e6
        base = statistics.median(headless(root, args.jobs) for _ in range(args.runs))

    def med(key: str, of: list[dict[str, float]] = runs) -> float:
        return statistics.median(r[key] for r in of)

    print(f"files listed: {int(med('files')):,}, problems: {int(med('problems')):,}")
    print(f"first rows after R          {med('first') * 1000:8.0f} ms")
    print(f"scan complete in the view   {med('complete'):8.2f} s")
    print(f"same work headless          {base:8.2f} s   (view / headless: {med('complete') / base:.2f})")
    print(f"UI loop gaps during scan    {med('gap') * 1000:8.0f} ms longest, {med('p95') * 1000:.0f} ms p95"
          "  (10 ms timer; ideal ~10 ms)")
    print(f"same timer, app idle (5 s)  {med('idle_gap') * 1000:8.0f} ms longest, {med('idle_p95') * 1000:.0f} ms p95"
          "  (the machine's load alone)")
    print(f"f (kind filter), all rows   {med('filter') * 1000:8.0f} ms  (through Pilot, which adds its idle wait)")
    print(f"s (sort), all rows          {med('sort') * 1000:8.0f} ms")
    print(f"second scan, from the cache: first rows {med('first', seconds) * 1000:.0f} ms, complete "
          f"{med('complete', seconds):.2f} s  (first scan / second: {med('complete') / med('complete', seconds):.1f}x; "
          f"{int(med('files', seconds)):,} files listed, {stored:.1f} MB of entries)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
