"""Time incremental re-chunking (``chunk --state``) against a full run, on a copy of the
CPython standard library (about 2,000 files).

    python benchmarks/incremental_bench.py [--path DIR] [--repeats 3] [--jobs N]

Copies DIR (never touching the original) and runs the real command in a subprocess:

- full: ``chunk COPY --state S`` with no state yet (every file chunked and written);
- no change: the same again with the state of a full run (the output is empty);
- one edit: one file changed (a line appended, different each time), then the run.

Each kind runs ``--repeats`` times, interleaved so machine load affects them alike; the
output goes to /dev/null through a pipe. Prints the median (and best) wall time of each,
and the ratios to the full run's median, with the goals (no change <= 10%, one edit <= 15%).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time

GOALS = {"no change": 0.10, "one edit": 0.15}


def run(command: list[str], env: dict[str, str]) -> float:
    started = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, env=env)
    return time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--path", default=sysconfig.get_paths()["stdlib"], help="the tree to copy (default: stdlib)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=None, help="worker processes (default: all cores)")
    args = parser.parse_args()

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = {**os.environ, "PYTHONPATH": root + os.pathsep + os.environ.get("PYTHONPATH", "")}  # this checkout
    with tempfile.TemporaryDirectory(prefix="incremental-bench-") as work:
        tree = os.path.join(work, "stdlib")
        shutil.copytree(args.path, tree, symlinks=True,
                        ignore=shutil.ignore_patterns("__pycache__", "site-packages"))  # keeps mtimes
        state = os.path.join(work, "state.json")
        base = [sys.executable, "-m", "explorer", "chunk", tree, "--state", state, "-q"]
        if args.jobs:
            base += ["--jobs", str(args.jobs)]
        edited = os.path.join(tree, "json", "decoder.py")
        times: dict[str, list[float]] = {"full": [], "no change": [], "one edit": []}
        subprocess.run(base, stdout=subprocess.DEVNULL, check=True, env=env)  # warm the file cache
        for repeat in range(args.repeats):
            os.unlink(state)
            times["full"].append(run(base, env))
            times["no change"].append(run(base, env))
            with open(edited, "a", encoding="utf-8") as handle:
                handle.write(f"\n# edited by the benchmark, run {repeat}\n")
            times["one edit"].append(run(base, env))
            print(f"  run {repeat + 1}: " + ", ".join(f"{k} {v[-1]:.2f}s" for k, v in times.items()), file=sys.stderr)
        with open(state, encoding="utf-8") as handle:
            files = len(json.load(handle)["files"])

    full = statistics.median(times["full"])
    print(f"incremental re-chunking, {files:,} files of {args.path}, {args.repeats} runs each "
          f"(medians; best in brackets)")
    print(f"  full run   {full:7.2f}s  [{min(times['full']):.2f}s]")
    for kind, goal in GOALS.items():
        median = statistics.median(times[kind])
        ratio = median / full
        verdict = "ok" if ratio <= goal else "OVER"
        print(f"  {kind:<10} {median:7.2f}s  [{min(times[kind]):.2f}s]  {ratio:6.1%} of full (goal <= {goal:.0%}: {verdict})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
