"""``chunk-explorer sweep PATH... --max-size 500,1000,2000``: chunk a codebase under
several settings and show the trade-offs side by side (table and terminal chart)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ..engine.batch import default_jobs
from ..engine.options import CONTEXT_MODES, SIZE_UNITS, STRATEGIES, ChunkOptions
from ..display import bar, format_num, format_pct, human_bytes
from ..engine.sweep import DEFAULT_EMBEDDING_DIM, DEFAULT_MAX_SIZES, SettingResult, SweepResult, settings_grid
from ..workspace.export import OutputError, tool_version
from ..workspace.atomic import check_writable
from ..workspace.settings import (
    SETTINGS_FILE, SettingsError, find_settings, save_settings,
)
from ..workspace.sweep import sweep_paths
from ..workspace.walk import common_root, plan
from . import options as cli_options
from .errors import EXIT_FAILED, EXIT_OK, UsageError
from .report import RunTally, plural, progress_bar, say, stderr_is_terminal, warn_about_walk

if TYPE_CHECKING:  # rich is imported when there is something to print
    from rich.console import Console

NAME = "sweep"
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

#: Sweep axes in table order (slowest first): ChunkOptions field -> (argparse dest, column header).
AXES = {
    "size_unit": ("sweep_size_unit", "unit"),
    "strategy": ("sweep_strategy", "strategy"),
    "context_mode": ("sweep_context", "context"),
    "max_size": ("sweep_max_size", "max"),
    "overlap_lines": ("sweep_overlap_lines", "overlap"),
}


# -- flags --------------------------------------------------------------------------------
def _int_list(minimum: int) -> Callable[[str], list[int]]:
    def parse(text: str) -> list[int]:
        values = []
        for part in _parts(text):
            try:
                value = int(part)
            except ValueError:
                raise argparse.ArgumentTypeError(f"expected whole numbers separated by commas, got {part!r}") from None
            if value < minimum:
                raise argparse.ArgumentTypeError(f"every value must be at least {minimum}, got {value}")
            values.append(value)
        return values

    return parse


def _choice_list(choices: tuple[str, ...]) -> Callable[[str], list[str]]:
    def parse(text: str) -> list[str]:
        values = _parts(text)
        wrong = [v for v in values if v not in choices]
        if wrong:
            raise argparse.ArgumentTypeError(f"{', '.join(wrong)} not one of {', '.join(choices)}")
        return values

    return parse


def _parts(text: str) -> list[str]:
    parts = [p.strip() for p in text.split(",") if p.strip()]
    if not parts:
        raise argparse.ArgumentTypeError("expected a comma-separated list of values")
    return parts


def add_axes(parser: argparse.ArgumentParser, default_sizes: str, context_help: str) -> argparse._ArgumentGroup:
    """The grid flags ``sweep`` and ``eval`` share: every combination of the listed values is a setting."""
    axes = parser.add_argument_group("settings to compare (comma-separated; every combination is run)")
    axes.add_argument("--max-size", dest="sweep_max_size", type=_int_list(1), metavar="LIST",
                      help=f"largest chunk, in the size unit (default {default_sizes} for nws)")
    axes.add_argument("--overlap-lines", dest="sweep_overlap_lines", type=_int_list(0), metavar="LIST",
                      help="lines of the previous chunk repeated before each chunk, e.g. 0,5")
    axes.add_argument("--size-unit", dest="sweep_size_unit", type=_choice_list(SIZE_UNITS), metavar="LIST",
                      help=f"size units: {', '.join(SIZE_UNITS)}")
    axes.add_argument("--context", dest="sweep_context", type=_choice_list(CONTEXT_MODES), metavar="LIST",
                      help=f"{context_help}: {', '.join(CONTEXT_MODES)}")
    axes.add_argument("--strategy", dest="sweep_strategy", type=_choice_list(STRATEGIES), metavar="LIST",
                      help="ast and/or lines (the line-packing baseline)")
    return axes


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(NAME, help=HELP, description=DESCRIPTION,
                                   formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("paths", nargs="+", metavar="PATH", help="files and directories to sweep")
    add_axes(parser, "500,1000,1500,2000,3000", "context in contextualizedText")
    parser.add_argument("--language", metavar="L", help="parse every file as language L instead of detecting it")
    parser.add_argument("--embedding-dim", type=cli_options.positive_int, default=DEFAULT_EMBEDDING_DIM,
                        metavar="N", help=f"vector dimensions for the index size estimate (default {DEFAULT_EMBEDDING_DIM})")
    parser.add_argument("--retrieval", action="store_true",
                        help="also evaluate retrieval (as `chunk-explorer eval` does, with BM25 and queries from "
                             "the docs): recall@5 and recall@budget columns, a \"retrieval\" object in --json")
    output = parser.add_argument_group("output")
    output.add_argument("--json", action="store_true", help="print JSON instead of the table and chart")
    output.add_argument("--no-chart", action="store_true", help="the table only")
    output.add_argument("--save", metavar="PICK",
                        help="write the chosen setting to the settings file: its number in the # column "
                             "(e.g. 2 or #2) or its max size (e.g. 1000)")
    output.add_argument("-q", "--quiet", action="store_true", help="no progress bar and no run summary")
    cli_options.add_walk_options(parser)
    cli_options.add_jobs_option(parser)
    cli_options.add_settings_options(parser)
    parser.set_defaults(run=run)
    return parser


add_parser = register  # the name the tuning issue asked for


# -- the settings ----------------------------------------------------------------------------
def build_settings(args: argparse.Namespace, base: ChunkOptions) -> list[ChunkOptions]:
    """The cartesian product of the listed values over ``base``; max sizes default per unit."""
    axes: dict[str, list[Any]] = {}
    for name, (dest, _) in AXES.items():
        if getattr(args, dest, None):
            axes[name] = list(getattr(args, dest))
    if "max_size" in axes:
        return settings_grid(base, axes)
    grid: list[ChunkOptions] = []
    for unit in axes.get("size_unit", [base.size_unit]):
        grid += settings_grid(base, {**axes, "size_unit": [unit], "max_size": list(DEFAULT_MAX_SIZES[unit])})
    return grid


def pick_setting(text: str, settings: list[ChunkOptions]) -> int:
    """The index chosen by ``--save``: a number from the # column (``2`` or ``#2``), or a
    max size that only one setting has. Raises UsageError."""
    raw = text.strip()
    as_index = raw.startswith("#")
    try:
        number = int(raw.lstrip("#"))
    except ValueError:
        raise UsageError(f"--save takes a number from the # column or a max size, not {text!r}") from None
    if 1 <= number <= len(settings):
        return number - 1
    if as_index:
        raise UsageError(f"--save {text}: the sweep has settings #1 to #{len(settings)}")
    matches = [i for i, s in enumerate(settings) if s.max_size == number]
    if len(matches) == 1:
        return matches[0]
    if matches:
        listed = ", ".join(f"#{i + 1}" for i in matches)
        raise UsageError(f"--save {text}: several settings have max size {number} ({listed}); give the # instead")
    sizes = ", ".join(str(s) for s in dict.fromkeys(s.max_size for s in settings))
    raise UsageError(f"--save {text}: no setting has that number or max size (numbers 1-{len(settings)}, "
                     f"max sizes {sizes})")


# -- running ----------------------------------------------------------------------------------
def run(args: argparse.Namespace) -> int:
    cli_options.check_paths(args.paths)
    root = common_root(args.paths)
    resolved = cli_options.resolve(args, root)
    settings = build_settings(args, resolved.options)
    chosen = pick_setting(args.save, settings) if args.save is not None else None
    explicit_file = bool(getattr(args, "settings", None))
    if chosen is not None:
        _check_save_target(resolved, root, explicit_file)
    current = next((i for i, s in enumerate(settings) if s == resolved.options), None)

    files_plan = plan(args.paths, resolved.walk, root=root)

    warn_about_walk(files_plan)
    jobs = args.jobs or default_jobs()
    show_progress = not args.quiet and stderr_is_terminal()
    with progress_bar(len(files_plan.files), f"sweeping {len(settings)} settings", show_progress) as on_progress:
        result = sweep_paths(files_plan, settings, jobs=jobs, on_progress=on_progress, embedding_dim=args.embedding_dim)
    retrieval = _retrieval(files_plan, settings, current, resolved, jobs, show_progress) if args.retrieval else None

    saved = None
    if chosen is not None and result.files:
        try:
            saved = _save(settings[chosen], resolved, root, explicit_file)
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
            **({"retrieval": retrieval.to_dict()} if retrieval is not None else {}),
        }
        json.dump(document, sys.stdout, indent=2)
        sys.stdout.write("\n")
    elif result.files:
        console = _console()
        print_table(console, result, current, extra_columns=_retrieval_columns(retrieval) if retrieval else None)
        if retrieval is not None:
            console.print(f"recall@5, recall@budget: % with 95% intervals, ★ the best (BM25, {len(retrieval.queries):,} "
                          "queries from docs; `chunk-explorer eval` shows every measure and the differences)",
                          style="dim", markup=False)
        if not args.no_chart:
            print_chart(console, result)

    if not args.quiet:
        for line in run_summary(result, len(settings)):
            say(line)
        if retrieval is not None:
            say(f"Retrieval: {plural(len(retrieval.queries), 'query', 'queries')} from docs, BM25, "
                f"in {retrieval.seconds:.1f} s." + "".join(f" Warning: {w}" for w in retrieval.warnings))
    if not result.files:
        say("No files to sweep: check the paths, or --include/--exclude." if not files_plan.skipped
            else "No files to sweep: every file was skipped (see above).")
        return EXIT_FAILED
    if chosen is not None:
        if saved is None:
            return EXIT_FAILED  # the settings file could not be written (said above)
        say(f"Saved #{chosen + 1} ({result.settings[chosen].label(result.varied)}) to {saved}")
    if result.failed:
        say(f"{len(result.failed)} files failed; the figures cover the others.")
        return EXIT_FAILED
    return EXIT_OK


def _check_save_target(resolved: cli_options.Resolved, root: str, explicit_file: bool) -> str:
    """The settings file --save will write (the one given with --settings, else the one
    found for the root, else a new one in the root), checked before any work."""
    if explicit_file and resolved.settings_path:
        path = resolved.settings_path
    else:
        path = find_settings(root) or os.path.join(root, SETTINGS_FILE)
    try:
        return check_writable(path)
    except OutputError as exc:
        raise UsageError(f"--save: {exc}") from None


def _save(options: ChunkOptions, resolved: cli_options.Resolved, root: str, explicit_file: bool) -> str:
    # A --language given on the command line is for this run; the file keeps its own.
    options = replace(options, language=resolved.settings.options.language)
    # --settings FILE: write back to that file; edited in place, comments kept.
    path = resolved.settings_path if explicit_file and resolved.settings_path else None
    return save_settings(root, options, path=path)


def run_summary(result: SweepResult, settings: int) -> list[str]:
    work = sum(s.chunk_seconds for s in result.settings)
    lines = [
        f"Swept {plural(result.files, 'file')} ({result.bytes / 1e6:.1f} MB) x {plural(settings, 'setting')} "
        f"in {result.seconds:.1f} s ({plural(result.jobs, 'job')}; worker time: parsing {result.parse_seconds:.1f} s, "
        f"chunking and measuring {work:.1f} s)."
    ]
    tally = RunTally(skipped=result.skipped, failed=result.failed)
    return lines + tally.summary_lines(result.seconds, result.jobs)[1:]


# -- rendering ---------------------------------------------------------------------------------
def _console() -> Console:
    from rich.console import Console

    return Console(width=None if sys.stdout.isatty() else 160, highlight=False)


def _axis_cells(result: SweepResult) -> tuple[list[str], list[list[str]]]:
    varied = [name for name in AXES if name in result.varied] or ["max_size"]
    varied += [name for name in result.varied if name not in AXES]  # e.g. a mixed-language sweep
    headers = [AXES[name][1] if name in AXES else name for name in varied]
    rows = [[str(getattr(s.options, name)) for name in varied] for s in result.settings]
    return headers, rows


SIZE_KEYS = ("min", "median", "p95", "max")


def _retrieval(files_plan: Any, settings: list[ChunkOptions], current: int | None,
               resolved: cli_options.Resolved, jobs: int, show_progress: bool) -> Any:
    """``--retrieval``: the evaluation of ``chunk-explorer eval`` over the same files and settings."""
    from ..engine.retrieval import evaluate
    from ..workspace.sources import read_sources
    from .eval_cmd import eval_progress

    sources, _ = read_sources(files_plan, resolved.walk.max_file_size)
    with eval_progress(len(sources), len(settings), show_progress) as (on_progress, on_setting):
        return evaluate(sources, settings, reference=current or 0, jobs=jobs, on_progress=on_progress,
                        on_setting=on_setting)


def _retrieval_columns(retrieval: Any) -> list[tuple[str, list[str]]]:
    """recall@5 and recall@budget per setting, in %, with intervals; ★ marks the best."""
    columns = []
    for name in ("recall@5", "recall@budget"):
        best = retrieval.best(name)
        cells = []
        for i, setting in enumerate(retrieval.settings):
            m = setting.metrics[name]
            cells.append(f"{100 * m.value:.1f} [{100 * m.low:.1f}–{100 * m.high:.1f}]" + (" ★" if i == best else "  "))
        columns.append((name, cells))
    return columns


def print_table(console: Any, result: SweepResult, current: int | None,
                extra_columns: list[tuple[str, list[str]]] | None = None) -> None:
    from rich.table import Table
    from rich.text import Text

    unit = result.settings[0].options.size_unit if "size_unit" not in result.varied else "unit"
    console.print(Text(f"Sweep of {plural(result.files, 'file')} (sizes in {unit}; "
                       f"index = vectors of {result.embedding_dim} float32 + contextualized text)", style="bold"))
    table = Table(box=None, header_style="bold", pad_edge=False)
    headers, axis_rows = _axis_cells(result)
    table.add_column("#", justify="right")
    for header in headers:
        table.add_column(header, justify="right")
    for header in ("chunks", "min", "median", "p95", "max", "tiny%", "over%", "cut too big", "split defs", "doc_split%",
                   "index"):
        table.add_column(header, justify="right")
    for header, _ in extra_columns or ():
        table.add_column(header, justify="right")
    for setting, axis in zip(result.settings, axis_rows):
        g = setting.summary.overall
        sizes = g.size_stats()
        mark = "*" if setting.index == current else ""
        split = f"{setting.split_definitions:,} ({format_pct(g.split_any_pct)})"
        cut = f"{setting.cut_too_big:,} ({format_pct(setting.cut_too_big_pct)})"
        cells = [f"{setting.index + 1}{mark}", *axis, f"{g.chunks:,}", *(format_num(sizes[k]) for k in SIZE_KEYS),
                 format_pct(g.tiny_pct), format_pct(g.over_pct), cut, split, format_pct(g.doc_split_pct),
                 human_bytes(setting.index_bytes)]
        cells += [column[setting.index] for _, column in extra_columns or ()]
        table.add_row(*(Text(c) for c in cells), style="bold" if mark else "")
    console.print(table)
    if current is not None:
        console.print(Text("* the settings in effect now (settings file and flags)", style="dim"))


def print_chart(console: Any, result: SweepResult) -> None:
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
    headers, axis_rows = _axis_cells(result)
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

