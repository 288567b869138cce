"""``chunk-explorer sweep PATH... --max-size 500,1000,2000``: chunk a codebase under
several settings and show the trade-offs side by side (table and terminal chart)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from ..display import SWEEP_COLUMNS, axis_cells, bar, format_pct, human_bytes, plural
from ..engine.batch import default_jobs
from ..engine.measure.sweep import DEFAULT_EMBEDDING_DIM, SettingResult, SweepResult
from ..engine.options import ChunkOptions
from ..engine.retrieval import HEADLINE_METRICS, EvalConfig, EvalResult
from ..engine.retrieval.evaluate import QUERY_SOURCES, parse_sources
from ..engine.retrieval.recommend import recommend
from ..version import tool_version
from ..workspace.evaluate import evaluate_paths
from ..workspace.export import OutputError
from ..workspace.settings import SettingsError
from ..workspace.sweep import sweep_paths
from ..workspace.walk import WalkPlan, common_root, plan
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
from .report import left_out_lines, progress_bar, say, stderr_is_terminal, warn_about_walk

if TYPE_CHECKING:  # rich is imported when there is something to print
    from rich.console import Console

NAME = "sweep"
#: ``--save recommended``: the setting the retrieval evaluation recommends.
RECOMMENDED = "recommended"
HELP = "compare settings over a codebase: chunk counts, sizes, tiny%%, split definitions, index size"
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
    parser.add_argument("--language", metavar="L", help="parse every file as language L instead of detecting it")
    parser.add_argument("--embedding-dim", type=cli_options.positive_int, default=DEFAULT_EMBEDDING_DIM,
                        metavar="N", help=f"vector dimensions for the index size estimate (default {DEFAULT_EMBEDDING_DIM})")
    retrieval = parser.add_argument_group("retrieval")
    retrieval.add_argument("--retrieval", action="store_true",
                           help="also evaluate retrieval (as `chunk-explorer eval` does, with BM25): recall@5 and "
                                "recall@budget columns, a recommended setting, a \"retrieval\" object in --json")
    retrieval.add_argument("--queries", default="docs", metavar="SOURCES",
                           help=f"with --retrieval: query sources, comma-separated: {', '.join(QUERY_SOURCES)} "
                                "(default docs)")
    retrieval.add_argument("--budget", type=cli_options.positive_int, metavar="N",
                           help="with --retrieval: the context budget of recall@budget, in the size unit (default "
                                + ", ".join(f"{n} {unit}" for unit, n in DEFAULT_BUDGETS.items()) + ")")
    add_objective(retrieval)
    output = parser.add_argument_group("output")
    output.add_argument("--json", action="store_true", help="print JSON instead of the table and chart")
    output.add_argument("--no-chart", action="store_true", help="the table only")
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
    cli_options.check_paths(args.paths)
    root = common_root(args.paths)
    resolved = cli_options.resolve(args, root)
    settings = build_settings(args, resolved.options)
    save_recommended = args.save is not None and args.save.strip().lower() == RECOMMENDED
    if save_recommended and not args.retrieval:
        raise UsageError("--save recommended needs --retrieval (the recommendation comes from it)")
    if args.retrieval:
        try:
            parse_sources(args.queries)
        except ValueError as exc:
            raise UsageError(f"--queries: {exc}") from None
    chosen = pick_setting(args.save, settings) if args.save is not None and not save_recommended else None
    explicit_file = bool(getattr(args, "settings", None))
    if args.save is not None:
        check_save_target(resolved, root, explicit_file)
    current = next((i for i, s in enumerate(settings) if s == resolved.options), None)

    files_plan = plan(args.paths, resolved.walk, root=root)

    warn_about_walk(files_plan)
    jobs = args.jobs or default_jobs()
    show_progress = not args.quiet and stderr_is_terminal()
    with progress_bar(len(files_plan.files), f"sweeping {len(settings)} settings", show_progress) as on_progress:
        result = sweep_paths(files_plan, settings, jobs=jobs, on_progress=on_progress, embedding_dim=args.embedding_dim)
    retrieval = _retrieval(files_plan, settings, current, resolved, jobs, show_progress, args) if args.retrieval else None
    recommendation = None
    if retrieval is not None and retrieval.complete:
        recommendation = recommend(retrieval, args.objective, retrieval.position(current))
        if save_recommended and recommendation is not None:
            chosen = retrieval.settings[recommendation.setting].index

    saved = None
    if chosen is not None and result.files:
        try:
            saved = save_setting(settings[chosen], resolved, root, explicit_file)
        except (OutputError, SettingsError) as exc:
            say(f"chunk-explorer: error: {exc}")

    if args.json:
        document = {
            "tool": "chunk-explorer",
            "version": tool_version(),
            "settingsFile": resolved.settings_path,
            "base": resolved.options.to_dict(),
            "current": current,
            **result.to_dict(),
            "saved": None if saved is None else {"index": chosen, "path": saved},
            **({"retrieval": {**retrieval.to_dict(),
                              "recommendation": None if recommendation is None else recommendation.to_dict(retrieval)}}
               if retrieval is not None else {}),
        }
        json.dump(document, sys.stdout, indent=2)
        sys.stdout.write("\n")
    elif result.files:
        out = console()
        print_table(out, result, current, extra_columns=_retrieval_columns(retrieval) if retrieval else None)
        if retrieval is not None:
            out.print(f"{', '.join(RETRIEVAL_COLUMNS)}: % with 95% intervals, ★ the best (BM25, "
                      f"{len(retrieval.queries):,} queries from {retrieval.query_source}; `chunk-explorer eval` shows "
                      "every measure and the differences)", style="dim", markup=False)
            if recommendation is not None:
                print_recommendation(out, retrieval, recommendation)
        if not args.no_chart:
            print_chart(out, result)

    if not args.quiet:
        for line in run_summary(result, len(settings)):
            say(line)
        if retrieval is not None:
            say(f"Retrieval: {plural(len(retrieval.queries), 'query', 'queries')} from {retrieval.query_source}, BM25, "
                f"in {retrieval.seconds:.1f} s." + "".join(f" Warning: {w}" for w in retrieval.warnings))
    if not result.files:
        say("No files to sweep: check the paths, or --include/--exclude." if not files_plan.skipped
            else "No files to sweep: every file was skipped (see above).")
        return EXIT_FAILED
    if save_recommended and chosen is None:
        say("chunk-explorer: error: nothing saved: no recommendation (no queries, or the evaluation did not finish)")
        return EXIT_FAILED
    if chosen is not None:
        if saved is None:
            return EXIT_FAILED  # the settings file could not be written (said above)
        say(f"Saved #{chosen + 1} ({result.settings[chosen].label(result.varied)}) to {saved}")
    if result.failed:
        say(f"{len(result.failed)} files failed; the figures cover the others.")
        return EXIT_FAILED
    return EXIT_OK


def run_summary(result: SweepResult, settings: int) -> list[str]:
    work = sum(s.chunk_seconds for s in result.settings)
    lines = [
        f"Swept {plural(result.files, 'file')} ({result.bytes / 1e6:.1f} MB) x {plural(settings, 'setting')} "
        f"in {result.seconds:.1f} s ({plural(result.jobs, 'job')}; worker time: parsing {result.parse_seconds:.1f} s, "
        f"chunking and measuring {work:.1f} s)."
    ]
    return lines + left_out_lines(result.skipped, result.failed)


# -- rendering ---------------------------------------------------------------------------------
def _retrieval(files_plan: WalkPlan, settings: list[ChunkOptions], current: int | None,
               resolved: cli_options.Resolved, jobs: int, show_progress: bool, args: argparse.Namespace) -> EvalResult:
    """``--retrieval``: the evaluation of ``chunk-explorer eval`` over the same files and settings."""
    budget, unit = budget_config(args.budget, settings)
    config = EvalConfig(budget=budget, budget_unit=unit)
    with eval_progress(len(files_plan.files), len(settings), show_progress) as (on_progress, on_setting):
        return evaluate_paths(files_plan, settings, walk=resolved.walk, queries=args.queries, config=config,
                              reference=current or 0, jobs=jobs, on_progress=on_progress,
                              on_setting=on_setting).result


#: The retrieval columns a sweep table has room for: the first headline measures.
RETRIEVAL_COLUMNS = HEADLINE_METRICS[:2]


def _retrieval_columns(retrieval: EvalResult) -> list[tuple[str, list[str]]]:
    """The first headline measures per setting, in %, with intervals; ★ marks the best."""
    columns = []
    for name in RETRIEVAL_COLUMNS:
        best = retrieval.best(name)
        cells = []
        for i, setting in enumerate(retrieval.settings):
            m = setting.metrics[name]
            cells.append(f"{100 * m.value:.1f} [{100 * m.low:.1f}–{100 * m.high:.1f}]" + (" ★" if i == best else "  "))
        columns.append((name, cells))
    return columns


def print_table(console: Console, result: SweepResult, current: int | None,
                extra_columns: list[tuple[str, list[str]]] | None = None) -> None:
    from rich.table import Table
    from rich.text import Text

    unit = result.settings[0].options.size_unit if "size_unit" not in result.varied else "unit"
    tokenizer = result.settings[0].options.tokenizer if result.settings else None
    if tokenizer:
        unit += f", tokens counted with {tokenizer}"
    console.print(Text(f"Sweep of {plural(result.files, 'file')} (sizes in {unit}; "
                       f"index = vectors of {result.embedding_dim} float32 + contextualized text)", style="bold"))
    table = Table(box=None, header_style="bold", pad_edge=False)
    headers, axis_rows = axis_cells(result.varied, [s.options for s in result.settings])
    table.add_column("#", justify="right")
    for header in [*headers, *(c.header for c in SWEEP_COLUMNS), *(h for h, _ in extra_columns or ())]:
        table.add_column(header, justify="right")
    for setting, axis in zip(result.settings, axis_rows):
        mark = "*" if setting.index == current else ""
        cells = [f"{setting.index + 1}{mark}", *axis, *(c.cell(setting) for c in SWEEP_COLUMNS)]
        cells += [column[setting.index] for _, column in extra_columns or ()]
        table.add_row(*(Text(c) for c in cells), style="bold" if mark else "")
    console.print(table)
    if current is not None:
        console.print(Text("* the settings in effect now (settings file and flags)", style="dim"))


def print_chart(console: Console, result: SweepResult) -> None:
    """One row per setting: bars for chunks, index size, tiny% and split%. Counts are
    scaled to their column's largest value; the two percentages share one scale (at
    least 0-10%), so a fraction of a percent stays a sliver. Figures are printed beside."""
    from rich.table import Table
    from rich.text import Text

    measures: tuple[tuple[str, Callable[[SettingResult], float], Callable[[float], str], str], ...] = (
        ("chunks", lambda s: s.chunks, lambda v: f"{v:,}", "cyan"),
        ("index size", lambda s: s.index_bytes, human_bytes, "magenta"),
        ("tiny%", lambda s: s.summary.overall.tiny_pct or 0.0, format_pct, "yellow"),
        ("split%", lambda s: s.summary.overall.split_any_pct or 0.0, format_pct, "red"),
    )
    headers, axis_rows = axis_cells(result.varied, [s.options for s in result.settings])
    label_width = max(len(" ".join(r)) for r in axis_rows) + 5
    width = max(6, min(24, ((console.width or 80) - label_width) // len(measures) - 10))
    table = Table(box=None, header_style="bold", pad_edge=False)
    table.add_column("#", justify="right")
    table.add_column(" ".join(headers), justify="right")
    for name, _, _, _ in measures:
        table.add_column(name)
    peaks = [max(get(s) for s in result.settings) for _, get, _, _ in measures]
    percent_scale = max(10.0, *peaks[2:])
    peaks[2:] = [percent_scale] * (len(peaks) - 2)
    for setting, axis in zip(result.settings, axis_rows):
        cells = []
        for (_, get, fmt, color), peak in zip(measures, peaks):
            value = get(setting)
            cell = Text(bar(value, peak, width), style=color)
            cell.append(f" {fmt(value)}")
            cells.append(cell)
        table.add_row(Text(str(setting.index + 1)), Text(" ".join(axis)), *cells)
    console.print()
    console.print(table)
    console.print(Text(f"chunks and index size: bars scaled to the largest; tiny% and split%: bars on 0-{format_pct(percent_scale)}%",
                       style="dim"))

