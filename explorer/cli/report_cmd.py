"""``chunk-explorer report PATH... -o report.html``: one self-contained HTML page a review
can open anywhere: the files and their chunks over the source, the problems worst first,
the compare with its quality table, a sweep, an evaluation with its intervals and
trade-off, the recommendation, and the settings, version and date. ``--teach FILE``
renders teach's steps for one file instead, to step through in the page."""

from __future__ import annotations

import argparse
import os

from ..display import human_bytes, plural, skipped_lines
from ..engine.files import UnreadableFileError, read_chunked_file
from ..engine.options import ChunkOptions
from ..engine.retrieval import EvalConfig
from ..engine.retrieval.evaluate import QUERY_SOURCES, parse_sources
from ..engine.retrieval.pareto import pareto
from ..engine.retrieval.recommend import advice_by_source, recommend, sources_disagree
from ..terminal_text import visible
from ..workspace.atomic import check_writable
from ..workspace.evaluate import budget_config, evaluate_paths
from ..workspace.sweep import sweep_paths
from . import options as cli_options
from .errors import EXIT_OK, UsageError, require_extra
from .eval_cmd import DEFAULT_EVAL_MAX_SIZES
from .flag_types import positive_int
from .frame import Frame
from .outcome import Outcome
from .recommendation import add_objective
from .report import eval_progress, progress_bar, say
from .settings_grid import add_axes, build_settings, current_index
from .verbs import SUMMARIES

NAME = "report"
HELP = SUMMARIES[NAME]
DESCRIPTION = """\
Write one HTML file that opens anywhere, with no network (styles, script and figures
inlined), holding what a review of an index's settings needs:
  - every file with its chunks drawn over the source, each in its own colour, the
    header embedded before each chunk beside it, linked from the repository view's
    problems, worst first;
  - the compare of AST against lines (--compare lines, the default) or against another
    max size (--compare 2000), with the quality table of `stats`;
  - a sweep of the grid (--max-size LIST, ...) and an evaluation of it (BM25, --queries
    docs by default): every measure with its 95% interval drawn, the Pareto front of
    recall@5 against cost, and the recommendation with its evidence;
  - the settings used, the tool's version and the date.
The files are chunked with the current settings (the settings file's, else the defaults);
the grid flags choose the settings the sweep and the evaluation compare.
Files over --max-source characters in all are left out of the page, the worst kept.

--teach FILE writes teach's walkthrough of one file instead: the source with the
window, the sentence and the chunks so far, stepped with the keyboard (arrows, space).

exit status: 0 written, 1 nothing to report or some files failed, 2 usage error."""


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(NAME, help=HELP, description=DESCRIPTION,
                                   formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("paths", nargs="*", metavar="PATH", help="files and directories to report on")
    parser.add_argument("-o", "--output", required=True, metavar="FILE", help="the HTML file to write (atomically)")
    parser.add_argument("--teach", metavar="FILE", help="teach's walkthrough of FILE only (a handout to replay)")
    parser.add_argument("--compare", default="lines", metavar="lines|SIZE",
                        help="the second side of the compare: lines (the baseline) or another max size")
    parser.add_argument("--title", help="the page's title (default: the directory's name)")
    parser.add_argument("--max-source", type=positive_int, default=4_000_000, metavar="CHARS",
                        help="source drawn in the page at most (default 4,000,000 characters; the worst files first)")
    runs = parser.add_argument_group("the sweep and the evaluation")
    runs.add_argument("--no-sweep", action="store_true", help="leave the sweep out")
    runs.add_argument("--no-eval", action="store_true", help="leave the evaluation out")
    runs.add_argument("--queries", default="docs", metavar="SOURCES",
                      help=f"the evaluation's query sources, comma-separated: {', '.join(QUERY_SOURCES)} (default docs)")
    add_objective(runs)
    add_axes(parser, "500,1000,2000", "context in contextualizedText")
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress bars")
    cli_options.add_walk_options(parser)
    cli_options.add_jobs_option(parser)
    cli_options.add_settings_options(parser)
    parser.set_defaults(run=run)
    return parser


def run(args: argparse.Namespace) -> int:
    if args.teach is None:
        require_extra("report", "matplotlib")  # the figures; the walkthrough has none
    if args.teach is not None:
        return _teach(args)
    if not args.paths:
        raise UsageError("report: give the PATH... to report on (or --teach FILE)")
    if args.compare != "lines" and not (args.compare.isdigit() and int(args.compare) > 0):
        raise UsageError(f"--compare {args.compare}: lines, or a max size (a positive number)")
    try:
        parse_sources(args.queries)
    except ValueError as exc:
        raise UsageError(f"--queries: {exc}") from None
    check_writable(args.output)
    frame = Frame.open(args)
    from ..report.content import EvaluationPart, ReportContent
    from ..report.files import build_files
    from ..report.render import write_report

    files_plan = frame.walk()
    if not files_plan.files:
        return _said(Outcome(files_plan, files_plan.skipped, done=0), quiet=args.quiet)
    with progress_bar(len(files_plan.files), "chunking", frame.show_progress) as on_progress:
        files = build_files(files_plan, frame.options, args.compare, jobs=frame.jobs, max_source=args.max_source,
                            on_progress=on_progress)
    settings = build_settings(args, frame.options, DEFAULT_EVAL_MAX_SIZES)
    current = current_index(settings, frame.options)
    sweep = evaluation = None
    if not args.no_sweep:
        with progress_bar(len(files_plan.files), f"sweeping {len(settings)} settings", frame.show_progress) as step:
            sweep = sweep_paths(files_plan, settings, jobs=frame.jobs, on_progress=step)
    if not args.no_eval:
        budget, unit = budget_config(None, settings)
        with eval_progress(len(files_plan.files), len(settings), frame.show_progress) as (on_file, on_setting):
            result = evaluate_paths(files_plan, settings, walk=frame.resolved.walk, queries=args.queries,
                                    query_source=args.queries, config=EvalConfig(budget=budget, budget_unit=unit),
                                    reference=current or 0, jobs=frame.jobs, on_progress=on_file,
                                    on_setting=on_setting).result
        recommendation = recommend(result, args.objective, result.position(current)) if result.complete else None
        advice = advice_by_source(result, args.objective, result.position(current)) if recommendation else []
        warning = sources_disagree(result, advice)
        evaluation = EvaluationPart(result, pareto(result, recommendation), recommendation, advice, warning, current)
        if not result.queries:
            say(f"The evaluation found no queries ({visible(args.queries)}); the report has no evaluation.")
    title = args.title or f"Chunking report: {os.path.basename(files_plan.root.rstrip(os.sep)) or files_plan.root}"
    content = ReportContent(title=title, root=files_plan.root, options=frame.options,
                            settings_file=frame.resolved.settings_path, files=files, sweep=sweep, sweep_current=current,
                            evaluation=evaluation)
    size = write_report(content, args.output)
    say(f"Wrote {visible(args.output)} ({human_bytes(size)}): {plural(len(files.sections), 'file')}, "
        f"{plural(files.summary.overall.chunks, 'chunk')}"
        + (f"; {plural(len(files.left_out), 'file')} left out over --max-source" if files.left_out else "") + ".")
    if files.failed:
        say(f"{plural(len(files.failed), 'file')} failed; the report covers the others.")
    return _said(Outcome(files_plan, files.skipped, done=files.summary.overall.files, failed=len(files.failed)),
                 quiet=args.quiet)


def _said(outcome: Outcome, *, quiet: bool) -> int:
    """Name what was skipped (unless quiet) and why the run fell short, as every command
    over PATH does; the exit status by their one rule."""
    if not quiet:
        for line in skipped_lines(outcome.skipped):
            say(line)
    for line in outcome.lines("report"):
        say(line)
    return outcome.status


def _teach(args: argparse.Namespace) -> int:
    from ..report.content import ReportContent
    from ..report.render import write_report
    from ..report.walkthrough import build_walkthrough

    path = args.teach
    check_writable(args.output)
    root = os.path.dirname(os.path.abspath(path))
    resolved = cli_options.resolve(args, root)
    options = resolved.options
    if args.sweep_max_size:  # the grid's first size, if one is given
        options = ChunkOptions.build(options, max_size=args.sweep_max_size[0])
    try:
        data = read_chunked_file(path, resolved.walk.max_file_size)
    except (UnreadableFileError, OSError) as exc:
        raise UsageError(f"--teach {path}: {exc}") from None
    try:
        walk = build_walkthrough(path, os.path.basename(path), data, options)
    except ValueError as exc:  # binary or undecodable content
        raise UsageError(f"--teach {path}: {exc}") from None
    content = ReportContent(title=args.title or f"Teach: {os.path.basename(path)}", root=root,
                            options=options, settings_file=resolved.settings_path, walkthrough=walk)
    size = write_report(content, args.output)
    say(f"Wrote {visible(args.output)} ({human_bytes(size)}): {plural(len(walk.steps), 'step')}, "
        f"{plural(len(walk.chunks), 'chunk')}.")
    return EXIT_OK
