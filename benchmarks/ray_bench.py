"""The local process pool against Ray on the same files, in one run.

    python benchmarks/ray_bench.py [--path DIR] [--repeats 3] [--jobs 2]

Chunks every file the walker finds under DIR (default: the Python standard library) and
encodes it as JSONL in the workers, as ``chunk --format jsonl`` does, with: the local pool
(``chunk_batch(jobs=N)``), Ray shipping the contents through the object store (the
default, for clusters whose workers do not see this disk), and Ray reading shared storage
(``shared_storage=True``). Ray runs locally with N CPUs, started once (its start-up time is
printed apart). The settings alternate in each repeat so machine load hits them alike;
medians and ratios to the local pool are printed. Needs the ``[ray]`` extra.
"""

from __future__ import annotations

import argparse
import logging
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from explorer.engine.batch import BatchFile, chunk_batch_stream
from explorer.workspace.export import encode_jsonl
from explorer.workspace.walk import plan


def run(batch: list[BatchFile], jobs: int, engine: str, shared: bool) -> tuple[float, int, int]:
    started = time.perf_counter()
    files = out = 0
    for result in chunk_batch_stream(batch, jobs=jobs, analyze=encode_jsonl, keep_chunks=False,
                                     engine=engine, shared_storage=shared):
        if result.ok:
            files += 1
            out += len(result.analysis[1])
    return time.perf_counter() - started, files, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--path", default=os.path.dirname(os.__file__))
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    import ray

    walked = plan([args.path]).files
    batch = [BatchFile(path=f.path, name=f.rel, size=f.size) for f in walked]
    source_mb = sum(f.size for f in walked) / 1e6
    print(f"{len(batch):,} files, {source_mb:.1f} MB under {args.path}; jobs={args.jobs}; ray {ray.__version__}")
    print(f"cores available: {len(os.sched_getaffinity(0))}, load average at start: "
          f"{', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    started = time.perf_counter()
    ray.init(num_cpus=args.jobs, include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR)
    print(f"ray local start: {time.perf_counter() - started:.1f} s (not counted below)")
    settings = {"local pool": ("local", False), "ray, contents shipped": ("ray", False),
                "ray, shared storage": ("ray", True)}
    walls: dict[str, list[float]] = {name: [] for name in settings}
    counts: dict[str, tuple[int, int]] = {}
    run(batch[: args.jobs * 8], args.jobs, "ray", False)  # warm the Ray workers (imports, grammars)
    for _ in range(args.repeats):
        for name, (engine, shared) in settings.items():
            wall, files, out = run(batch, args.jobs, engine, shared)
            walls[name].append(wall)
            counts[name] = (files, out)
    ray.shutdown()
    base = statistics.median(walls["local pool"])
    print(f"{'setting':<24}  {'files':>6}  {'JSONL MB':>8}  {'wall s (median)':>15}  {'vs local':>8}  runs")
    for name in settings:
        wall = statistics.median(walls[name])
        files, out = counts[name]
        runs = ", ".join(f"{w:.1f}" for w in walls[name])
        print(f"{name:<24}  {files:>6,}  {out / 1e6:>8.0f}  {wall:>15.2f}  {base / wall:>7.2f}x  {runs}")
    print("vs local: the local pool's median wall time / this setting's (above 1: faster than the pool)")
    print(f"load average at end: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
