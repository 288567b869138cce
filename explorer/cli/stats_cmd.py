"""``chunk-explorer stats PATH...``: the quality measures of a chunking, per language and
overall (defined and computed by ``explorer.engine.measure.quality``)."""

from __future__ import annotations

import argparse
import json
import sys
import time
from functools import partial
from typing import TYPE_CHECKING, Any

from ..display import plural
from ..engine.batch import BatchFile, chunk_batch_stream, default_jobs
from ..engine.batch.tally import RunTally
from ..engine.measure.problems import analyze_quality, file_record
from ..engine.measure.quality import GroupSummary, Summary, summarize
from ..version import tool_version
from ..workspace.walk import common_root, plan
from . import options as cli_options
from .errors import EXIT_FAILED, EXIT_OK
from .report import progress_bar, say, stderr_is_terminal, summary_lines, warn_about_walk

if TYPE_CHECKING:  # rich is imported when a table is printed, not at start-up
    from rich.text import Text

NAME = "stats"
HELP = "quality measures of the chunking (sizes, over%%, tiny%%, clean%%, split%%...)"
DESCRIPTION = """\
Chunk the files (nothing is written) and report, per language and overall:
chunks; chunk size min/median/p95/max in the size unit; over% (chunks above max
size); emb_over% (chunks whose contextualized text, header + overlap + code, is
above max size: 0 with --fit embedded); tiny% (chunks under 50 non-whitespace characters); exact% (files whose
chunks rebuild the source byte for byte); clean% (cuts between statements or
siblings, not inside tokens or just inside brackets); split_top% (top-level
definitions that fit in a chunk but were split); doc_split% (definitions separated
from the comment above them); MB/s (parse + chunk, per core).
--compare lines adds the line-packing baseline under each row. --json also lists
every file with its own figures and its chunking problems per kind (the repository
view's: too-big, split, tiny, dangling, closer, forced, embedded)."""

#: (header, value from a GroupSummary, format).
COLUMNS: tuple[tuple[str, Any, str], ...] = (
    ("files", lambda g: g.files, "int"),
    ("chunks", lambda g: g.chunks, "int"),
    ("min", lambda g: g.size_stats()["min"], "num"),
    ("median", lambda g: g.size_stats()["median"], "num"),
    ("p95", lambda g: g.size_stats()["p95"], "num"),
    ("max", lambda g: g.size_stats()["max"], "num"),
    ("over%", lambda g: g.over_pct, "pct"),
    ("emb_over%", lambda g: g.embedded_over_pct, "pct"),
    ("tiny%", lambda g: g.tiny_pct, "pct"),
    ("exact%", lambda g: g.exact_pct, "pct"),
    ("clean%", lambda g: g.clean_pct, "pct"),
    ("split_top%", lambda g: g.split_top_pct, "pct"),
    ("doc_split%", lambda g: g.doc_split_pct, "pct"),
    ("MB/s", lambda g: throughput(g), "rate"),
)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(NAME, help=HELP, description=DESCRIPTION,
                                   formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("paths", nargs="+", metavar="PATH", help="files and directories to measure")
    cli_options.add_chunk_options(parser)
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument("--compare", choices=("lines",), help="add the line-packing baseline")
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress bar and no run summary")
    cli_options.add_walk_options(parser)
    cli_options.add_jobs_option(parser)
    cli_options.add_settings_options(parser)
    parser.set_defaults(run=run)


def throughput(group: GroupSummary) -> float | None:
    """MB/s over all the timed work of the group (parse + chunk)."""
    seconds = sum(group.seconds.values())
    return group.bytes / 1e6 / seconds if seconds > 0 else None


def run(args: argparse.Namespace) -> int:
    cli_options.check_paths(args.paths)
    root = common_root(args.paths)
    resolved = cli_options.resolve(args, root)
    files_plan = plan(args.paths, resolved.walk, root=root)
    warn_about_walk(files_plan)
    jobs = args.jobs or default_jobs()
    analyzer = partial(analyze_quality, baseline=args.compare == "lines")
    tally = RunTally(skipped=list(files_plan.skipped))
    measured, baseline, per_file = [], [], []
    show_progress = not args.quiet and stderr_is_terminal()
    started = time.perf_counter()

    with progress_bar(len(files_plan.files), "measuring", show_progress) as on_progress:
        batch = [BatchFile(path=f.path, name=f.rel) for f in files_plan.files]
        stream = chunk_batch_stream(batch, jobs=jobs, on_progress=on_progress, analyze=analyzer,
                                    keep_chunks=False, options=resolved.options)
        for walked, result in zip(files_plan.files, stream):
            measures, found, lines = result.analysis if result.ok else (None, None, None)
            tally.add(result, walked.rel, chunks=measures.chunks if measures else None)
            if measures is not None:
                measured.append(measures)
                if args.json and found is not None:
                    per_file.append(file_record(measures, found))
                if lines is not None:
                    baseline.append(lines)
    seconds = time.perf_counter() - started

    summary = summarize(measured)
    baseline_summary = summarize(baseline) if args.compare == "lines" else None
    if args.json:
        document = {
            "tool": "chunk-explorer",
            "version": tool_version(),
            "root": files_plan.root,
            "options": resolved.options.to_dict(),
            "summary": summary.to_dict(),
            **({"baseline": {"lines": baseline_summary.to_dict()}} if baseline_summary else {}),
            "files": per_file,
            "run": tally.to_dict(seconds, jobs),
            "failed": [{"path": r.path, "error": {"kind": r.error_kind, "message": r.error}} for r in tally.failed],
        }
        json.dump(document, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        print_table(summary, baseline_summary, resolved.options.size_unit, resolved.options.max_size,
                    resolved.options.tokenizer)

    if not args.quiet:
        for line in summary_lines(tally, seconds, jobs, verb="Measured"):
            say(line)
    if tally.failed:
        say(f"{plural(len(tally.failed), 'file')} failed; the measures cover the others.")
        return EXIT_FAILED
    return EXIT_OK


def tokenizer_note(tokenizer: str | None) -> str:
    return f", tokens counted with {tokenizer}" if tokenizer else ""


def print_table(summary: Summary, baseline: Summary | None, unit: str, max_size: int, tokenizer: str | None = None) -> None:
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    console = Console(width=None if sys.stdout.isatty() else 200, highlight=False)
    console.print(Text(f"Chunk quality (size in {unit}, max {max_size}{tokenizer_note(tokenizer)})", style="bold"))
    table = Table(box=None, header_style="bold", pad_edge=False)
    table.add_column("language")
    if baseline is not None:
        table.add_column("strategy")
    for header, _, _ in COLUMNS:
        table.add_column(header, justify="right")

    rows: list[tuple[str, GroupSummary, GroupSummary | None]] = [
        (name, group, baseline.languages.get(name) if baseline else None)
        for name, group in summary.languages.items()
    ]
    rows.append(("ALL", summary.overall, baseline.overall if baseline else None))
    for i, (name, group, base) in enumerate(rows):
        last = i == len(rows) - 1
        style = "bold" if last else ""
        lead = [Text(name, style=style)] + ([Text("ast")] if baseline is not None else [])
        table.add_row(*lead, *(_cell(get(group), kind) for _, get, kind in COLUMNS),
                      end_section=last and baseline is None)
        if base is not None:
            table.add_row(Text(""), Text("lines", style="dim"),
                          *(_cell(get(base), kind, "dim") for _, get, kind in COLUMNS))
    console.print(table)


def _cell(value: Any, kind: str, style: str = "") -> Text:
    from rich.text import Text

    if value is None:
        return Text("-", style="dim")
    if kind == "int":
        return Text(f"{value:,}", style=style)
    if kind == "num":
        return Text(f"{value:,.0f}" if float(value).is_integer() else f"{value:,.1f}", style=style)
    if kind == "rate":
        return Text(f"{value:.2f}", style=style)
    return Text(f"{value:.1f}" if value >= 10 or value == 0 else f"{value:.2f}", style=style)
