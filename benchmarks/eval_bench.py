"""Retrieval evaluation speed: 300 files of the Python standard library, BM25, a grid of 6.

    python benchmarks/eval_bench.py [STDLIB_DIR] [--files 300] [--jobs N]
    python benchmarks/eval_bench.py --controls DIR [--sources calls,types]

Prints the query count, the chunking step's wall time (once for the grid), and per
setting: chunks, retrieval (tokenising, indexing, querying) and scoring seconds, and
Recall@5 / recall@budget with intervals; then one setting evaluated alone, end to end. The goal on a busy 2-core machine:
<= ~5 s per setting, the grid of 6 within a minute.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import random
import statistics

from explorer.engine.options import ChunkOptions
from explorer.engine.retrieval import evaluate, evaluate_prepared, prepare
from explorer.engine.retrieval.bm25 import BM25Retriever
from explorer.engine.retrieval.evaluate import with_query_texts
from explorer.engine.retrieval.recommend import recommend
from explorer.workspace.sources import read_sources
from explorer.workspace.walk import plan

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


def controls(root: str, sources: str, jobs: int | None) -> None:
    files, _ = read_sources(plan([root], root=root), 16 * 2**20)
    settings = [ChunkOptions(max_size=500), ChunkOptions(max_size=2000)]
    prepared = prepare(files, settings, queries=sources, jobs=jobs)
    result = evaluate_prepared(prepared, BM25Retriever())
    print(f"{root}: {len(files)} files, {len(result.queries)} queries from {sources}")
    texts = []
    for query in prepared.queries:
        data = dict(files)[query.path][query.start:query.end].decode("utf-8", "replace")
        texts.append(max(data.splitlines(), key=len).strip())
    positive = evaluate_prepared(with_query_texts(prepared, texts), BM25Retriever())
    rng = random.Random(0)
    words = ["river", "candle", "orbit", "velvet", "harbor", "lantern", "meadow", "quartz", "saddle", "tundra"]
    negative = evaluate_prepared(with_query_texts(prepared, [" ".join(rng.choice(words) for _ in range(8))
                                                             for _ in prepared.queries]), BM25Retriever())
    reports = [run.by_source() for run in (result, positive, negative)]
    for source, report in reports[0].items():
        print(f"  {source}: {report.queries} queries")
        for position, setting in enumerate(result.settings):
            r5, rb = report.metrics[position]["recall@5"], report.metrics[position]["recall@budget"]
            d5, db = report.delta[position]["recall@5"], report.delta[position]["recall@budget"]
            print(f"    max {setting.options.max_size:>5}: recall@5 {r5.value:.3f} [{r5.low:.3f}, {r5.high:.3f}] "
                  f"(vs 500: {d5.value:+.3f} [{d5.low:+.3f}, {d5.high:+.3f}]), recall@budget {rb.value:.3f} "
                  f"(vs 500: {db.value:+.3f} [{db.low:+.3f}, {db.high:+.3f}])")
        for name, report_of in (("positive control (a line of the target)", reports[1]),
                                ("negative control (random words)", reports[2])):
            values = ", ".join(f"max {s.options.max_size}: {report_of[source].metrics[i]['recall@5'].value:.3f}"
                               for i, s in enumerate(result.settings))
            print(f"    {name}: recall@5 {values}")
    for objective in ("top5", "budget"):
        advice = recommend(result, objective)
        if advice is not None:
            print(f"  --objective {objective}: #{result.settings[advice.setting].index + 1} ({advice.reason})")
    timings: dict[str, list[float]] = {"docs": [], sources: []}
    for _ in range(3):
        for name in timings:
            started = time.perf_counter()
            prepare(files, settings, queries=name, jobs=jobs)
            timings[name].append(time.perf_counter() - started)
    base, more = statistics.median(timings["docs"]), statistics.median(timings[sources])
    print(f"  chunking step, median of 3: docs {base:.2f} s, {sources} {more:.2f} s (x{more / base:.2f})")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("root", nargs="?", default=DEFAULT_ROOT)
    parser.add_argument("--files", type=int, default=300)
    parser.add_argument("--jobs", type=int, default=None)
    parser.add_argument("--controls", metavar="DIR", help="the no-docs query sources and their controls on DIR")
    parser.add_argument("--sources", default="calls,types", help="with --controls (default calls,types)")
    args = parser.parse_args()
    if args.controls:
        controls(args.controls, args.sources, args.jobs)
        return
    files = stdlib_sample(args.root, args.files)
    size = sum(len(d) for _, d in files)
    grid = [
        ChunkOptions.build(max_size=m, strategy=s, context_mode=c)
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
