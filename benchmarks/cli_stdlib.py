"""Time ``chunk-explorer chunk`` on the Python standard library, serial and parallel.

    python benchmarks/cli_stdlib.py [--path DIR] [--repeats 3] [--jobs 1,2]

Runs the real command (``python -m explorer chunk DIR -o <tmp>``) in a subprocess,
alternating the job counts so that machine load affects them alike, and prints for
each: median and best wall time, CPU time of the command and its workers (CPU / wall > 1
means several cores were busy), files and chunks; then the speedup measured in
this run. The output file goes to a temporary directory and is deleted.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time

SUMMARY = re.compile(r"Chunked ([\d,]+) files? into ([\d,]+) chunks?")


def cpu_seconds_of_children() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_once(path: str, jobs: int, out: str) -> tuple[float, float, int, int]:
    cpu_before = cpu_seconds_of_children()
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "explorer", "chunk", path, "-o", out, "--jobs", str(jobs)],
        capture_output=True, text=True,
    )
    wall = time.perf_counter() - started
    cpu = cpu_seconds_of_children() - cpu_before
    if done.returncode not in (0, 1):
        raise SystemExit(f"chunk-explorer failed ({done.returncode}):\n{done.stderr}")
    m = SUMMARY.search(done.stderr)
    if not m:
        raise SystemExit(f"no summary in the output:\n{done.stderr}")
    return wall, cpu, int(m.group(1).replace(",", "")), int(m.group(2).replace(",", ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--path", default=os.path.dirname(os.__file__), help="directory to chunk (default: the stdlib)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--jobs", default="1,2", help="comma-separated job counts")
    args = parser.parse_args()
    job_counts = [int(j) for j in args.jobs.split(",")]

    print(f"chunk-explorer chunk {args.path} -o FILE --jobs N")
    print(f"cores available: {len(os.sched_getaffinity(0))}, load average at start: "
          f"{', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    walls: dict[int, list[float]] = {j: [] for j in job_counts}
    cpus: dict[int, list[float]] = {j: [] for j in job_counts}
    counts: dict[int, tuple[int, int]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "chunks.json")
        for _ in range(args.repeats):
            for jobs in job_counts:  # alternate, so load changes hit every setting
                wall, cpu, files, chunks = run_once(args.path, jobs, out)
                walls[jobs].append(wall)
                cpus[jobs].append(cpu)
                counts[jobs] = (files, chunks)
        size = os.path.getsize(out)

    print(f"{'jobs':>4}  {'files':>6}  {'chunks':>7}  {'wall s (median)':>15}  {'best':>6}  {'cpu s':>7}  {'cpu/wall':>8}  runs")
    for jobs in job_counts:
        wall = statistics.median(walls[jobs])
        cpu = statistics.median(cpus[jobs])
        files, chunks = counts[jobs]
        runs = ", ".join(f"{w:.1f}" for w in walls[jobs])
        print(f"{jobs:>4}  {files:>6,}  {chunks:>7,}  {wall:>15.2f}  {min(walls[jobs]):>6.2f}  {cpu:>7.1f}  "
              f"{cpu / wall:>8.2f}  {runs}")
    if len(job_counts) > 1:
        first = job_counts[0]
        for jobs in job_counts[1:]:
            median_ratio = statistics.median(walls[first]) / statistics.median(walls[jobs])
            best_ratio = min(walls[first]) / min(walls[jobs])
            print(f"speedup jobs={jobs} vs jobs={first}: {median_ratio:.2f}x (medians), {best_ratio:.2f}x (best runs)")
    print(f"JSON output: {size / 1e6:.0f} MB")
    print(f"load average at end: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if _autogroup() and os.getloadavg()[0] > len(os.sched_getaffinity(0)):
        print("note: the machine was busy and the kernel shares CPU per session (autogroup): "
              "extra workers cannot take more than this session's share, so the speedup is understated.")


def _autogroup() -> bool:
    try:
        with open("/proc/sys/kernel/sched_autogroup_enabled") as handle:
            return handle.read().strip() == "1"
    except OSError:
        return False


if __name__ == "__main__":
    main()
