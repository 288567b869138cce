"""What each visitor of ``chunk-explorer serve`` costs, and how many this machine holds.

    python benchmarks/serve_bench.py [--visitors 8] [--path explorer] [--idle 10]

Starts a server on a free loopback port and connects the visitors as a browser does (the
page, its ticket, the websocket, a resize) with aiohttp, so no browser's own cost is
counted. Then it measures, from /proc, for every visitor's app:

* memory once its first screen is drawn: RSS and PSS (PSS shares the pages several apps
  map, e.g. the Python binary, by the number of them: the figure that adds up);
* CPU while idle (a class listening), in % of one core, over ``--idle`` seconds;
* CPU while busy: each visitor opens a file with ``?open=`` and plays teach mode at 16 steps
  a second (far faster than a class follows: an upper bound), measured over the same time;
  the server chunks at ``--max-size`` (400 by default) so the file has steps to play for
  the whole measurement (the engine's chunker.py: 420 steps, 26 s at 16 a second);
* the server's own memory and CPU.

Prints medians over the visitors and the capacity they imply on this machine (memory: 80%
of RAM; CPU: the cores with a quarter kept for the server and the system), and the start
time of one app (page request to first screen).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
TICKS = os.sysconf("SC_CLK_TCK")
PAGE = os.sysconf("SC_PAGE_SIZE")


def children_of(pid: int) -> list[int]:
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with contextlib.suppress(OSError):
            found += [int(p) for p in (task / "children").read_text().split()]
    return found


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def memory_mb(pid: int) -> tuple[float, float]:
    """(RSS, PSS) in MB."""
    values = {}
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        parts = line.split()
        if parts and parts[0] in ("Rss:", "Pss:"):
            values[parts[0]] = int(parts[1]) / 1024
    return values["Rss:"], values["Pss:"]


async def visitor(origin: str, token: str, open_file: str | None, frames: list[int]) -> tuple[tuple[Any, Any], float]:
    """Connect like the page does; returns the websocket and the seconds to the first screen."""
    import aiohttp

    session = aiohttp.ClientSession()
    started = time.perf_counter()
    query = f"token={token}" + (f"&open={open_file}" if open_file else "")
    async with session.get(f"{origin}/?{query}") as answer:
        page = await answer.text()
    ticket = re.search(r'/ws/([A-Za-z0-9_-]+)"', page).group(1)  # type: ignore[union-attr]
    socket = await session.ws_connect(f"{origin}/ws/{ticket}?width=160&height=45", origin=origin)
    await socket.send_json(["resize", {"width": 160, "height": 45}])
    received = 0
    while received < 20_000:  # a full first screen at 160x45 is well over this
        message = await socket.receive()
        if message.type != aiohttp.WSMsgType.BINARY:
            continue
        received += len(message.data)
    first = time.perf_counter() - started

    async def drain() -> None:
        async for message in socket:
            if message.type == aiohttp.WSMsgType.BINARY:
                frames.append(len(message.data))

    asyncio.get_running_loop().create_task(drain())
    return (session, socket), first


async def measure(args: argparse.Namespace) -> None:
    out = Path(os.environ.get("TMPDIR", "/tmp")) / f"serve-bench-{os.getpid()}"
    out.mkdir(exist_ok=True)
    server = subprocess.Popen(
        [sys.executable, "-m", "explorer", "serve", args.path, "--port", "0", "--token", "bench",
         "--write-to", str(out), "--max-visitors", str(args.visitors + 1), "--max-size", str(args.max_size)],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        line = server.stdout.readline()  # type: ignore[union-attr]
        origin = re.search(r"(http://[^/]+)/", line).group(1)  # type: ignore[union-attr]
        frames: list[int] = []
        connections, starts = [], []
        for _ in range(args.visitors):
            connection, first = await visitor(origin, "bench", None, frames)
            connections.append(connection)
            starts.append(first)
        await asyncio.sleep(3)  # let start-up work settle
        apps = children_of(server.pid)
        memory = [memory_mb(pid) for pid in apps]
        idle = await cpu_over(apps + [server.pid], args.idle)
        for session, socket in connections:
            await socket.close()
            await session.close()
        await asyncio.sleep(2)

        # Busy: every visitor opens a file and plays teach mode at 16 steps a second.
        busy_connections = []
        for _ in range(args.visitors):
            connection, _ = await visitor(origin, "bench", args.busy_file, frames)
            busy_connections.append(connection)
        await asyncio.sleep(4)
        busy_apps = children_of(server.pid)
        for _, socket in busy_connections:
            await socket.send_json(["stdin", "t"])
        await asyncio.sleep(3)
        for _, socket in busy_connections:
            await socket.send_json(["stdin", "fff "])  # f three times from 2 steps/s: 16/s; space plays
        sent_before = sum(frames)
        busy = await cpu_over(busy_apps + [server.pid], args.idle)
        sent = (sum(frames) - sent_before) / args.idle / max(1, len(busy_apps))
        busy_memory = [memory_mb(pid) for pid in busy_apps]
        for session, socket in busy_connections:
            await socket.close()
            await session.close()
    finally:
        server.terminate()
        server.wait(20)

    cores = os.cpu_count() or 1
    ram_mb = os.sysconf("SC_PHYS_PAGES") * PAGE / 2**20
    pss = statistics.median(p for _, p in memory)
    busy_pss = statistics.median(p for _, p in busy_memory)
    idle_cpu = statistics.median(idle[:-1])
    busy_cpu = statistics.median(busy[:-1])
    print(f"visitors: {args.visitors}, served: {args.path}, busy file: {args.busy_file}; {cores} cores, "
          f"{ram_mb / 1024:.1f} GB")
    print(f"start: page request to first screen, median {statistics.median(starts):.2f} s "
          f"(max {max(starts):.2f} s with {args.visitors} starting one after another)")
    print(f"memory per app, first screen: RSS {statistics.median(r for r, _ in memory):.0f} MB, "
          f"PSS {pss:.0f} MB; with a file open in teach mode: PSS {busy_pss:.0f} MB")
    print(f"CPU per app: idle {idle_cpu:.1f}% of a core; teach playing at 16 steps/s {busy_cpu:.1f}%")
    print(f"server: idle {idle[-1]:.1f}%, busy {busy[-1]:.1f}% of a core; "
          f"{sent / 1024:.1f} kB/s sent to each browser while teach plays")
    by_memory = int(0.8 * ram_mb / busy_pss)
    by_cpu_busy = int(0.75 * cores * 100 / max(busy_cpu, 0.1))
    print(f"capacity: memory allows {by_memory} apps (80% of RAM at the busy PSS); CPU allows "
          f"{by_cpu_busy} playing teach at once (75% of {cores} cores), many more idle "
          f"({int(0.75 * cores * 100 / max(idle_cpu, 0.05))})")


async def cpu_over(pids: list[int], seconds: float) -> list[float]:
    """% of one core each process used over ``seconds``."""
    before = [cpu_seconds(pid) for pid in pids]
    await asyncio.sleep(seconds)
    after = [cpu_seconds(pid) for pid in pids]
    return [100 * (b - a) / seconds for a, b in zip(before, after)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--visitors", type=int, default=8)
    parser.add_argument("--path", default="explorer", help="the folder to serve (default: this package's source)")
    parser.add_argument("--busy-file", default="engine/chunker.py", help="the file each busy visitor teaches")
    parser.add_argument("--max-size", type=int, default=400, help="the size the served explorer chunks at")
    parser.add_argument("--idle", type=float, default=10.0, help="seconds each CPU figure is measured over")
    asyncio.run(measure(parser.parse_args()))


if __name__ == "__main__":
    main()
