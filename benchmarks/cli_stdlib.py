"""Time ``chunk-explorer chunk`` on the Python standard library, serial and parallel.

    python benchmarks/cli_stdlib.py [--path DIR] [--repeats 3] [--jobs 1,2] [--formats json,jsonl]

Runs the real command (``chunk DIR -o <tmp> --format F --jobs N``) in a subprocess,
alternating formats and job counts so that machine load affects them alike, and prints for
each: median and best wall time, CPU time of the command and its workers (CPU / wall > 1
means several cores were busy), the parent process's peak memory (RSS), files and chunks;
then the speedup measured in this run, per format. The output goes to a temporary
directory and is deleted.
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


PEAK = re.compile(r"parent peak RSS: (\d+) KiB, cpu ([\d.]+) s")
#: Runs the CLI and reports the parent's own peak memory (workers are not counted).
RUNNER = """
import resource, sys
from explorer.cli.main import main
try:
    code = main(sys.argv[1:])
finally:
    me = resource.getrusage(resource.RUSAGE_SELF)
    print(f"parent peak RSS: {me.ru_maxrss} KiB, cpu {me.ru_utime + me.ru_stime:.3f} s", file=sys.stderr)
sys.exit(code)
"""


def run_once(path: str, jobs: int, out: str, fmt: str) -> tuple[float, float, int, int, float, float]:
    cpu_before = cpu_seconds_of_children()
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", RUNNER, "chunk", path, "-o", out, "--jobs", str(jobs), "--format", fmt],
        capture_output=True, text=True,
    )
    wall = time.perf_counter() - started
    cpu = cpu_seconds_of_children() - cpu_before
    if done.returncode not in (0, 1):
        raise SystemExit(f"chunk-explorer failed ({done.returncode}):\n{done.stderr}")
    m = SUMMARY.search(done.stderr)
    if not m:
        raise SystemExit(f"no summary in the output:\n{done.stderr}")
    peak = PEAK.search(done.stderr)
    peak_mb = int(peak.group(1)) / 1024 if peak else float("nan")
    parent_cpu = float(peak.group(2)) if peak else float("nan")
    return wall, cpu, int(m.group(1).replace(",", "")), int(m.group(2).replace(",", "")), peak_mb, parent_cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--path", default=os.path.dirname(os.__file__), help="directory to chunk (default: the stdlib)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--jobs", default="1,2", help="comma-separated job counts")
    parser.add_argument("--formats", default="json,jsonl", help="comma-separated output formats")
    args = parser.parse_args()
    job_counts = [int(j) for j in args.jobs.split(",")]
    formats = args.formats.split(",")
    settings = [(fmt, jobs) for fmt in formats for jobs in job_counts]

    print(f"chunk-explorer chunk {args.path} -o FILE --format F --jobs N")
    print(f"cores available: {len(os.sched_getaffinity(0))}, load average at start: "
          f"{', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    walls: dict[tuple[str, int], list[float]] = {s: [] for s in settings}
    cpus: dict[tuple[str, int], list[float]] = {s: [] for s in settings}
    peaks: dict[tuple[str, int], list[float]] = {s: [] for s in settings}
    parent_cpus: dict[tuple[str, int], list[float]] = {s: [] for s in settings}
    counts: dict[tuple[str, int], tuple[int, int]] = {}
    sizes: dict[str, int] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(args.repeats):
            for setting in settings:  # alternate, so load changes hit every setting
                fmt, jobs = setting
                out = os.path.join(tmp, f"chunks.{fmt}")
                wall, cpu, files, chunks, peak, parent_cpu = run_once(args.path, jobs, out, fmt)
                parent_cpus[setting].append(parent_cpu)
                walls[setting].append(wall)
                cpus[setting].append(cpu)
                peaks[setting].append(peak)
                counts[setting] = (files, chunks)
                sizes[fmt] = os.path.getsize(out)

    print(f"{'format':>6}  {'jobs':>4}  {'files':>6}  {'chunks':>7}  {'wall s (median)':>15}  {'best':>6}  "
          f"{'cpu s':>7}  {'cpu/wall':>8}  {'parent MB':>9}  {'parent cpu s':>12}  runs")
    for setting in settings:
        fmt, jobs = setting
        wall = statistics.median(walls[setting])
        cpu = statistics.median(cpus[setting])
        files, chunks = counts[setting]
        runs = ", ".join(f"{w:.1f}" for w in walls[setting])
        print(f"{fmt:>6}  {jobs:>4}  {files:>6,}  {chunks:>7,}  {wall:>15.2f}  {min(walls[setting]):>6.2f}  "
              f"{cpu:>7.1f}  {cpu / wall:>8.2f}  {max(peaks[setting]):>9.0f}  "
              f"{statistics.median(parent_cpus[setting]):>12.2f}  {runs}")
    for fmt in formats:
        first = job_counts[0]
        for jobs in job_counts[1:]:
            median_ratio = statistics.median(walls[fmt, first]) / statistics.median(walls[fmt, jobs])
            best_ratio = min(walls[fmt, first]) / min(walls[fmt, jobs])
            # What the CPU work allows: the workers' share split over `jobs` cores, the parent's not.
            parent = statistics.median(parent_cpus[fmt, jobs])
            work = statistics.median(cpus[fmt, jobs]) - parent
            bound = statistics.median(cpus[fmt, first]) / max(parent, work / jobs)
            print(f"{fmt}: speedup jobs={jobs} vs jobs={first}: {median_ratio:.2f}x (medians), "
                  f"{best_ratio:.2f}x (best runs); the CPU work allows {bound:.2f}x with {jobs} free cores")
        print(f"{fmt} output: {sizes[fmt] / 1e6:.0f} MB")
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
