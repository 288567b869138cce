"""Engine benchmark: speed against the parser, and chunk quality, per language, in one run.

    python benchmarks/engine_bench.py [--max-size 1500] [--size-unit nws] [--only sample|repos]
                                      [--languages python,go] [--repeat 3] [--json]

It runs on two corpora (see ``corpus.py``; each built on first use): a per-language
sample of files of moderate size, and every file of a few whole small repositories
(where the fixed cost of each file weighs as much as users find it does). For every
language of each it prints:

* parse-only throughput (tree-sitter alone on the same bytes), and chunking
  throughput of ``explorer.chunk`` with ``context_mode='none'`` and ``'full'``,
  each the sum over files of the per-file median of ``--repeat`` runs, and their
  ratio to parse-only (the repetitions interleave the three, so a busy machine
  slows them alike), and of the tokens unit (``--tokenizer``, default cl100k_base, at
  ``--token-max-size``, default 512, full context, fit embedded) against nws with full
  context: ``tokens-mode-full-context throughput / nws-mode-full-context throughput``.
  Times are CPU seconds of this process (``--wall`` for wall
  time); MB is 10^6 bytes;
* the chunk size distribution and every chunk quality measure, computed
  by ``explorer.engine.measure.quality`` (the same code as ``chunk-explorer stats``);
* the bar of the project, and for each measure that misses it, concrete
  examples: file, chunk, cut offset and line, the syntax nodes around the cut.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import sys
import time
import traceback
from dataclasses import dataclass, field

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import corpus
from quality_table import format_table

import explorer
from explorer.engine.languages import get_parser
from explorer.engine.measure.quality import FileMetrics, GroupSummary, measure_file, summarize
from explorer.engine.options import ChunkOptions
from explorer.engine.parse import parse_source
from explorer.engine.text import SourceText

#: The bar the project holds the chunker to (the full-context figures included).
BAR = (
    ("exact%", lambda g: g.exact_pct, "==", 100.0),
    ("over%", lambda g: g.over_pct, "==", 0.0),
    ("tiny%", lambda g: g.tiny_pct, "<", 2.0),
    # token% "only inside tokens that alone exceed the limit": those cuts cannot be clean
    ("clean% w/o forced", lambda g: g.clean_unforced_pct, ">=", 99.0),
    ("split_top%", lambda g: g.split_top_pct, "==", 0.0),
    ("doc_split%", lambda g: g.doc_split_pct, "<", 5.0),
)
RATIO_BAR = {"chunk_none": 0.8, "chunk_full": 0.5}  # the bar: 0.8x parse alone without context, 0.5x with full context
#: Counting tokens must not multiply the cost: tokens mode (full context) against nws mode (full context).
TOKENS_RATIO_BAR = 0.6
MODES = ("parse", "chunk_none", "chunk_full", "chunk_tokens")
#: The tokens run: ``--tokenizer`` at ``--token-max-size`` (set in main).
TOKENS: dict = {}


def meets(value: float | None, op: str, target: float) -> bool:
    if value is None:
        return True
    return {"==": abs(value - target) < 1e-9, "<": value < target, ">=": value >= target}[op]


@dataclass
class SourceFile:
    path: str  # in the corpus
    origin: str  # where it came from
    data: bytes
    times: dict[str, list[float]] = field(default_factory=lambda: {m: [] for m in MODES})
    error: str | None = None


def load_files(root: str, manifest: dict, language: str) -> list[SourceFile]:
    files = []
    for entry in manifest["languages"][language]["files"]:
        path = os.path.join(root, entry["file"])
        with open(path, "rb") as handle:
            files.append(SourceFile(path, entry["origin"], handle.read()))
    return files


#: CPU time of this process by default: on a shared machine wall time measures the neighbours too.
CLOCK = time.process_time


def time_language(language: str, files: list[SourceFile], options: ChunkOptions, repeat: int) -> list:
    """Interleaved timings; returns the chunks of the last context-none run, per file
    (None for a file on which chunking raised: it is reported, and left out of every figure)."""
    parser = get_parser(language)
    clock = CLOCK
    none = dict(max_size=options.max_size, size_unit=options.size_unit, context_mode="none")
    full = dict(max_size=options.max_size, size_unit=options.size_unit, context_mode="full")
    tokens = dict(TOKENS, context_mode="full")
    chunks: list = [None] * len(files)
    for _ in range(repeat):
        for i, f in enumerate(files):
            if f.error:
                continue
            try:
                t0 = clock()
                parser.parse(f.data)
                t1 = clock()
                chunks[i] = explorer.chunk(f.path, f.data, **none)
                t2 = clock()
                explorer.chunk(f.path, f.data, **full)
                t3 = clock()
                if tokens:
                    explorer.chunk(f.path, f.data, **tokens)
                t4 = clock()
            except Exception as exc:  # a crash is a finding: report it with the file
                where = traceback.extract_tb(exc.__traceback__)[-1]
                f.error = f"{type(exc).__name__}: {exc} (at {os.path.basename(where.filename)}:{where.lineno} {where.name})"
                chunks[i] = None
                continue
            f.times["parse"].append(t1 - t0)
            f.times["chunk_none"].append(t2 - t1)
            f.times["chunk_full"].append(t3 - t2)
            if tokens:
                f.times["chunk_tokens"].append(t4 - t3)
        gc.collect()
    return chunks


def measure_language(language: str, files: list[SourceFile], options: ChunkOptions, repeat: int) -> list[FileMetrics]:
    chunks = time_language(language, files, options, repeat)
    measured = []
    for f, file_chunks in zip(files, chunks):
        if f.error:
            continue
        parsed = parse_source(SourceText(f.data, f.path), f.path)
        seconds = {m: statistics.median(t) for m, t in f.times.items() if t}
        metrics = measure_file(parsed, file_chunks, options, seconds=seconds)
        metrics.path = f.origin
        measured.append(metrics)
    return measured


def speed_rows(summary) -> list[dict]:
    rows = []
    for name, group in [*summary.languages.items(), ("ALL", summary.overall)]:
        tp = group.throughput()
        rows.append(
            {
                "language": name,
                "mb": group.bytes / 1e6,
                "parse": tp.get("parse"),
                "none": tp.get("chunk_none"),
                "full": tp.get("chunk_full"),
                "none_ratio": tp["chunk_none"] / tp["parse"] if tp.get("parse") else None,
                "full_ratio": tp["chunk_full"] / tp["parse"] if tp.get("parse") else None,
                "tokens": tp.get("chunk_tokens"),
                # tokens mode (full context) throughput / nws mode (full context) throughput
                "tokens_ratio": tp["chunk_tokens"] / tp["chunk_full"] if tp.get("chunk_tokens") else None,
            }
        )
    return rows


def format_speed(rows: list[dict]) -> str:
    head = f"{'language':<11} {'MB':>6} {'parse MB/s':>10} {'none MB/s':>10} {'ratio':>6} {'full MB/s':>10} {'ratio':>6}"
    if TOKENS:
        head += f" {'tokens MB/s':>11} {'/full':>6}"
    lines = [head]
    for r in rows:
        line = (
            f"{r['language']:<11} {r['mb']:6.2f} {r['parse']:10.2f} {r['none']:10.2f} {r['none_ratio']:6.2f}"
            f" {r['full']:10.2f} {r['full_ratio']:6.2f}"
        )
        if TOKENS:
            line += f" {_fmt(r['tokens']):>11} {_fmt(r['tokens_ratio']):>6}"
        lines.append(line)
    return "\n".join(lines)


# -- failures, with examples for whoever fixes the chunker -----------------------------------
def _context_line(data: bytes, offset: int) -> str:
    start = data.rfind(b"\n", 0, offset) + 1
    end = data.find(b"\n", offset)
    end = len(data) if end < 0 else end
    line = data[start:end].decode("utf-8", "replace")
    col = len(data[start:offset].decode("utf-8", "replace"))
    line = line.replace("\t", " ")
    if len(line) > 100:
        lo = max(0, col - 50)
        line, col = line[lo : lo + 100], col - lo
    return f"{line}\n{' ' * col}^"


def _chunk_index(chunks: list, offset: int) -> int:
    for c in chunks:
        if c.byte_range.start <= offset < c.byte_range.end:
            return c.index
    return -1


def failure_examples(language: str, files: list[SourceFile], measured: list[FileMetrics], limit: int) -> dict[str, list[str]]:
    """Up to ``limit`` examples per failing kind: non-clean cuts, split definitions, over-size and tiny chunks."""
    examples: dict[str, list[str]] = {"token": [], "inner": [], "split_top": [], "doc_split": [], "over": [], "tiny": []}
    by_origin = {f.origin: f for f in files}
    for m in measured:
        f = by_origin[m.path or ""]
        chunks = None

        def get_chunks(f: SourceFile = f, m: FileMetrics = m) -> list[explorer.Chunk]:  # this file's, made once
            nonlocal chunks
            if chunks is None:
                chunks = explorer.chunk(f.path, f.data, max_size=m.max_size, size_unit=m.size_unit, context_mode="none")
            return chunks

        for cut in m.cuts:
            if cut.kind in ("token", "inner") and len(examples[cut.kind]) < limit and not cut.oversized_token:
                idx = _chunk_index(get_chunks(), cut.offset)
                examples[cut.kind].append(
                    f"{m.path}:{cut.line + 1}  chunk {idx} starts at byte {cut.offset}; parent={cut.parent} "
                    f"before={cut.before} after={cut.after}\n{_indent(_context_line(f.data, cut.offset))}"
                )
        for split in m.splits:
            key = "doc_split" if split.what == "doc" else ("split_top" if split.what == "top" else None)
            if key and len(examples[key]) < limit:
                inside = sorted({_chunk_index(get_chunks(), o) for o in (split.start, split.end - 1)})
                examples[key].append(
                    f"{m.path}:{split.line + 1}  {split.kind} bytes {split.start}-{split.end} "
                    f"(size {split.size}) spread over chunks {inside[0]}..{inside[-1]}"
                )
        if (m.over or m.tiny) and (len(examples["over"]) < limit or len(examples["tiny"]) < limit):
            for c in get_chunks():
                if c.size > m.max_size and len(examples["over"]) < limit:
                    examples["over"].append(f"{m.path}:{c.line_range.start + 1}  chunk {c.index} size {c.size}")
                if c.nws < 50 and len(examples["tiny"]) < limit and len(get_chunks()) > 1:
                    text = c.text.strip().replace("\n", "\\n")[:80]
                    examples["tiny"].append(f"{m.path}:{c.line_range.start + 1}  chunk {c.index}/{len(get_chunks())} nws={c.nws}: {text!r}")
    return {k: v for k, v in examples.items() if v}


def _fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def _indent(text: str) -> str:
    return "\n".join("      " + line for line in text.splitlines())


def check_bar(name: str, group: GroupSummary, speed: dict) -> list[str]:
    misses = []
    for label, get, op, target in BAR:
        value = get(group)
        if not meets(value, op, target):
            misses.append(f"{name}: {label} = {value:.2f} (bar {op} {target:g})")
    for mode, floor in RATIO_BAR.items():
        ratio = speed.get(mode.replace("chunk_", "") + "_ratio")
        if ratio is not None and ratio < floor:
            misses.append(f"{name}: throughput {mode} = {ratio:.2f} x parse (bar >= {floor})")
    ratio = speed.get("tokens_ratio")
    if ratio is not None and ratio < TOKENS_RATIO_BAR:
        misses.append(f"{name}: tokens-mode throughput = {ratio:.2f} x nws mode, full context (bar >= {TOKENS_RATIO_BAR})")
    return misses


def run_corpus(root: str, manifest: dict, languages: list[str], options: ChunkOptions, args: argparse.Namespace) -> dict:
    """Time and measure every language of one corpus; the figures and misses, for printing."""
    all_metrics: list[FileMetrics] = []
    errors: list[str] = []
    examples: dict[str, dict[str, list[str]]] = {}
    files_count = 0
    for language in languages:
        files = load_files(root, manifest, language)
        files_count += len(files)
        measured = measure_language(language, files, options, args.repeat)
        all_metrics.extend(measured)
        examples[language] = failure_examples(language, files, measured, args.examples)
        errors.extend(f"{language}: {f.origin}: {f.error}" for f in files if f.error)
        if not args.json:
            print(f"  {language}: {len(files)} files done", file=sys.stderr, flush=True)
    summary = summarize(all_metrics)
    speed = speed_rows(summary)
    speed_by_name = {r["language"]: r for r in speed}
    # The bar is for the corpus as a whole; per language it says where the cost is.
    misses = [f"chunking raised on {len(errors)} files (left out of every figure)"] if errors else []
    misses.extend(check_bar("ALL", summary.overall, speed_by_name["ALL"]))
    language_misses = [m for name, group in summary.languages.items() for m in check_bar(name, group, speed_by_name[name])]
    return {"summary": summary, "speed": speed, "misses": misses, "language_misses": language_misses,
            "errors": errors, "examples": examples, "files": files_count}


def print_report(title: str, result: dict, args: argparse.Namespace) -> None:
    summary, misses, language_misses = result["summary"], result["misses"], result["language_misses"]
    print(f"\n=== {title}: {result['files']} files ===\n")
    print("Throughput (sum of per-file medians; ratio = chunking / parse-only, same files, same run)")
    print(format_speed(result["speed"]))
    overall = next(r for r in result["speed"] if r["language"] == "ALL")
    if overall.get("tokens_ratio") is not None:
        print(f"tokens-mode-full-context throughput / nws-mode-full-context throughput: {overall['tokens_ratio']:.2f} "
              f"({TOKENS['tokenizer']}, max {TOKENS['max_size']} tokens, fit embedded; bar >= {TOKENS_RATIO_BAR})")
    print(f"\nQuality ({summary.size_unit}, max {summary.max_size}; sizes in the unit)")
    print(format_table(summary))
    o = summary.overall
    print(f"\nnws coverage {o.coverage_pct:.3f}%   cuts {o.total_cuts}   token cuts inside tokens over the "
          f"limit {o.oversized_token_cuts}   files without tree {o.files_without_tree}")
    print("clean% leaving out cuts inside tokens over the limit: "
          + "  ".join(f"{n} {_fmt(g.clean_unforced_pct)}" for n, g in [*summary.languages.items(), ("ALL", o)]))
    print("\nBar, on the whole corpus: exact%=100 over%=0 tiny%<2 clean%>=99 (leaving out cuts inside tokens "
          f"over the limit) split_top%=0 doc_split%<5 speed>={RATIO_BAR['chunk_none']}x parse (none), "
          f">={RATIO_BAR['chunk_full']}x (full)")
    if not misses:
        print("all measures meet the bar")
    for miss in misses:
        print("  MISS " + miss)
    if language_misses:
        print("per language, below the bar:")
        for miss in language_misses:
            print("  " + miss)
    for error in result["errors"]:
        print("  ERROR " + error)
    for language, kinds in result["examples"].items():
        for kind, items in kinds.items():
            print(f"\n{language}: examples of {kind}")
            for item in items:
                print("  " + item)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--max-size", type=int, default=1500)
    parser.add_argument("--size-unit", default="nws", choices=("nws", "chars", "lines"))
    parser.add_argument("--languages", help="comma-separated subset of the corpus languages")
    parser.add_argument("--repeat", type=int, default=3, help="timed repetitions per file (median)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of tables")
    parser.add_argument("--examples", type=int, default=5, help="examples per failing measure")
    parser.add_argument("--corpus", default=corpus.DEFAULT_OUT)
    parser.add_argument("--cap-mb", type=float, help="corpus megabytes per language (rebuilds the corpus if it differs)")
    parser.add_argument("--repos", default=corpus.DEFAULT_REPOS_OUT,
                        help="the whole-repositories corpus (built on first use; see corpus.py --repos)")
    parser.add_argument("--only", choices=("sample", "repos"), help="run one of the two corpora only")
    parser.add_argument("--wall", action="store_true", help="time with the wall clock instead of CPU time")
    parser.add_argument("--tokenizer", default="cl100k_base",
                        help="also time the tokens unit with this tokenizer ('none': do not)")
    parser.add_argument("--token-max-size", type=int, default=512, help="max size of the tokens run")
    args = parser.parse_args()
    if args.tokenizer != "none":
        TOKENS.update(size_unit="tokens", tokenizer=args.tokenizer, max_size=args.token_max_size)
    if args.wall:
        global CLOCK
        CLOCK = time.perf_counter

    options = ChunkOptions(max_size=args.max_size, size_unit=args.size_unit)
    corpora = []
    if args.only != "repos":
        corpora.append(("sample", "per-language sample (3 MB each, files of 200 B-400 KB)", args.corpus,
                        corpus.load(args.corpus, args.cap_mb)))
    if args.only != "sample":
        corpora.append(("repos", "whole repositories (every file)", args.repos, corpus.load_repos(args.repos)))
    started = time.perf_counter()
    results = {}
    for key, title, root, manifest in corpora:
        languages = list(manifest["languages"])
        if args.languages:
            wanted = [name.strip() for name in args.languages.split(",")]
            languages = [w for w in wanted if w in languages]
            if not languages:
                continue
        results[key] = (title, root, run_corpus(root, manifest, languages, options, args))

    if args.json:
        print(json.dumps({"options": options.to_dict(), "repeat": args.repeat, "corpora": {
            key: {"root": root, "summary": r["summary"].to_dict(), "speed": r["speed"], "misses": r["misses"],
                  "languageMisses": r["language_misses"], "errors": r["errors"], "examples": r["examples"]}
            for key, (_, root, r) in results.items()}}, indent=1))
        return
    print(f"\nchunk-explorer {explorer.__version__}  max_size={args.max_size} {args.size_unit}  "
          f"repeat={args.repeat}  ({time.perf_counter() - started:.0f} s)")
    for _key, (title, root, result) in results.items():
        print_report(f"{title}, {root}", result, args)


if __name__ == "__main__":
    main()
