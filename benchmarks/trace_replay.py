"""Trace replay over a corpus: ``replay(trace(...))`` must equal the chunks of ``chunk()``.

    python benchmarks/trace_replay.py [--sizes 1500,500,100] [--stdlib] [--jobs N]
                                      [--languages python,go] [--limit N]

The corpus is the engine's benchmark corpus (``corpus.py``: the Python standard
library and whatever other languages this machine has, built on first use);
``--stdlib`` adds every Python file of the standard library. For each file and each
limit it parses once, then compares the chunk ranges rebuilt from the trace steps
with ``chunk_parsed`` on the same tree, and checks that every step has a sentence.
It prints, per language: files, runs, runs equal, mismatches, errors, files that are
not text (binary or not UTF-8: rejected by design), steps per run and CPU seconds;
then the first mismatches and errors. Exit status 1 if anything differs or fails.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import corpus

from explorer.engine.api import chunk_parsed, parse
from explorer.engine.batch import default_jobs
from explorer.engine.languages import detect_language
from explorer.engine.options import ChunkOptions
from explorer.engine.text import BinaryContentError
from explorer.engine.trace import replay, trace_parsed


@dataclass
class FileCheck:
    path: str
    language: str
    runs: int = 0
    equal: int = 0
    steps: int = 0
    mismatches: list[str] = field(default_factory=list)
    error: str | None = None
    not_text: bool = False  # binary or not UTF-8: rejected by design, nothing to replay
    seconds: float = 0.0


def check_file(path: str, language: str, sizes: tuple[int, ...]) -> FileCheck:
    result = FileCheck(path, language)
    started = time.process_time()
    try:
        with open(path, "rb") as handle:
            data = handle.read()
        for size in sizes:
            options = ChunkOptions(max_size=size, context_mode="none")
            parsed = parse(path, data, options)
            steps = list(trace_parsed(parsed, options))
            expected = [c.byte_range for c in chunk_parsed(parsed, options)]
            got = replay(steps)
            result.runs += 1
            result.steps += len(steps)
            silent = [s.number for s in steps if not s.sentence.strip()]
            if got == expected and not silent:
                result.equal += 1
                continue
            if silent:
                result.mismatches.append(f"max_size={size}: steps without a sentence: {silent[:5]}")
            else:
                first = next((i for i, (a, b) in enumerate(zip(got, expected)) if a != b), min(len(got), len(expected)))
                result.mismatches.append(
                    f"max_size={size}: {len(got)} replayed vs {len(expected)} chunks, first difference at chunk "
                    f"{first}: {got[first] if first < len(got) else None} vs "
                    f"{expected[first] if first < len(expected) else None}")
    except BinaryContentError:
        result.not_text = True
    except Exception as exc:  # a crash is a finding, not the end of the run
        result.error = f"{type(exc).__name__}: {exc}"
    result.seconds = time.process_time() - started
    return result


def corpus_files(args: argparse.Namespace) -> list[tuple[str, str]]:
    manifest = corpus.load(args.corpus, args.cap_mb)
    files = []
    for language, info in manifest["languages"].items():
        files += [(os.path.join(args.corpus, f["file"]), language) for f in info["files"]]
    if args.stdlib:
        stdlib = os.path.dirname(os.__file__)
        for top, dirs, names in os.walk(stdlib):
            dirs[:] = sorted(d for d in dirs if d not in ("site-packages", "__pycache__"))
            files += [(os.path.join(top, n), "python (stdlib)") for n in sorted(names) if n.endswith(".py")]
    if args.languages:
        wanted = set(args.languages.split(","))
        files = [f for f in files if f[1].split()[0] in wanted]
    if args.limit:
        per_language: dict[str, int] = defaultdict(int)
        kept = []
        for path, language in files:
            per_language[language] += 1
            if per_language[language] <= args.limit:
                kept.append((path, language))
        files = kept
    return files


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1500,500,100", help="max sizes (nws) to check, comma-separated")
    parser.add_argument("--stdlib", action="store_true", help="also every Python file of the standard library")
    parser.add_argument("--corpus", default=corpus.DEFAULT_OUT, help=f"corpus directory (default {corpus.DEFAULT_OUT})")
    parser.add_argument("--cap-mb", type=float, help="megabytes per language (rebuilds the corpus if it differs)")
    parser.add_argument("--languages", help="only these corpus languages, comma-separated")
    parser.add_argument("--limit", type=int, default=0, help="at most N files per language")
    parser.add_argument("--jobs", type=int, default=default_jobs(), help="worker processes")
    args = parser.parse_args()
    sizes = tuple(int(s) for s in args.sizes.split(","))

    files = corpus_files(args)
    started = time.perf_counter()
    by_language: dict[str, list[FileCheck]] = defaultdict(list)
    with ProcessPoolExecutor(args.jobs) as pool:
        futures = [pool.submit(check_file, path, language, sizes) for path, language in files]
        for future in futures:
            check = future.result()
            by_language[check.language].append(check)
    wall = time.perf_counter() - started

    header = (f"{'language':<18}{'files':>7}{'runs':>7}{'equal':>7}{'differ':>8}{'errors':>8}{'not text':>10}"
              f"{'steps/run':>11}{'cpu s':>8}")
    print(f"Trace replay against chunk(), max sizes {', '.join(map(str, sizes))} nws")
    print(header)
    totals = FileCheck("", "ALL")
    for language in sorted(by_language):
        checks = by_language[language]
        runs = sum(c.runs for c in checks)
        equal = sum(c.equal for c in checks)
        differ = sum(1 for c in checks for _ in c.mismatches)
        errors = sum(1 for c in checks if c.error)
        not_text = sum(1 for c in checks if c.not_text)
        steps = sum(c.steps for c in checks)
        seconds = sum(c.seconds for c in checks)
        print(f"{language:<18}{len(checks):>7}{runs:>7}{equal:>7}{differ:>8}{errors:>8}{not_text:>10}"
              f"{steps / max(1, runs):>11.0f}{seconds:>8.1f}")
        totals.runs += runs
        totals.equal += equal
        totals.steps += steps
        totals.seconds += seconds
    all_checks = [c for checks in by_language.values() for c in checks]
    differ = sum(len(c.mismatches) for c in all_checks)
    errors = sum(1 for c in all_checks if c.error)
    not_text = sum(1 for c in all_checks if c.not_text)
    print(f"{'ALL':<18}{len(all_checks):>7}{totals.runs:>7}{totals.equal:>7}{differ:>8}{errors:>8}{not_text:>10}"
          f"{totals.steps / max(1, totals.runs):>11.0f}{totals.seconds:>8.1f}")
    print(f"{len(all_checks)} files in {wall:.1f} s wall ({args.jobs} jobs)")

    shown = 0
    for check in all_checks:
        for message in ([check.error] if check.error else []) + check.mismatches:
            if shown < 20:
                print(f"  {check.path} ({detect_language(check.path)}): {message}")
            shown += 1
    if shown > 20:
        print(f"  ... and {shown - 20} more")
    return 1 if shown else 0


if __name__ == "__main__":
    sys.exit(main())
