"""Retrieval evaluation speed: 300 files of the Python standard library, BM25, a grid of 6.

    python benchmarks/eval_bench.py [STDLIB_DIR] [--files 300] [--jobs N]

Prints the query count, the chunking step's wall time (once for the grid), and per
setting: chunks, retrieval (tokenising, indexing, querying) and scoring seconds, and
Recall@5 / recall@budget with intervals; then one setting evaluated alone, end to end. The issue's goal on a busy 2-core machine:
<= ~5 s per setting, the grid of 6 within a minute.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from explorer.engine.options import ChunkOptions
from explorer.engine.retrieval import evaluate

DEFAULT_ROOT = "/root/.pyenv/versions/3.11.7/lib/python3.11"
SKIP_DIRS = {"test", "tests", "site-packages", "idle_test", "__pycache__", "lib2to3", "ensurepip"}


def stdlib_sample(root: str, count: int) -> list[tuple[str, bytes]]:
    """Every ``count``-th .py file (sorted paths, tests and vendored code left out)."""
    paths = []
    for folder, dirs, names in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS)
        paths += [os.path.join(folder, n) for n in sorted(names) if n.endswith(".py")]
    step = max(1, len(paths) // count)
    picked = paths[::step][:count]
    files = []
    for path in picked:
        with open(path, "rb") as handle:
            files.append((os.path.relpath(path, root), handle.read()))
    return files


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("root", nargs="?", default=DEFAULT_ROOT)
    parser.add_argument("--files", type=int, default=300)
    parser.add_argument("--jobs", type=int, default=None)
    args = parser.parse_args()
    files = stdlib_sample(args.root, args.files)
    size = sum(len(d) for _, d in files)
    grid = [
        ChunkOptions(max_size=m, strategy=s, context_mode=c)
        for m in (500, 1000, 2000) for s, c in (("ast", "full"), ("ast", "none"))
    ]
    started = time.perf_counter()
    result = evaluate(files, grid, jobs=args.jobs)
    total = time.perf_counter() - started
    print(f"{len(files)} files, {size / 1e6:.1f} MB, {len(result.queries)} queries "
          f"({result.masked_docs} docs masked, {result.dropped_duplicates} duplicates dropped), jobs={result.jobs}")
    print(f"chunking + queries (all 6 settings at once): {result.chunk_seconds:.2f} s")
    print(f"{'setting':<40} {'chunks':>7} {'retrieve s':>10} {'score s':>8}  recall@5               recall@budget")
    for s in result.settings:
        r5, rb = s.metrics["recall@5"], s.metrics["recall@budget"]
        print(f"{s.label(result.varied):<40} {s.chunks:>7} {s.seconds['retrieve']:>10.2f} {s.seconds['score']:>8.2f}"
              f"  {r5.value:.3f} [{r5.low:.3f}, {r5.high:.3f}]  {rb.value:.3f} [{rb.low:.3f}, {rb.high:.3f}]")
    per_setting = total / len(grid)
    print(f"grid of {len(grid)}: {total:.1f} s in all, {per_setting:.1f} s per setting (goal <= ~5 s, grid <= 60 s)")
    started = time.perf_counter()
    alone = evaluate(files, [ChunkOptions(max_size=1000)], jobs=args.jobs)
    print(f"one setting alone (max 1000, context full), end to end: {time.perf_counter() - started:.1f} s "
          f"(chunking and queries {alone.chunk_seconds:.1f} s)")


if __name__ == "__main__":
    main()
