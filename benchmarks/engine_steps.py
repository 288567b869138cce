"""Where chunking's time goes: each step of the engine, per language, as a share of the parse.

    python benchmarks/engine_steps.py [--only sample|repos] [--languages java,python]
                                      [--repeat 5] [--max-size 1500] [--json]

``engine_bench.py`` gives the ratios to the parse floor; this gives what makes up the
difference. Each step runs alone on the same files, on the results of the steps before it
(made once, outside the timing), and is timed in CPU seconds of this process; a step's
figure is the sum over files of its per-file median of ``--repeat`` runs, printed as a
share of the parse's. The steps:

* ``read``: decoding the bytes and finding the language;
* ``errors``: finding and describing the syntax errors of a file that has some;
* ``spans``: the chunker's cuts (``iter_spans``), the same with and without context;
* ``records``: the chunks made from those spans with context none;
* ``structure``: entities, signatures, doc comments, imports and the scope index;
* ``context``: each chunk's context (scope, entities, siblings, imports), the builder included;
* ``header``: each chunk's contextualized text from its context;
* ``sizer``: in tokens (``--tokenizer``), counting the file's stretches once.

``none`` and ``full`` are the ratios of ``explorer.chunk`` itself (parse / chunk, as
``engine_bench.py`` prints them), timed in the same loop, and ``rest`` what their time holds
beyond the steps (records with full context, and what no step isolates).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import sys
import time
from collections.abc import Callable

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import corpus
from engine_bench import load_files

import explorer
from explorer.engine.api import iter_chunks
from explorer.engine.chunker import iter_spans
from explorer.engine.context import ContextBuilder
from explorer.engine.languages import detect_language, get_parser
from explorer.engine.options import ChunkOptions
from explorer.engine.parse import describe_errors, find_errors, parse_source
from explorer.engine.structure import extract_structure
from explorer.engine.text import SourceText

CLOCK = time.process_time
#: The steps shown as shares of the parse, in the table's order.
SHARE_STEPS = ("read", "errors", "spans", "records", "structure", "context", "header", "sizer")
STEPS = ("parse", *SHARE_STEPS, "none", "full")


def _timed(step: Callable[[], object]) -> float:
    start = CLOCK()
    step()
    return CLOCK() - start


def time_file(path: str, data: bytes, language: str, none: ChunkOptions, full: ChunkOptions,
              tokens: ChunkOptions | None) -> dict[str, float]:
    """One run of every step on one file (CPU seconds)."""
    parser = get_parser(language)
    times = {"parse": _timed(lambda: parser.parse(data))}
    # The whole runs first, on a heap as the benchmark's (the steps' objects would slow them).
    times["none"] = _timed(lambda: explorer.chunk(path, data, **none.to_dict()))
    times["full"] = _timed(lambda: explorer.chunk(path, data, **full.to_dict()))
    times["read"] = _timed(lambda: detect_language(path, SourceText(data, path).data[:256]))
    parsed = parse_source(SourceText(data, path), path)
    root = parsed.root
    if root is not None and root.has_error:
        times["errors"] = _timed(lambda: describe_errors(find_errors(root), parsed.source))
    times["spans"] = _timed(lambda: list(iter_spans(parsed, none)))
    spans = list(iter_spans(parsed, none))
    times["records"] = _timed(lambda: list(iter_chunks(parsed, none, spans=spans, total=len(spans))))
    times["structure"] = _timed(lambda: extract_structure(parsed))
    structure = extract_structure(parsed)

    def contexts() -> list:
        builder = ContextBuilder(parsed, full, path, structure)
        return [builder.context_for(span.start, span.end) for span in spans]

    times["context"] = _timed(contexts)
    builder = ContextBuilder(parsed, full, path, structure)
    made = [(builder.context_for(span.start, span.end), parsed.source.slice(span.start, span.end)) for span in spans]
    times["header"] = _timed(lambda: [builder.contextualize(context, text, "") for context, text in made])
    if tokens is not None:
        fresh = SourceText(data, path)  # sizers are kept with their text: a new one counts again
        times["sizer"] = _timed(lambda: tokens.measure.sizer(fresh)(0, 1))
    return times


def run_language(root: str, manifest: dict, language: str, args: argparse.Namespace) -> dict[str, float]:
    """Each step's time summed over the language's files (per-file medians)."""
    none = ChunkOptions(max_size=args.max_size, context_mode="none")
    full = ChunkOptions(max_size=args.max_size, context_mode="full")
    tokens = None
    if args.tokenizer != "none":
        tokens = ChunkOptions(max_size=args.token_max_size, size_unit="tokens", tokenizer=args.tokenizer)
    files = [(f.path, f.data) for f in load_files(root, manifest, language)]
    totals = dict.fromkeys((*STEPS, "with errors"), 0.0)
    for path, data in files:
        if parse_source(SourceText(data, path), path).tree is None:
            continue  # no tree, no steps: chunked by lines
        runs = []
        for _ in range(args.repeat):
            gc.collect()  # each run on a clean heap, as engine_bench.py's
            runs.append(time_file(path, data, language, none, full, tokens))
        for step in STEPS:
            if step in runs[0]:
                totals[step] += statistics.median(run[step] for run in runs)
        totals["with errors"] += "errors" in runs[0]
    totals["files"] = len(files)
    totals["mb"] = sum(len(data) for _, data in files) / 1e6
    return totals


def shares(totals: dict[str, float]) -> dict[str, float]:
    """Each step as a share of the parse, the ratios of ``none`` and ``full``, and the rest."""
    parse = totals["parse"] or 1e-12
    out = {step: totals[step] / parse for step in SHARE_STEPS}
    out["none"] = parse / totals["none"] if totals["none"] else 0.0
    out["full"] = parse / totals["full"] if totals["full"] else 0.0
    steps = totals["parse"] + sum(totals[step] for step in SHARE_STEPS if step not in ("records", "sizer"))
    out["rest"] = (totals["full"] - steps) / parse
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", choices=("sample", "repos"), default="sample", help="which corpus (see corpus.py)")
    parser.add_argument("--languages", help="comma-separated subset of the corpus languages")
    parser.add_argument("--repeat", type=int, default=5, help="timed runs per file (median)")
    parser.add_argument("--max-size", type=int, default=1500, help="max size in nws")
    parser.add_argument("--tokenizer", default="cl100k_base", help="time the token sizer with it ('none': do not)")
    parser.add_argument("--token-max-size", type=int, default=512)
    parser.add_argument("--corpus", default=corpus.DEFAULT_OUT)
    parser.add_argument("--repos", default=corpus.DEFAULT_REPOS_OUT)
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args()
    root = args.corpus if args.only == "sample" else args.repos
    manifest = corpus.load(root) if args.only == "sample" else corpus.load_repos(root)
    languages = list(manifest["languages"])
    if args.languages:
        languages = [name for name in (n.strip() for n in args.languages.split(",")) if name in languages]
    results = {language: run_language(root, manifest, language, args) for language in languages}
    if args.json:
        print(json.dumps({language: {**totals, "shares": shares(totals)} for language, totals in results.items()}, indent=1))
        return
    print(f"CPU time of each step as a share of the parse ({args.only} corpus, medians of {args.repeat}, "
          f"max {args.max_size} nws; none and full: parse / chunk)")
    header = ("language", "files", "w/ errors", "MB", "parse s", "read", "errors", "spans", "records", "structure", "context", "header", "sizer",
              "rest", "none", "full")
    print(" ".join(f"{h:>9}" for h in header))
    for language, totals in results.items():
        share = shares(totals)
        cells = [f"{language:>9}", f"{totals['files']:9.0f}", f"{totals['with errors']:9.0f}", f"{totals['mb']:9.2f}",
                 f"{totals['parse']:9.3f}"]
        cells += [f"{share[step]:8.0%} " for step in SHARE_STEPS[:-1]]
        cells.append(f"{share['sizer']:8.0%} " if args.tokenizer != "none" else f"{'-':>9}")
        cells += [f"{share['rest']:8.0%} ", f"{share['none']:9.2f}", f"{share['full']:9.2f}"]
        print(" ".join(cells))


if __name__ == "__main__":
    main()
