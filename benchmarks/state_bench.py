"""``chunk --state`` with ``--jobs 1``, ``--jobs 2`` and ``--engine ray``, in one run.

    python benchmarks/state_bench.py [--repeats 3] [--tree DIR ...]

Each tree (default: pallets/click's checkout and the Python standard library) is copied
to a temporary folder (the incremental runs edit a file) and timed as a user runs it: a
fresh ``chunk-explorer`` process per run (``python -m explorer chunk COPY --state S -o
OUT -q``), so Ray's start-up is part of its wall time. Two runs per setting and tree:

- full: no state yet, every file chunked;
- incremental: the state of a full run, one file edited since (a line appended).

The settings alternate within each repeat so the machine's load hits them alike; medians,
and speedups against ``--jobs 1``, are printed. Every run's JSONL output and the state it
writes are checked to be the same bytes across the settings. Ray runs start a local Ray
with 2 CPUs (``--jobs 2``). Needs the ``[ray]`` extra.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_TREES = ["/work/realcode/click", "/usr/lib/python3.11"]
SETTINGS = {"--jobs 1": ["-j", "1"], "--jobs 2": ["-j", "2"], "ray": ["--engine", "ray", "-j", "2"]}
#: A file changed less than this before a run is hashed again by the next one (the
#: state's racy window): the trees are copied this long before their base state is made.
RACY_SECONDS = 2.1


def chunk(tree: str, state: str, out: str, flags: list[str]) -> float:
    command = [sys.executable, "-m", "explorer", "chunk", tree, "--state", state, "-o", out, "-q", *flags]
    started = time.perf_counter()
    subprocess.run(command, check=True, env={**os.environ, "PYTHONPATH": ROOT}, stderr=subprocess.DEVNULL)
    return time.perf_counter() - started


def read(path: str) -> bytes:
    with open(path, "rb") as handle:
        return handle.read()


def edited_file(tree: str) -> str:
    """The largest Python file at the top of the tree's package (one file, as a commit edits)."""
    candidates = [os.path.join(d, f) for d, _, names in os.walk(tree) for f in names if f.endswith(".py")]
    return max(candidates, key=lambda p: (os.path.getsize(p), p))


def bench_tree(source: str, repeats: int, work: str) -> None:
    tree = os.path.join(work, os.path.basename(source.rstrip("/")))
    shutil.copytree(source, tree, ignore=shutil.ignore_patterns("__pycache__", ".git"))  # keeps mtimes
    time.sleep(RACY_SECONDS)
    from explorer.workspace.walk import plan

    walked = plan([tree]).files
    print(f"\n{source}: {len(walked):,} files, {sum(f.size for f in walked) / 1e6:.1f} MB (copied to {tree})")
    state, out = os.path.join(work, "state.json"), os.path.join(work, "out.jsonl")
    walls: dict[tuple[str, str], list[float]] = {(run, name): [] for run in ("full", "incremental")
                                                 for name in SETTINGS}
    outputs: dict[tuple[str, str], set[bytes]] = {key: set() for key in walls}
    states: dict[tuple[str, str], set[bytes]] = {key: set() for key in walls}

    def timed(run: str, name: str) -> None:
        walls[run, name].append(chunk(tree, state, out, SETTINGS[name]))
        outputs[run, name].add(read(out))
        states[run, name].add(read(state))

    for _ in range(repeats):
        for name in SETTINGS:
            if os.path.exists(state):
                os.unlink(state)
            timed("full", name)
    chunk(tree, state, out, SETTINGS["--jobs 1"])  # the base state, made with every file out of the racy window
    base = read(state)
    target = edited_file(tree)
    with open(target, "a", encoding="utf-8") as handle:
        handle.write("\n\ndef added_by_the_benchmark():\n    return 1\n")
    time.sleep(RACY_SECONDS)  # so every incremental run trusts the edited file's new status alike
    for _ in range(repeats):
        for name in SETTINGS:
            with open(state, "wb") as state_file:
                state_file.write(base)
            timed("incremental", name)
    print(f"incremental: {os.path.relpath(target, tree)} edited")
    for run in ("full", "incremental"):
        same_output = len(set().union(*(outputs[run, name] for name in SETTINGS))) == 1
        same_state = len(set().union(*(states[run, name] for name in SETTINGS))) == 1
        baseline = statistics.median(walls[run, "--jobs 1"])
        cells = []
        for name in SETTINGS:
            median = statistics.median(walls[run, name])
            cells.append(f"{name} {median:.2f} s ({baseline / median:.2f}x)")
        print(f"{run:>11}: " + ", ".join(cells) + f"; output identical: {same_output}"
              + f", state identical: {same_state}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--tree", action="append", help="a tree to copy and time (repeatable)")
    args = parser.parse_args()
    import ray

    sys.path.insert(0, ROOT)
    print(f"ray {ray.__version__}; {args.repeats} repeats; cores available: {len(os.sched_getaffinity(0))}, "
          f"load average at start: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for source in args.tree or DEFAULT_TREES:
        with tempfile.TemporaryDirectory(prefix="state-bench-") as work:
            bench_tree(source, args.repeats, work)
    print(f"load average at the end: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
