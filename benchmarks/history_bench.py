"""History queries: how fast a history is mined, what an evaluation with them costs, and
whether they measure anything (the controls), on a real repository with its history.

    python benchmarks/history_bench.py REPO [--commits 5000] [--jobs N] [--runs 3]
    python benchmarks/history_bench.py REPO --controls [--max-size 500,1000,2000]

Speed: the median of ``--runs`` runs (2 busy cores: medians and ratios of one run) of
(1) the one ``git log`` pass alone, (2) mining cold (nothing parsed before: an empty
cache), (3) mining warm (the definitions cache filled by the cold run), and (4) the
evaluation of the grid with history queries, per setting (chunking, retrieval and
scoring; mining excluded).

Controls (``--controls``): per setting, recall@5 and recall@budget with 95% intervals for
the queries as asked, for each query's own target indexed alone (positive: must be near
the ceiling) and for targets shuffled between queries (negative: chance), on all
history queries and on those whose message does not name its target; then the paired
differences between settings, and each source's recommendation.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from explorer.engine.options import ChunkOptions
from explorer.engine.retrieval.bm25 import BM25Retriever
from explorer.engine.retrieval.evaluate import evaluate_prepared, with_isolated_targets, with_shuffled_targets
from explorer.engine.retrieval.history import HistoryRules
from explorer.engine.retrieval.pareto import pareto
from explorer.engine.retrieval.recommend import advice_by_source, recommend
from explorer.engine.retrieval.results import HISTORY_UNNAMED, EvalResult
from explorer.workspace.evaluate import evaluate_paths
from explorer.workspace.history import find_repository, mine_history
from explorer.workspace.history.cache import forget
from explorer.workspace.history.git import read_log
from explorer.workspace.walk import plan


def speed(root: str, commits: int, jobs: int | None, runs: int, sizes: list[int]) -> None:
    repository = find_repository(root)
    names = {f.rel for f in plan([root], root=root).files}
    log, cold, warm, queries = [], [], [], 0
    read = 0
    for _ in range(runs):
        started = time.perf_counter()
        read = sum(1 for _ in read_log(root, repository, commits))
        log.append(time.perf_counter() - started)
        with tempfile.TemporaryDirectory() as folder:
            cache = os.path.join(folder, "history.sqlite")
            forget()
            started = time.perf_counter()
            mined = mine_history(root, names, HistoryRules(commits=commits), jobs=jobs, cache_path=cache)
            cold.append(time.perf_counter() - started)
            forget()
            started = time.perf_counter()
            mine_history(root, names, HistoryRules(commits=commits), jobs=jobs, cache_path=cache)
            warm.append(time.perf_counter() - started)
        queries = len(mined.queries)
    print(f"{root}: {read:,} commits read ({'shallow' if repository.shallow else 'full history'}), "
          f"{len(names):,} files evaluated, {queries:,} history queries (before matching the tree)")
    print(f"  one git log pass:     {statistics.median(log):6.2f} s  (median of {runs})")
    print(f"  mining, cold cache:   {statistics.median(cold):6.2f} s")
    print(f"  mining, warm cache:   {statistics.median(warm):6.2f} s  "
          f"(x{statistics.median(cold) / statistics.median(warm):.1f} faster)")
    settings = [ChunkOptions(max_size=size) for size in sizes]
    started = time.perf_counter()
    run = evaluate_paths(root, settings, queries="history", jobs=jobs)
    total = time.perf_counter() - started
    result = run.result
    mining = result.history.seconds if result.history else 0.0
    per_setting = (total - mining) / len(settings)
    print(f"  evaluation of {len(settings)} settings with {len(result.queries):,} history queries on "
          f"{result.files:,} files: {total:.1f} s, of which mining {mining:.1f} s; per setting {per_setting:.2f} s "
          f"(chunking {result.chunk_seconds:.1f} s for the grid; goal <= 5 s per setting)")
    for s in result.settings:
        print(f"    max {s.options.max_size:>5}: retrieve {s.seconds['retrieve']:.2f} s, score {s.seconds['score']:.2f} s")


def line(result: EvalResult, k: int, measure: str) -> str:
    m = result.settings[k].metrics[measure]
    return f"{100 * m.value:5.1f} [{100 * m.low:5.1f}, {100 * m.high:5.1f}]"


def controls(root: str, sizes: list[int], jobs: int | None, commits: int) -> None:
    settings = [ChunkOptions(max_size=size) for size in sizes]
    run = evaluate_paths(root, settings, queries="history", jobs=jobs, keep_prepared=True,
                         history=HistoryRules(commits=commits))
    prepared, asked = run.prepared, run.result
    assert prepared is not None and asked.history is not None
    print(f"{root}: {asked.files:,} files, {len(asked.queries):,} history queries")
    for text in asked.history.lines():
        print("  " + text)
    alone = evaluate_prepared(with_isolated_targets(prepared), BM25Retriever())
    shuffled = evaluate_prepared(with_shuffled_targets(prepared), BM25Retriever())
    groups = asked.groups()
    for name, positions in groups.items():
        parts = [r.restricted(positions) for r in (asked, alone, shuffled)]
        print(f"  {name} ({len(positions):,} queries):")
        for measure in ("recall@5", "recall@budget"):
            print(f"    {measure}:")
            for k, setting in enumerate(asked.settings):
                print(f"      max {setting.options.max_size:>5}: as asked {line(parts[0], k, measure)}  "
                      f"target alone {line(parts[1], k, measure)}  targets shuffled {line(parts[2], k, measure)}")
            first = parts[0].settings[0]
            for setting in parts[0].settings[1:]:
                d = setting.delta[measure]
                print(f"      max {setting.options.max_size} - max {first.options.max_size}: {100 * d.value:+.1f} "
                      f"[{100 * d.low:+.1f}, {100 * d.high:+.1f}]{'' if d.separated else ' (not separated)'}")
    for objective in ("top5", "budget"):
        advice = recommend(asked, objective)
        if advice is None:
            continue
        print(f"  --objective {objective}: #{asked.settings[advice.setting].index + 1}: {advice.reason}")
        for part in advice_by_source(asked, objective):
            if part.recommendation is not None:
                chosen = part.result.settings[part.recommendation.setting]
                print(f"    {part.source}: #{chosen.index + 1} ({part.recommendation.reason})")
    front = pareto(asked, recommend(asked, "top5"))
    print(f"  fronts: {front.fronts} ({front.note})")
    unnamed = groups.get(HISTORY_UNNAMED)
    print(f"  messages naming their target: {len(asked.queries) - len(unnamed or asked.queries):,} of "
          f"{len(asked.queries):,}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("root", help="a git checkout")
    parser.add_argument("--commits", type=int, default=5000)
    parser.add_argument("--jobs", type=int, default=None)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--max-size", default="500,1000,2000")
    parser.add_argument("--controls", action="store_true", help="the controls and the figures instead of speed")
    args = parser.parse_args()
    sizes = [int(s) for s in args.max_size.split(",")]
    if args.controls:
        controls(args.root, sizes, args.jobs, args.commits)
    else:
        speed(args.root, args.commits, args.jobs, args.runs, sizes)


if __name__ == "__main__":
    main()
