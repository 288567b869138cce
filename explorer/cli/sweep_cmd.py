"""``chunk-explorer sweep PATH... --max-size 500,1000,2000``: chunk a codebase under
several settings and show the trade-offs side by side (table and terminal chart)."""

from __future__ import annotations

import argparse
import os

from ..engine.measure.sweep import DEFAULT_EMBEDDING_DIM
from ..engine.options import ChunkOptions
from ..engine.retrieval import EvalConfig, EvalResult
from ..engine.retrieval.evaluate import QUERY_SOURCES, parse_sources
from ..engine.retrieval.pareto import pareto
from ..engine.retrieval.recommend import SourceAdvice, advice_by_source, recommend, sources_disagree
from ..workspace.evaluate import DEFAULT_BUDGETS, budget_config, evaluate_paths
from ..workspace.export import OutputError, json_header
from ..workspace.results_cache import ResultsCache
from ..workspace.settings import SettingsError
from ..workspace.sweep import sweep_paths
from ..workspace.walk import WalkPlan
from . import options as cli_options
from .errors import EXIT_FAILED, UsageError
from .flag_types import positive_int
from .frame import Frame
from .history_flags import add_history_options, history_cache, history_rules
from .html_report import add_html_option, check_html_target, write_html
from .outcome import Outcome
from .output import console, print_json
from .recommendation import add_objective, print_recommendation
from .report import error, eval_progress, progress_bar, say, warn_about_cache
from .save_setting import check_save_target, save_setting
from .settings_grid import add_axes, build_settings, current_index, merge_equivalents, pick_setting
from .sweep_render import (
    print_chart,
    print_retrieval_legend,
    print_table,
    retrieval_columns,
    retrieval_summary,
    run_summary,
)
from .tradeoff import print_source_advice, print_tradeoff
from .verbs import SUMMARIES

NAME = "sweep"
#: ``--save recommended``: the setting the retrieval evaluation recommends.
RECOMMENDED = "recommended"
HELP = SUMMARIES[NAME]
DESCRIPTION = """\
Chunk the files under every combination of the listed values and compare, per setting:
chunks; chunk size min/median/p95/max; tiny% (chunks under 50 non-whitespace
characters); over% (chunks above max size); definitions cut because too big (larger
than max size, so in pieces: count and % of all definitions); split definitions
(definitions that fit in one chunk but that no chunk holds, count and %: should stay
0); doc_split% (definitions separated
from the comment above them); and the estimated index size:

    chunks x embedding dim x 4 bytes (float32 vectors) + contextualized text bytes

Each file is parsed once and re-chunked per setting. Nothing is written unless
--save picks a setting for the settings file (.chunk-explorer.toml).

exit status: 0 done, 1 some files failed (the figures cover the others) or the
settings file could not be written, 2 usage error (nothing done)."""

def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(NAME, help=HELP, description=DESCRIPTION,
                                   formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("paths", nargs="+", metavar="PATH", help="files and directories to sweep")
    add_axes(parser, "500,1000,1500,2000,3000", "context in contextualizedText")
    cli_options.add_language_option(parser)
    parser.add_argument("--embedding-dim", type=positive_int, default=DEFAULT_EMBEDDING_DIM,
                        metavar="N", help=f"vector dimensions for the index size estimate (default {DEFAULT_EMBEDDING_DIM})")
    retrieval = parser.add_argument_group("retrieval")
    retrieval.add_argument("--retrieval", action="store_true",
                           help="also evaluate retrieval (as `chunk-explorer eval` does, with BM25): recall@5 and "
                                "recall@budget columns, a recommended setting, a \"retrieval\" object in --json")
    retrieval.add_argument("--queries", default="docs", metavar="SOURCES",
                           help=f"with --retrieval: query sources, comma-separated: {', '.join(QUERY_SOURCES)} "
                                "(default docs)")
    retrieval.add_argument("--budget", type=positive_int, metavar="N",
                           help="with --retrieval: the context budget of recall@budget, in the size unit (default "
                                + ", ".join(f"{n} {unit}" for unit, n in DEFAULT_BUDGETS.items()) + ")")
    add_objective(retrieval)
    add_history_options(parser)
    cli_options.add_cache_option(parser)
    output = parser.add_argument_group("output")
    output.add_argument("--json", action="store_true", help="print JSON instead of the table and chart")
    output.add_argument("--no-chart", action="store_true", help="the table only")
    add_html_option(output)
    output.add_argument("--save", metavar="PICK",
                        help="write the chosen setting to the settings file: its number in the # column "
                             "(e.g. 2 or #2), its max size (e.g. 1000), or, with --retrieval, 'recommended'")
    output.add_argument("-q", "--quiet", action="store_true", help="no progress bar and no run summary")
    cli_options.add_walk_options(parser)
    cli_options.add_jobs_option(parser)
    cli_options.add_settings_options(parser)
    parser.set_defaults(run=run)
    return parser


# -- running ----------------------------------------------------------------------------------
def run(args: argparse.Namespace) -> int:
    frame = Frame.open(args)
    settings = build_settings(args, frame.options)
    settings, merged = merge_equivalents(settings, quiet=args.quiet)
    save_recommended = args.save is not None and args.save.strip().lower() == RECOMMENDED
    if save_recommended and not args.retrieval:
        raise UsageError("--save recommended needs --retrieval (the recommendation comes from it)")
    if args.retrieval:
        try:
            parse_sources(args.queries)
        except ValueError as exc:
            raise UsageError(f"--queries: {exc}") from None
    chosen = pick_setting(args.save, settings) if args.save is not None and not save_recommended else None
    if args.save is not None:
        check_save_target(frame)
    check_html_target(args)
    current = current_index(settings, frame.options)
    cache = cli_options.results_cache(args)

    files_plan = frame.walk()
    with progress_bar(len(files_plan.files), f"sweeping {len(settings)} settings", frame.show_progress) as on_progress:
        result = sweep_paths(files_plan, settings, jobs=frame.jobs, on_progress=on_progress,
                             embedding_dim=args.embedding_dim, cache=cache)
    retrieval = _retrieval(frame, files_plan, settings, current, cache) if args.retrieval else None
    warn_about_cache(cache.problem)
    recommendation = None
    advice: list[SourceAdvice] = []
    warning = None
    if retrieval is not None and retrieval.complete:
        recommendation = recommend(retrieval, args.objective, retrieval.position(current))
        advice = advice_by_source(retrieval, args.objective, retrieval.position(current)) if recommendation else []
        warning = sources_disagree(retrieval, advice)
        if warning:
            retrieval.warnings.append(warning)
        if save_recommended and recommendation is not None:
            chosen = retrieval.settings[recommendation.setting].index
    front = pareto(retrieval, recommendation) if retrieval is not None else None

    saved = None
    if chosen is not None and result.files:
        try:
            saved = save_setting(frame, settings[chosen])
        except (OutputError, SettingsError) as exc:
            error(str(exc))

    if args.json:
        print_json({
            **json_header(),
            "settingsFile": frame.resolved.settings_path,
            "base": frame.options.to_dict(),
            "current": current,
            "merged": [point.to_dict() for point in merged],
            **result.to_dict(),
            "skipped": [record.to_dict() for record in result.skipped],
            "saved": None if saved is None else {"index": chosen, "path": saved},
            **({"retrieval": {**retrieval.to_dict(), "pareto": front.to_dict(retrieval) if front else None,
                              "recommendation": None if recommendation is None else {
                                  **recommendation.to_dict(retrieval),
                                  "by_source": {a.source: a.to_dict() for a in advice}, "disagreement": warning}}}
               if retrieval is not None else {}),
        })
    elif result.files:
        out = console()
        print_table(out, result, current, extra_columns=retrieval_columns(retrieval) if retrieval else None)
        if retrieval is not None:
            print_retrieval_legend(out, retrieval)
            if front is not None:
                print_tradeoff(out, retrieval, front)
            if recommendation is not None:
                print_recommendation(out, retrieval, recommendation)
                print_source_advice(out, retrieval, advice, warning)
        if not args.no_chart:
            print_chart(out, result)

    if args.html and result.files:
        from ..report.content import EvaluationPart

        evaluation = (EvaluationPart(retrieval, front, recommendation, advice, warning, current)
                      if retrieval is not None and front is not None else None)
        write_html(frame, files_plan, args.html, title=f"Sweep: {os.path.basename(frame.root) or frame.root}",
                   sweep=result, sweep_current=current, evaluation=evaluation)
    if not args.quiet:
        for line in run_summary(result, len(settings)):
            say(line)
        if retrieval is not None:
            for line in retrieval_summary(retrieval):
                say(line)
    outcome = Outcome(files_plan, result.skipped, done=result.files, failed=len(result.failed))
    for line in outcome.lines("sweep"):
        say(line)
    if not result.files:
        return outcome.status
    if save_recommended and chosen is None:
        error("nothing saved: no recommendation (no queries, or the evaluation did not finish)")
        return EXIT_FAILED
    if chosen is not None:
        if saved is None:
            return EXIT_FAILED  # the settings file could not be written (said above)
        say(f"Saved #{chosen + 1} ({result.settings[chosen].label(result.varied)}) to {saved}")
    if result.failed:
        say(f"{len(result.failed)} files failed; the figures cover the others.")
    return outcome.status


def _retrieval(frame: Frame, files_plan: WalkPlan, settings: list[ChunkOptions], current: int | None,
               cache: ResultsCache) -> EvalResult:
    """``--retrieval``: the evaluation of ``chunk-explorer eval`` over the same files and settings."""
    budget, unit = budget_config(frame.args.budget, settings)
    config = EvalConfig(budget=budget, budget_unit=unit)
    with eval_progress(len(files_plan.files), len(settings), frame.show_progress) as (on_progress, on_setting):
        return evaluate_paths(files_plan, settings, walk=frame.resolved.walk, queries=frame.args.queries,
                              config=config, reference=current or 0, jobs=frame.jobs, on_progress=on_progress,
                              on_setting=on_setting, history=history_rules(frame.args),
                              history_cache=history_cache(frame.args), results_cache=cache).result
