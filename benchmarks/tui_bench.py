"""How fast the explorer is on a 50,000-line file, measured through Textual's test harness.

    python benchmarks/tui_bench.py [--lines 50000] [--runs 3]

Prints medians of:
* first paint: app start until the UI is drawn, until the file's text is shown
  (big files are shown before they are parsed), and until its chunks are shown
  (read, parse, structure, chunk, all panes);
* page scroll: one page down in the source view until the next frame is composed
  (a page not seen before: lexing, painting, the whole screen composed), and until
  everything has settled through Pilot (chunk list, detail, AST and scope following);
* re-chunk: a max-size change (the ``+`` key) until the frame showing the new
  chunking is drawn, and until everything has settled through Pilot (whose idle
  detection sleeps in 20 ms steps until the process is quiet: it adds some 60-90 ms);
* UI responsiveness while a file is parsed in a worker: the longest the UI loop
  went without running (a 10 ms timer on the UI measures the gaps).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from explorer.engine.options import ChunkOptions
from explorer.tui.app import ChunkExplorerApp
from explorer.tui.document.messages import ChunksReady, FileOpened
from explorer.tui.widgets.source.view import SourceView

SIZE = (200, 50)

TEMPLATE = '''

class Service{n}:
    """Service number {n}: keeps a cache of records and answers lookups.

    The cache is refreshed lazily; entries expire after ``ttl`` seconds.
    """

    def __init__(self, store, ttl: float = 30.0):
        self.store = store
        self.ttl = ttl
        self._cache: dict[str, tuple[float, dict]] = {{}}

    def lookup(self, key: str, now: float) -> dict | None:
        """Return the record for ``key``, from the cache while it is fresh."""
        hit = self._cache.get(key)
        if hit is not None and now - hit[0] < self.ttl:
            return hit[1]
        record = self.store.get(key)
        if record is not None:
            self._cache[key] = (now, record)
        return record

    def evict(self, now: float) -> int:
        stale = [k for k, (at, _) in self._cache.items() if now - at >= self.ttl]
        for key in stale:
            del self._cache[key]
        return len(stale)


def helper_{n}(values: list[int], scale: int = {n}) -> list[int]:
    # Scale, clamp and sort the values.
    out = []
    for value in values:
        scaled = value * scale
        out.append(max(0, min(scaled, 10_000)))
    return sorted(out)
'''


def make_file(lines: int, directory: Path) -> Path:
    header = '"""A generated module for the explorer benchmark."""\n\nfrom __future__ import annotations\n'
    parts = [header]
    count = header.count("\n")
    n = 0
    while count < lines:
        block = TEMPLATE.format(n=n)
        parts.append(block)
        count += block.count("\n")
        n += 1
    path = directory / "big_module.py"
    path.write_text("".join(parts))
    return path


async def wait_for(pilot, predicate, timeout: float = 120.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise TimeoutError("timed out")
        await pilot.pause(0.005)


def idle(app: ChunkExplorerApp) -> bool:
    return not app.service.busy and not any(
        w.group in ("open", "chunk") and not w.is_finished for w in app.workers
    )


async def one_run(path: Path, pages: int, changes: int) -> dict[str, list[float]]:
    results: dict[str, list[float]] = {
        k: [] for k in ("ui", "text", "shown", "page", "page_render", "rechunk", "rechunk_drawn", "gap",
                        "ui_cpu", "text_cpu", "shown_cpu", "page_render_cpu", "rechunk_cpu", "rechunk_drawn_cpu")
    }
    gaps: list[float] = []
    painted: dict[str, tuple[float, float]] = {}
    started = time.perf_counter()
    started_cpu = time.process_time()
    app = ChunkExplorerApp(str(path), ChunkOptions(), watch=False)

    def stamp(name: str) -> None:
        painted.setdefault(name, (time.perf_counter() - started, time.process_time() - started_cpu))

    #: When the last +/- was pressed (wall, CPU), while a re-chunk is awaited.
    pressed: list[tuple[float, float]] = []

    def drawn() -> None:
        if pressed:
            t0, c0 = pressed.pop()
            results["rechunk_drawn"].append(time.perf_counter() - t0)
            results["rechunk_drawn_cpu"].append(time.process_time() - c0)

    def on_message(message) -> None:
        # A document is on screen after the refresh that follows its handling
        # (the hook sees a message just before it is handled).
        if isinstance(message, FileOpened):
            name = "text" if message.document.file.partial else "shown"
            app.call_after_refresh(stamp, name)
        elif isinstance(message, ChunksReady) and pressed:
            app.call_after_refresh(drawn)

    last = [time.perf_counter()]

    def tick() -> None:
        now = time.perf_counter()
        gaps.append(now - last[0])
        last[0] = now

    async with app.run_test(size=SIZE, message_hook=on_message) as pilot:
        results["ui"].append(time.perf_counter() - started)
        results["ui_cpu"].append(time.process_time() - started_cpu)
        app.set_interval(0.01, tick)
        last[0] = time.perf_counter()
        source = app.explore.query_one(SourceView)
        await wait_for(pilot, lambda: "shown" in painted and idle(app))
        for name in ("text", "shown"):
            wall, cpu = painted.get(name, painted["shown"])
            results[name].append(wall)
            results[name + "_cpu"].append(cpu)
        results["gap"].append(max(gaps) if gaps else 0.0)

        source.focus()
        await pilot.pause()
        for _ in range(pages):
            t0 = time.perf_counter()
            await pilot.press("pagedown")
            results["page"].append(time.perf_counter() - t0)
        compositor = app.screen._compositor  # private, but it is what draws a frame
        for _ in range(pages):
            t0, c0 = time.perf_counter(), time.process_time()
            source.action_page_down()
            compositor.render_full_update()
            results["page_render"].append(time.perf_counter() - t0)
            results["page_render_cpu"].append(time.process_time() - c0)

        for i in range(changes):
            before = app.document
            t0, c0 = time.perf_counter(), time.process_time()
            pressed[:] = [(t0, c0)]
            await pilot.press("plus" if i % 2 == 0 else "minus")
            await wait_for(pilot, lambda before=before: app.document is not before and idle(app))
            await pilot.pause()
            for y in range(source.size.height):
                source.render_line(y)
            results["rechunk"].append(time.perf_counter() - t0)
            results["rechunk_cpu"].append(time.process_time() - c0)
    return results


def ms(values: list[float]) -> str:
    return f"{statistics.median(values) * 1000:8.1f} ms" if values else "     n/a"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lines", type=int, default=50_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--pages", type=int, default=20)
    parser.add_argument("--changes", type=int, default=6)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        path = make_file(args.lines, Path(tmp))
        data = path.read_bytes()
        line_count = data.count(b"\n")
        print(f"file: {line_count} lines, {len(data) / 1e6:.2f} MB; terminal {SIZE[0]}x{SIZE[1]}; "
              f"{args.runs} runs; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
        merged: dict[str, list[float]] = {}
        for _ in range(args.runs):
            gc.collect()  # start each run like a fresh process, without the last run's garbage
            for key, values in asyncio.run(one_run(path, args.pages, args.changes)).items():
                merged.setdefault(key, []).extend(values)
    def row(label: str, key: str, note: str = "") -> None:
        cpu = f"{ms(merged[key + '_cpu'])} CPU" if key + "_cpu" in merged else " " * 15
        print(f"{label:<38}{ms(merged[key])} wall {cpu}   {note}")

    print("median of the runs; CPU = this process's CPU time (all threads): on a busy machine it is")
    print("closer than wall time to what an idle one shows")
    row("first paint, UI drawn", "ui")
    row("first paint, the file's text shown", "text", "(read, highlight the first screen)")
    row("first paint, chunks shown", "shown", "(+ parse, structure, chunk, all panes)")
    row("page down, until the frame is drawn", "page_render", "(a fresh page: highlight, paint, compose)")
    row("page down, until all panes settled", "page", "(Pilot; the trees follow after a 120 ms rest)")
    row("re-chunk after + / -, frame drawn", "rechunk_drawn", f"({len(merged['rechunk_drawn'])} changes; "
        f"slowest {max(merged['rechunk_drawn'], default=0) * 1000:.0f} ms)")
    row("re-chunk after + / -, all settled", "rechunk", f"(Pilot; slowest {max(merged['rechunk'], default=0) * 1000:.0f} ms)")
    row("longest UI stall while loading", "gap", "(10 ms timer on the UI loop; ideal ~10 ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
