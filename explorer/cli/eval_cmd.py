"""``chunk-explorer eval PATH... --max-size 500,1000,2000``: which settings retrieve best
on this code? An offline retrieval evaluation with confidence intervals. The flags and the
run; what it prints is in :mod:`.eval_render`, the retriever is built by
:mod:`explorer.workspace.retrievers`."""

from __future__ import annotations

import argparse
import os

from ..engine.batch.skips import SkipRecord
from ..engine.files import UnreadableFileError, read_regular_file
from ..engine.options import ChunkOptions
from ..engine.retrieval import EvalConfig, QueryFileError, QuerySpec, parse_query_lines
from ..engine.retrieval.evaluate import QUERY_SOURCES
from ..engine.retrieval.hybrid import DEFAULT_RRF_K
from ..engine.retrieval.pareto import pareto
from ..engine.retrieval.recommend import advice_by_source, recommend, sources_disagree
from ..engine.tokens import TokenizerError, get_counter
from ..terminal_text import visible
from ..workspace.evaluate import DEFAULT_BUDGETS, budget_config, evaluate_paths
from ..workspace.export import OutputError, json_header
from ..workspace.retrievers import RETRIEVER_KINDS, RetrieverError, RetrieverSpec, close_retriever, make_retriever
from ..workspace.settings import SettingsError
from . import options as cli_options
from .errors import EXIT_FAILED, UsageError
from .eval_render import print_chart, print_cut_comparisons, print_sources, print_table, run_summary
from .flag_types import fraction, non_negative_int, positive_float, positive_int, url
from .frame import Frame
from .history_flags import add_history_options, history_cache, history_rules
from .html_report import add_html_option, check_html_target, write_html
from .outcome import Outcome
from .output import console, print_json
from .recommendation import add_objective, print_recommendation
from .report import error, eval_progress, say, warn_about_cache
from .save_setting import check_save_target, save_setting
from .settings_grid import add_axes, build_settings, current_index, merge_equivalents, pick_setting
from .tradeoff import print_source_advice, print_tradeoff
from .verbs import SUMMARIES

NAME = "eval"
HELP = SUMMARIES[NAME]
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
  history  the repository's git history: each commit's message asks for the
         definitions its diff changed that the tree still has (matched by path and
         qualified name). Merges, bots, reverts, releases, short messages, renames,
         formatting, test-only, generated and big changes give none (counted);
         reported also without the messages that name their target.
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

The trade-off table puts recall@5 against three costs per setting: chunks in the
index, embedded tokens, and tokens in the top 5; a setting is on a cost's front
(◆) when no other has as high a recall@5 for less of that cost.

It ends with one recommended setting for --objective (top5: recall@5; budget:
recall@budget): the best on it among the settings not separated from the best,
preferring the fewest chunks; or "keep your current settings" when they are among
those; then each source's own advice, with a warning when they disagree. --save
writes the recommended setting to the settings file.

The retriever is BM25 (offline), your embedding model through any OpenAI-compatible
endpoint (--embed-url http://localhost:11434/v1 --embed-model NAME: Ollama, TEI,
vLLM, llama.cpp, OpenAI), with vectors cached on disk, or both fused (hybrid).

exit status: 0 done; 1 no queries, some files failed, a file named on the command
line was skipped, no file to evaluate, or the endpoint failed; 2 usage error (nothing
done)."""

#: nws max sizes when none are given (scaled for the other units).
DEFAULT_EVAL_MAX_SIZES = {
    "nws": (500, 1000, 2000), "chars": (1000, 2000, 4000), "lines": (25, 50, 100), "tokens": (256, 512, 1024),
}


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(NAME, help=HELP, description=DESCRIPTION,
                                   formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("paths", nargs="+", metavar="PATH", help="files and directories to evaluate on")
    axes = add_axes(parser, "500,1000,2000", "what is indexed (none: the chunk text alone)")
    axes.add_argument("--reference", metavar="PICK",
                      help="the setting the others are compared with: its number in the # column or its "
                           "max size (default: the current settings if listed, else the first)")
    cli_options.add_language_option(parser)
    evaluation = parser.add_argument_group("queries and scoring")
    evaluation.add_argument("--queries", default="docs", metavar="SOURCES|FILE.jsonl",
                            help=f"query sources, comma-separated: {', '.join(QUERY_SOURCES)} (default docs; e.g. "
                                 "docs,calls,types), or a JSONL file of your own")
    evaluation.add_argument("--budget", type=positive_int, metavar="N",
                            help="context budget for recall@budget, in the settings' size unit (default "
                                 + ", ".join(f"{n} {unit}" for unit, n in DEFAULT_BUDGETS.items()) + ")")
    add_objective(evaluation)
    evaluation.add_argument("--cost-tokenizer", metavar="NAME|PATH",
                            help="what the trade-off's token costs are counted with (default: the settings' "
                                 "--tokenizer, else cl100k_base when installed, else non-whitespace characters)")
    evaluation.add_argument("--hit-threshold", type=fraction, default=0.5, metavar="F",
                            help="share of the target or of the chunk that makes a hit (default 0.5)")
    evaluation.add_argument("--seed", type=non_negative_int, default=0, metavar="N",
                            help="bootstrap seed (default 0: the same figures every run)")
    evaluation.add_argument("--resamples", type=positive_int, default=1000, metavar="N",
                            help="bootstrap resamples (default 1000)")
    retrieval = parser.add_argument_group("retriever")
    retrieval.add_argument("--retriever", choices=RETRIEVER_KINDS, default=None,
                           help="bm25 (default, offline), embeddings (needs --embed-url and --embed-model), or "
                                "hybrid: both, fused by reciprocal rank")
    retrieval.add_argument("--rrf-k", type=positive_float, default=DEFAULT_RRF_K, metavar="K",
                           help=f"hybrid: the fusion constant, a document scoring 1/(K + rank) per retriever "
                                f"(default {DEFAULT_RRF_K})")
    retrieval.add_argument("--embed-url", type=url, metavar="URL",
                           help="an OpenAI-compatible API base, e.g. http://localhost:11434/v1 (POST URL/embeddings)")
    retrieval.add_argument("--embed-model", metavar="NAME", help="the model name the endpoint knows")
    retrieval.add_argument("--embed-api-key-env", metavar="VAR",
                           help="name of an environment variable holding the endpoint's API key (sent as Bearer)")
    retrieval.add_argument("--query-prefix", default="", metavar="TEXT",
                           help="prepended to every query (asymmetric models, e.g. 'query: ')")
    retrieval.add_argument("--document-prefix", default="", metavar="TEXT",
                           help="prepended to every chunk (e.g. 'passage: ')")
    retrieval.add_argument("--embed-batch", type=positive_int, default=32, metavar="N",
                           help="texts per request (default 32)")
    retrieval.add_argument("--embed-timeout", type=float, default=60.0, metavar="S",
                           help="seconds to wait for each request (default 60)")
    retrieval.add_argument("--embed-retries", type=non_negative_int, default=3, metavar="N",
                           help="retries on timeouts, 429 and 5xx answers (default 3)")
    retrieval.add_argument("--embed-max-tokens", type=positive_int, metavar="N",
                           help="the model's window: report how many chunks are longer (an exact count with --tokenizer)")
    retrieval.add_argument("--embed-cache", metavar="FILE",
                           help="vector cache (default: $XDG_CACHE_HOME/chunk-explorer/embeddings.sqlite)")
    retrieval.add_argument("--no-embed-cache", action="store_true", help="keep vectors for this run only")
    output = parser.add_argument_group("output")
    output.add_argument("--json", action="store_true", help="print a JSON document instead of the table")
    output.add_argument("--no-chart", action="store_true", help="the table only")
    add_html_option(output)
    output.add_argument("--save", action="store_true",
                        help="write the recommended setting to the settings file (.chunk-explorer.toml)")
    output.add_argument("-q", "--quiet", action="store_true", help="no progress bars and no run summary")
    add_history_options(parser)
    cli_options.add_cache_option(parser)
    cli_options.add_walk_options(parser)
    cli_options.add_jobs_option(parser)
    cli_options.add_settings_options(parser)
    parser.set_defaults(run=run)
    return parser


# -- the run ---------------------------------------------------------------------------------
def eval_settings(args: argparse.Namespace, base: ChunkOptions) -> list[ChunkOptions]:
    """The grid from the flags; max sizes default to 500,1000,2000 nws (scaled per unit)."""
    return build_settings(args, base, DEFAULT_EVAL_MAX_SIZES)


def read_query_file(path: str) -> list[QuerySpec]:
    """Parse ``--queries FILE`` (its paths relative to the root, the current directory, or
    absolute: resolved by the evaluation). Raises UsageError."""
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


def retriever_spec(args: argparse.Namespace) -> RetrieverSpec:
    """The retriever the ``retriever`` flags ask for."""
    return RetrieverSpec(
        kind=args.retriever, embed_url=args.embed_url, embed_model=args.embed_model,
        api_key_env=args.embed_api_key_env, batch_size=args.embed_batch, timeout=args.embed_timeout,
        retries=args.embed_retries, query_prefix=args.query_prefix, document_prefix=args.document_prefix,
        max_tokens=args.embed_max_tokens, cache=args.embed_cache, keep_cache=not args.no_embed_cache,
        rrf_k=args.rrf_k,
    )


def run(args: argparse.Namespace) -> int:
    frame = Frame.open(args)
    settings = eval_settings(args, frame.options)
    settings, merged = merge_equivalents(settings, quiet=args.quiet)
    current = current_index(settings, frame.options)
    if args.reference is not None:
        reference = pick_setting(args.reference, settings, "--reference")
    else:
        reference = current if current is not None else 0
    queries: str | list[QuerySpec] = args.queries
    if not is_source_list(args.queries):
        if not os.path.exists(args.queries):
            raise UsageError(f"--queries {args.queries}: neither query sources ({', '.join(QUERY_SOURCES)}, "
                             "comma-separated) nor an existing file")
        queries = read_query_file(args.queries)
    budget, budget_unit = budget_config(args.budget, settings)
    config = EvalConfig(budget=budget, hit_threshold=args.hit_threshold, resamples=args.resamples,
                        seed=args.seed, budget_unit=budget_unit, cost_tokenizer=args.cost_tokenizer)
    if args.cost_tokenizer:
        try:
            get_counter(args.cost_tokenizer)
        except TokenizerError as exc:
            raise UsageError(f"--cost-tokenizer: {exc}") from None
    if args.save:
        check_save_target(frame)
    check_html_target(args)
    try:
        retriever = make_retriever(retriever_spec(args), frame.options.tokenizer)
    except RetrieverError as exc:
        raise UsageError(str(exc)) from None

    cache = cli_options.results_cache(args)
    files_plan = frame.walk()
    try:
        with eval_progress(len(files_plan.files), len(settings), frame.show_progress) as (on_progress, on_setting):
            evaluation = evaluate_paths(files_plan, settings, walk=frame.resolved.walk, queries=queries,
                                        query_source=args.queries, retriever=retriever, config=config,
                                        reference=reference, jobs=frame.jobs, on_progress=on_progress,
                                        on_setting=on_setting, history=history_rules(args),
                                        history_cache=history_cache(args), results_cache=cache)
    except QueryFileError as exc:
        raise UsageError(f"--queries {args.queries}: {exc}") from None
    except RuntimeError as exc:  # EmbeddingError: the endpoint failed
        error(str(exc))
        return EXIT_FAILED
    finally:
        close_retriever(retriever)
    warn_about_cache(cache.problem)

    result = evaluation.result
    skipped: list[SkipRecord] = [*files_plan.skipped, *evaluation.unreadable, *result.not_text]
    outcome = Outcome(files_plan, skipped, done=result.files, failed=len(result.failed))
    recommendation = recommend(result, args.objective, result.position(current)) if result.complete else None
    advice = advice_by_source(result, args.objective, result.position(current)) if recommendation else []
    warning = sources_disagree(result, advice)
    if warning:
        result.warnings.append(warning)
    front = pareto(result, recommendation)
    saved = save_error = None
    if args.save and recommendation is not None:
        try:
            saved = save_setting(frame, result.settings[recommendation.setting].options)
        except (OutputError, SettingsError) as exc:
            save_error = str(exc)
    if args.json:
        print_json({
            **json_header(),
            "root": frame.root,
            "settingsFile": frame.resolved.settings_path,
            "current": current,
            "merged": [point.to_dict() for point in merged],
            **result.to_dict(),
            "skipped": [record.to_dict() for record in skipped],
            "pareto": front.to_dict(result),
            "recommendation": None if recommendation is None else {
                **recommendation.to_dict(result), "by_source": {a.source: a.to_dict() for a in advice},
                "disagreement": warning},
            **({"saved": None if saved is None else {"index": result.settings[recommendation.setting].index,
                                                     "path": saved}}
               if args.save and recommendation is not None else {}),
        })
    elif result.queries and result.settings:
        out = console()
        print_table(out, result, current)
        print_sources(out, result)
        print_cut_comparisons(out, result)
        if not args.no_chart:
            print_chart(out, result)
        print_tradeoff(out, result, front)
        if recommendation is not None:
            print_recommendation(out, result, recommendation)
            print_source_advice(out, result, advice, warning)
    if args.html and result.queries:
        from ..report.content import EvaluationPart

        write_html(frame, files_plan, args.html, title=f"Retrieval evaluation: {os.path.basename(frame.root) or frame.root}",
                   evaluation=EvaluationPart(result, front, recommendation, advice, warning, current))
    if not args.quiet:
        for line in run_summary(result, len(settings), skipped):
            say(line)
    for line in outcome.lines("evaluate"):
        say(line)
    if not result.files:
        return outcome.status
    if not result.queries and result.history is not None and result.history.problem and queries == "history":
        say(f"No queries: {visible(result.history.problem)}.")
        return EXIT_FAILED
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
            error(save_error or "nothing to save: the evaluation did not finish")
            return EXIT_FAILED
        assert recommendation is not None
        chosen = result.settings[recommendation.setting]
        say(f"Saved #{chosen.index + 1} ({chosen.label(result.varied)}) to {visible(saved)}")
    if result.failed:
        say(f"{len(result.failed)} files failed; the figures cover the others.")
    return outcome.status
