"""``chunk-explorer eval PATH... --max-size 500,1000,2000``: which settings retrieve best
on this code? An offline retrieval evaluation with confidence intervals."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import TYPE_CHECKING

from ..display import axis_cells, bar, plural
from ..engine.batch import default_jobs
from ..engine.files import UnreadableFileError, read_regular_file
from ..engine.options import ChunkOptions
from ..engine.retrieval import (
    HEADLINE_METRICS,
    EvalConfig,
    EvalResult,
    QueryFileError,
    QuerySpec,
    parse_query_lines,
)
from ..engine.retrieval.evaluate import QUERY_SOURCES
from ..engine.retrieval.hybrid import DEFAULT_RRF_K
from ..engine.retrieval.ranking import Retriever
from ..engine.retrieval.recommend import recommend
from ..terminal_text import visible
from ..version import tool_version
from ..workspace.evaluate import evaluate_paths
from ..workspace.export import OutputError
from ..workspace.settings import SettingsError
from ..workspace.walk import common_root, plan
from . import options as cli_options
from .errors import EXIT_FAILED, EXIT_OK, UsageError
from .grid import (
    DEFAULT_BUDGETS,
    add_axes,
    add_objective,
    budget_config,
    build_settings,
    check_save_target,
    console,
    eval_progress,
    pick_setting,
    print_recommendation,
    save_setting,
)
from .report import say, stderr_is_terminal, warn_about_walk

if TYPE_CHECKING:  # rich is imported when there is something to print
    from rich.console import Console

NAME = "eval"
HELP = "which settings retrieve best on this code: an offline retrieval evaluation with intervals"
DESCRIPTION = """\
Chunk the files under every combination of the listed values and measure how well
each setting lets a retriever find the right code.

Queries (--queries, comma-separated sources; docs by default):
  docs   every function, method and class with a doc of at least 8 words gives one,
         the doc's first sentence without the definition's name; every such doc is
         removed from the code before it is chunked and indexed, so retrieval cannot
         match the doc itself.
  calls  needs no docs: the 5 lines up to a call of a function, method or class
         defined once, in another file, are the query; the definition is the target.
         The chunks holding the query's own lines are left out of its ranking.
  types  the same for a type, interface, enum or class named in an annotation.
Or give a JSONL file of your own, one line per query:
{"query": "...", "path": "src/a.py", "start_line": 10, "end_line": 42}
(a path relative to the common root of PATH..., to the current directory, or
absolute; lines 1-based and inclusive). With several sources each is also
reported on its own.

A retrieved chunk is a hit when at least --hit-threshold of the target, or of the
chunk, is shared between them (in non-whitespace characters). Per setting: recall@5
(a hit in the top 5), MRR@10, nDCG@10, recall@budget (the share of the target
covered by the chunks taken in rank order within --budget non-whitespace
characters, or in the settings' size unit: sizes compared at equal context cost),
and the token precision and IoU of the top 5. Each with a 95% bootstrap interval
over the queries, and the paired difference against the reference setting; a
difference counts only when its interval excludes 0.

It ends with one recommended setting for --objective (top5: recall@5; budget:
recall@budget): the best on it among the settings not separated from the best,
preferring the fewest chunks; or "keep your current settings" when they are among
those. --save writes the recommended setting to the settings file.

The retriever is BM25 (offline), your embedding model through any OpenAI-compatible
endpoint (--embed-url http://localhost:11434/v1 --embed-model NAME: Ollama, TEI,
vLLM, llama.cpp, OpenAI), with vectors cached on disk, or both fused (hybrid).

exit status: 0 done, 1 nothing to evaluate, some files failed or the endpoint
failed, 2 usage error (nothing done)."""

#: nws max sizes when none are given (scaled for the other units).
DEFAULT_EVAL_MAX_SIZES = {
    "nws": (500, 1000, 2000), "chars": (1000, 2000, 4000), "lines": (25, 50, 100), "tokens": (256, 512, 1024),
}


def _fraction(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number between 0 and 1, got {text!r}") from None
    if not 0 < value <= 1:
        raise argparse.ArgumentTypeError(f"must be above 0 and at most 1, got {value:g}")
    return value


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be above 0, got {value:g}")
    return value


def _url(text: str) -> str:
    if not text.startswith(("http://", "https://")):
        raise argparse.ArgumentTypeError(f"expected an http:// or https:// URL, got {text!r}")
    return text


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(NAME, help=HELP, description=DESCRIPTION,
                                   formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("paths", nargs="+", metavar="PATH", help="files and directories to evaluate on")
    axes = add_axes(parser, "500,1000,2000", "what is indexed (none: the chunk text alone)")
    axes.add_argument("--reference", metavar="PICK",
                      help="the setting the others are compared with: its number in the # column or its "
                           "max size (default: the current settings if listed, else the first)")
    parser.add_argument("--language", metavar="L", help="parse every file as language L instead of detecting it")
    evaluation = parser.add_argument_group("queries and scoring")
    evaluation.add_argument("--queries", default="docs", metavar="SOURCES|FILE.jsonl",
                            help=f"query sources, comma-separated: {', '.join(QUERY_SOURCES)} (default docs; e.g. "
                                 "docs,calls,types), or a JSONL file of your own")
    evaluation.add_argument("--budget", type=cli_options.positive_int, metavar="N",
                            help="context budget for recall@budget, in the settings' size unit (default "
                                 + ", ".join(f"{n} {unit}" for unit, n in DEFAULT_BUDGETS.items()) + ")")
    add_objective(evaluation)
    evaluation.add_argument("--hit-threshold", type=_fraction, default=0.5, metavar="F",
                            help="share of the target or of the chunk that makes a hit (default 0.5)")
    evaluation.add_argument("--seed", type=cli_options.non_negative_int, default=0, metavar="N",
                            help="bootstrap seed (default 0: the same figures every run)")
    evaluation.add_argument("--resamples", type=cli_options.positive_int, default=1000, metavar="N",
                            help="bootstrap resamples (default 1000)")
    retrieval = parser.add_argument_group("retriever")
    retrieval.add_argument("--retriever", choices=("bm25", "embeddings", "hybrid"), default=None,
                           help="bm25 (default, offline), embeddings (needs --embed-url and --embed-model), or "
                                "hybrid: both, fused by reciprocal rank")
    retrieval.add_argument("--rrf-k", type=_positive_float, default=DEFAULT_RRF_K, metavar="K",
                           help=f"hybrid: the fusion constant, a document scoring 1/(K + rank) per retriever "
                                f"(default {DEFAULT_RRF_K})")
    retrieval.add_argument("--embed-url", type=_url, metavar="URL",
                           help="an OpenAI-compatible API base, e.g. http://localhost:11434/v1 (POST URL/embeddings)")
    retrieval.add_argument("--embed-model", metavar="NAME", help="the model name the endpoint knows")
    retrieval.add_argument("--embed-api-key-env", metavar="VAR",
                           help="name of an environment variable holding the endpoint's API key (sent as Bearer)")
    retrieval.add_argument("--query-prefix", default="", metavar="TEXT",
                           help="prepended to every query (asymmetric models, e.g. 'query: ')")
    retrieval.add_argument("--document-prefix", default="", metavar="TEXT",
                           help="prepended to every chunk (e.g. 'passage: ')")
    retrieval.add_argument("--embed-batch", type=cli_options.positive_int, default=32, metavar="N",
                           help="texts per request (default 32)")
    retrieval.add_argument("--embed-timeout", type=float, default=60.0, metavar="S",
                           help="seconds to wait for each request (default 60)")
    retrieval.add_argument("--embed-retries", type=cli_options.non_negative_int, default=3, metavar="N",
                           help="retries on timeouts, 429 and 5xx answers (default 3)")
    retrieval.add_argument("--embed-max-tokens", type=cli_options.positive_int, metavar="N",
                           help="the model's window: report how many chunks are longer (an exact count with --tokenizer)")
    retrieval.add_argument("--embed-cache", metavar="FILE",
                           help="vector cache (default: $XDG_CACHE_HOME/chunk-explorer/embeddings.sqlite)")
    retrieval.add_argument("--no-embed-cache", action="store_true", help="keep vectors for this run only")
    output = parser.add_argument_group("output")
    output.add_argument("--json", action="store_true", help="print a JSON document instead of the table")
    output.add_argument("--no-chart", action="store_true", help="the table only")
    output.add_argument("--save", action="store_true",
                        help="write the recommended setting to the settings file (.chunk-explorer.toml)")
    output.add_argument("-q", "--quiet", action="store_true", help="no progress bars and no run summary")
    cli_options.add_walk_options(parser)
    cli_options.add_jobs_option(parser)
    cli_options.add_settings_options(parser)
    parser.set_defaults(run=run)
    return parser


# -- the run ---------------------------------------------------------------------------------
def eval_settings(args: argparse.Namespace, base: ChunkOptions) -> list[ChunkOptions]:
    """The grid from the flags; max sizes default to 500,1000,2000 nws (scaled per unit)."""
    return build_settings(args, base, DEFAULT_EVAL_MAX_SIZES)


def read_query_file(path: str, root: str) -> list[QuerySpec]:
    """Parse ``--queries FILE``; its paths are relative to ``root``. Raises UsageError."""
    try:
        data = read_regular_file(path, 64 * 2**20)
    except UnreadableFileError as exc:
        raise UsageError(f"--queries: {exc}") from None
    except OSError as exc:
        raise UsageError(f"--queries: cannot read {path}: {exc.strerror or exc}") from None
    try:
        specs = parse_query_lines(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise UsageError(f"--queries: {path} is not UTF-8 text") from None
    except QueryFileError as exc:
        raise UsageError(f"--queries {path}: {exc}") from None
    if not specs:
        raise UsageError(f"--queries: {path} holds no queries")
    return specs


def is_source_list(text: str) -> bool:
    """Whether ``--queries`` names built-in sources (else it is a file)."""
    parts = [part.strip() for part in text.split(",")]
    return all(part in QUERY_SOURCES for part in parts) and not os.path.isfile(text)


def make_retriever(args: argparse.Namespace, tokenizer: str | None = None) -> Retriever:
    kind = args.retriever or ("embeddings" if args.embed_url else "bm25")
    from ..engine.retrieval.bm25 import BM25Retriever

    if kind == "bm25":
        if args.embed_url or args.embed_model:
            raise UsageError("--embed-url and --embed-model go with --retriever embeddings or hybrid")
        return BM25Retriever()
    if not args.embed_url or not args.embed_model:
        raise UsageError(f"the {kind} retriever needs --embed-url and --embed-model")
    if args.embed_timeout <= 0:
        raise UsageError("--embed-timeout must be above 0")
    from ..engine.retrieval.embeddings import EmbeddingClient, EmbeddingEndpoint, EmbeddingRetriever, VectorCache

    api_key = None
    if args.embed_api_key_env:
        api_key = os.environ.get(args.embed_api_key_env)
        if not api_key:
            raise UsageError(f"--embed-api-key-env: the environment variable {args.embed_api_key_env} is not set")
    endpoint = EmbeddingEndpoint(
        args.embed_url, args.embed_model, api_key=api_key, batch_size=args.embed_batch,
        timeout=args.embed_timeout, retries=args.embed_retries, query_prefix=args.query_prefix,
        document_prefix=args.document_prefix, max_tokens=args.embed_max_tokens, tokenizer=tokenizer,
    )
    cache_path = None if args.no_embed_cache else (args.embed_cache or default_cache_path())
    try:
        cache = VectorCache(cache_path)
    except (OSError, Exception) as exc:  # sqlite3.Error: an unusable cache file
        raise UsageError(f"--embed-cache: cannot use {cache_path}: {exc}") from None
    dense = EmbeddingRetriever(EmbeddingClient(endpoint, cache))
    if kind == "hybrid":
        from ..engine.retrieval.hybrid import HybridRetriever

        return HybridRetriever(BM25Retriever(), dense, rrf_k=args.rrf_k)
    return dense


def default_cache_path() -> str:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "chunk-explorer", "embeddings.sqlite")


def run(args: argparse.Namespace) -> int:
    cli_options.check_paths(args.paths)
    root = common_root(args.paths)
    resolved = cli_options.resolve(args, root)
    settings = eval_settings(args, resolved.options)
    current = next((i for i, s in enumerate(settings) if s == resolved.options), None)
    if args.reference is not None:
        reference = pick_setting(args.reference, settings, "--reference")
    else:
        reference = current if current is not None else 0
    queries: str | list[QuerySpec] = args.queries
    if not is_source_list(args.queries):
        if not os.path.exists(args.queries):
            raise UsageError(f"--queries {args.queries}: neither query sources ({', '.join(QUERY_SOURCES)}, "
                             "comma-separated) nor an existing file")
        queries = read_query_file(args.queries, root)
    budget, budget_unit = budget_config(args.budget, settings)
    config = EvalConfig(budget=budget, hit_threshold=args.hit_threshold, resamples=args.resamples,
                        seed=args.seed, budget_unit=budget_unit)
    explicit_file = bool(getattr(args, "settings", None))
    if args.save:
        check_save_target(resolved, root, explicit_file)
    retriever = make_retriever(args, resolved.options.tokenizer)

    files_plan = plan(args.paths, resolved.walk, root=root)

    warn_about_walk(files_plan)
    jobs = args.jobs or default_jobs()
    show_progress = not args.quiet and stderr_is_terminal()
    try:
        with eval_progress(len(files_plan.files), len(settings), show_progress) as (on_progress, on_setting):
            evaluation = evaluate_paths(files_plan, settings, walk=resolved.walk, queries=queries,
                                        query_source=args.queries, retriever=retriever, config=config,
                                        reference=reference, jobs=jobs, on_progress=on_progress,
                                        on_setting=on_setting)
    except QueryFileError as exc:
        raise UsageError(f"--queries {args.queries}: {exc}") from None
    except RuntimeError as exc:  # EmbeddingError: the endpoint failed
        say(f"chunk-explorer: error: {exc}")
        return EXIT_FAILED
    finally:
        close = getattr(getattr(retriever, "client", None), "close", None)
        if close is not None:
            close()

    result, unreadable = evaluation.result, evaluation.unreadable
    recommendation = recommend(result, args.objective, result.position(current)) if result.complete else None
    saved = save_error = None
    if args.save and recommendation is not None:
        try:
            saved = save_setting(result.settings[recommendation.setting].options, resolved, root, explicit_file)
        except (OutputError, SettingsError) as exc:
            save_error = str(exc)
    if args.json:
        document = {
            "tool": "chunk-explorer",
            "version": tool_version(),
            "root": root,
            "settingsFile": resolved.settings_path,
            "current": current,
            **result.to_dict(),
            "recommendation": None if recommendation is None else recommendation.to_dict(result),
            **({"saved": None if saved is None else {"index": result.settings[recommendation.setting].index,
                                                     "path": saved}}
               if args.save and recommendation is not None else {}),
        }
        json.dump(document, sys.stdout, indent=2)
        sys.stdout.write("\n")
    elif result.queries and result.settings:
        out = console()
        print_table(out, result, current)
        print_sources(out, result)
        print_cut_comparisons(out, result)
        if not args.no_chart:
            print_chart(out, result)
        if recommendation is not None:
            print_recommendation(out, result, recommendation)
    if not args.quiet:
        for line in run_summary(result, len(settings), len(files_plan.skipped) + len(unreadable)):
            say(line)
    if not result.queries:
        say("No queries: no function, method or class with a doc of 8 words or more in a language with full "
            "structure support (see `chunk-explorer languages`); try --queries docs,calls,types, or give "
            "--queries FILE.jsonl." if queries == "docs" else
            "No queries: no source gave any (calls and types need definitions used from other files in a "
            "language with full structure support)." if isinstance(queries, str) else
            "No queries: every query's target is blank.")
        return EXIT_FAILED
    if args.save:
        if save_error is not None or saved is None:
            say(f"chunk-explorer: error: {save_error or 'nothing to save: the evaluation did not finish'}")
            return EXIT_FAILED
        assert recommendation is not None
        chosen = result.settings[recommendation.setting]
        say(f"Saved #{chosen.index + 1} ({chosen.label(result.varied)}) to {visible(saved)}")
    if result.failed:
        say(f"{len(result.failed)} files failed; the figures cover the others.")
        return EXIT_FAILED
    return EXIT_OK


def run_summary(result: EvalResult, settings: int, skipped: int) -> list[str]:
    retrieval = sum(s.seconds.get("retrieve", 0.0) + s.seconds.get("score", 0.0) for s in result.settings)
    lines = [
        f"Evaluated {plural(len(result.settings), 'setting')} of {settings} on {plural(result.files, 'file')} "
        f"({result.bytes / 1e6:.1f} MB), {plural(len(result.queries), 'query', 'queries')} in {result.seconds:.1f} s "
        f"(chunking {result.chunk_seconds:.1f} s on {plural(result.jobs, 'job')}; retrieval and scoring "
        f"{retrieval:.1f} s)."
    ]
    if result.query_source == "docs":
        lines.append(f"Masked {plural(result.masked_docs, 'doc')}; dropped "
                     f"{plural(result.dropped_duplicates, 'query', 'queries')} whose text occurs twice.")
    notes = [s.notes for s in result.settings if s.notes]
    if notes:
        embedded = sum(n.get("embedded", 0) for n in notes)
        cached = sum(n.get("cached", 0) for n in notes)
        lines.append(f"Embedded {plural(embedded, 'text')}, {cached:,} from the cache.")
        for s in result.settings:
            if "over_window" in s.notes:
                how = (f"counted with {s.options.tokenizer}" if s.options.tokenizer
                       else "at least; estimated from words and symbols")
                lines.append(f"  #{s.index + 1}: {s.notes['over_window']:,} of {s.chunks:,} chunks longer than "
                             f"--embed-max-tokens ({how})")
    if skipped or result.not_text:
        lines.append(f"Skipped {plural(skipped + len(result.not_text), 'file or directory', 'files or directories')}.")
    lines += [f"Warning: {visible(w)}" for w in result.warnings]
    for path, message in result.failed[:20]:
        lines.append(f"  failed: {visible(path)}: {visible(message)}")
    return lines


# -- rendering -------------------------------------------------------------------------------
def _points(value: float) -> str:
    return f"{100 * value:.1f}"


def _signed(value: float) -> str:
    return f"{100 * value:+.1f}"


_CELL_WIDTH = 20
#: The chart's measures: as many of the headline measures as fit its bars.
CHART_METRICS = HEADLINE_METRICS[:4]
CHART_COLORS = ("cyan", "magenta", "yellow", "green")


def print_table(console: Console, result: EvalResult, current: int | None) -> None:
    """One row per setting; each measure's cell holds three lines: the value (★ the best),
    its interval, and the paired difference against the reference (dim when not separated)."""
    from rich.table import Table
    from rich.text import Text

    ref = result.settings[result.reference]
    console.print(Text(
        f"Retrieval on {plural(result.files, 'file')}: {plural(len(result.queries), 'query', 'queries')} "
        f"({'from docs, masked' if result.query_source == 'docs' else visible(result.query_source)}), "
        f"{result.retriever}, budget {result.config.budget:,} nws, hit at {result.config.hit_threshold:g} overlap"
        + (f", sizes in tokens counted with {ref.options.tokenizer}" if ref.options.tokenizer else ""),
        style="bold"))
    console.print(Text(f"In each cell: the value in % (★ the best), its 95% bootstrap interval, and the paired "
                       f"difference against #{ref.index + 1} in points, dim when its interval includes 0 "
                       "(not a real difference).", style="dim"))
    headers, axis_rows = axis_cells(result.varied, [s.options for s in result.settings])
    axis_width = sum(max(len(h), *(len(r[i]) for r in axis_rows)) + 2 for i, h in enumerate(headers)) + 14
    room = max(2, ((console.width or 180) - axis_width) // _CELL_WIDTH)
    metrics = list(HEADLINE_METRICS[:room])  # on a narrow terminal the last give way
    table = Table(box=None, header_style="bold", pad_edge=False)
    table.add_column("#", justify="right")
    for header in headers:
        table.add_column(header, justify="right")
    table.add_column("chunks", justify="right")
    for name in metrics:
        table.add_column(name, justify="right", no_wrap=True)
    best = {name: result.best(name) for name in metrics}
    for position, (setting, axis) in enumerate(zip(result.settings, axis_rows)):
        marks = ("r" if position == result.reference else "") + ("*" if setting.index == current else "")
        cells: list[Text] = []
        for name in metrics:
            m, d = setting.metrics[name], setting.delta[name]
            is_best = best[name] == position
            cell = Text(f"{_points(m.value)}{' ★' if is_best else '  '}\n", style="bold" if is_best else "")
            cell.append(f"{_points(m.low)}–{_points(m.high)}  \n", style="")
            if position == result.reference:
                cell.append("reference  ", style="dim")
            else:
                cell.append(f"{_signed(d.value)} ({_signed(d.low)}…{_signed(d.high)})  ",
                            style=("green" if d.value > 0 else "red") if d.separated else "dim")
            cells.append(cell)
        table.add_row(Text(f"{setting.index + 1}{marks}"), *(Text(a) for a in axis), Text(f"{setting.chunks:,}"),
                      *cells)
        if position < len(result.settings) - 1:
            table.add_row()
    console.print(table)
    legend = f"r the reference (#{ref.index + 1})" + ("; * the settings in effect now" if current is not None else "")
    hidden = [name for name in HEADLINE_METRICS if name not in metrics]
    if hidden:
        legend += f"; {', '.join(hidden)} in a wider terminal or with --json"
    console.print(Text(legend, style="dim"))


def print_sources(console: Console, result: EvalResult) -> None:
    """With several query sources: each source's first two headline measures per setting,
    and the paired difference against the reference (dim when not separated)."""
    from rich.table import Table
    from rich.text import Text

    reports = result.by_source()
    if len(reports) < 2 and "," not in result.query_source:
        return
    names = HEADLINE_METRICS[:2]
    table = Table(box=None, header_style="bold", pad_edge=False, title_justify="left")
    table.add_column("#", justify="right")
    for source, report in reports.items():
        for name in names:
            table.add_column(f"{source} ({report.queries:,}) {name}", justify="right")
    for position, setting in enumerate(result.settings):
        cells = [Text(f"{setting.index + 1}")]
        for report in reports.values():
            for name in names:
                m, d = report.metrics[position][name], report.delta[position][name]
                cell = Text(f"{_points(m.value)} ")
                if position == result.reference:
                    cell.append("ref", style="dim")
                else:
                    cell.append(f"{_signed(d.value)}", style=("green" if d.value > 0 else "red") if d.separated else "dim")
                cells.append(cell)
        table.add_row(*cells)
    console.print()
    console.print(Text("Per query source (queries in brackets): value in %, then the difference against the "
                       "reference in points, dim when not separated", style="dim"))
    console.print(table)


def print_cut_comparisons(console: Console, result: EvalResult) -> None:
    """ast against lines on the definitions that lines cuts and ast keeps whole: where
    the strategies actually differ (over all queries the difference is diluted)."""
    from rich.text import Text

    for comparison in result.cut_comparisons():
        ast, lines = result.settings[comparison.setting], result.settings[comparison.reference]
        parts = []
        for name in ("recall@5", "recall@budget", "iou@5"):
            d = comparison.delta[name]
            verdict = "" if d.separated else ", not separated"
            parts.append(f"{name} {_signed(d.value)} ({_signed(d.low)}…{_signed(d.high)}{verdict})")
        console.print(Text(
            f"On the {plural(len(comparison.queries), 'definition')} that #{lines.index + 1} (lines) cuts and "
            f"#{ast.index + 1} (ast) keeps whole, ast - lines: " + "; ".join(parts), style="cyan"))


def print_chart(console: Console, result: EvalResult) -> None:
    """Bars on a 0-100% scale per measure, with the interval drawn around each bar's end."""
    from rich.table import Table
    from rich.text import Text

    measures = tuple(zip(CHART_METRICS, CHART_COLORS))
    headers, axis_rows = axis_cells(result.varied, [s.options for s in result.settings])
    label_width = max(len(" ".join(r)) for r in axis_rows) + 5
    width = max(8, min(30, ((console.width or 100) - label_width) // len(measures) - 8))
    table = Table(box=None, header_style="bold", pad_edge=False)
    table.add_column("#", justify="right")
    table.add_column(" ".join(headers), justify="right")
    peaks = {name: max(s.metrics[name].high for s in result.settings) or 1.0 for name, _ in measures}
    for name, _ in measures:
        table.add_column(f"{name} (0–{_points(peaks[name])}%)")
    for setting, axis in zip(result.settings, axis_rows):
        cells = []
        for name, color in measures:
            m = setting.metrics[name]
            cell = Text(bar(m.value, peaks[name], width), style=color)
            low = round(m.low / peaks[name] * width)
            high = round(m.high / peaks[name] * width)
            whisker = "".join("─" if low <= i <= high else " " for i in range(width + 1))
            cell.append_text(Text(f" {_points(m.value)}", style="bold"))
            cells.append(Text("\n").join([cell, Text(whisker, style="dim")]))
        table.add_row(Text(str(setting.index + 1)), Text(" ".join(axis)), *cells)
    console.print()
    console.print(table)
    console.print(Text("bars: the value; the line under each: its 95% interval on the same scale", style="dim"))
