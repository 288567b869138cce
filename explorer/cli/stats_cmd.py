"""``chunk-explorer stats PATH...``: the quality measures of a chunking, per language and
overall (defined and computed by ``explorer.engine.measure.quality``)."""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

from ..display import QUALITY_COLUMNS as COLUMNS
from ..display import plural
from ..engine.batch import BatchFile
from ..engine.batch.tally import RunTally
from ..engine.measure.analyzers import analyze_quality
from ..engine.measure.problems import file_record
from ..engine.measure.quality import GroupSummary, Summary, summarize
from ..workspace.export import json_header
from . import options as cli_options
from .frame import Frame
from .outcome import Outcome
from .output import console, print_json
from .report import progress_bar, say, summary_lines, warn_about_cache
from .verbs import SUMMARIES

if TYPE_CHECKING:  # rich is imported when a table is printed, not at start-up
    from rich.text import Text

NAME = "stats"
HELP = SUMMARIES[NAME]
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
    cli_options.add_cache_option(parser)
    cli_options.add_settings_options(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    frame = Frame.open(args)
    cache = cli_options.results_cache(args)
    files_plan = frame.walk()
    jobs = frame.jobs
    analyzer = partial(analyze_quality, baseline=args.compare == "lines")
    tally = RunTally(skipped=list(files_plan.skipped))
    measured, baseline, per_file = [], [], []
    started = time.perf_counter()

    with progress_bar(len(files_plan.files), "measuring", frame.show_progress) as on_progress:
        batch = [BatchFile(path=f.path, name=f.rel) for f in files_plan.files]
        stream = cache.stream(batch, jobs=jobs, on_progress=on_progress, analyze=analyzer, keep_chunks=False,
                              options=frame.options)
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
    warn_about_cache(cache.problem)

    summary = summarize(measured)
    baseline_summary = summarize(baseline) if args.compare == "lines" else None
    if args.json:
        print_json({
            **json_header(),
            "root": files_plan.root,
            "options": frame.options.to_dict(),
            "summary": summary.to_dict(),
            **({"baseline": {"lines": baseline_summary.to_dict()}} if baseline_summary else {}),
            "files": per_file,
            "run": tally.to_dict(seconds, jobs),
            "skipped": [record.to_dict() for record in tally.skipped],
            "failed": [{"path": r.path, "error": {"kind": r.error_kind, "message": r.error}} for r in tally.failed],
        })
    else:
        print_table(summary, baseline_summary, frame.options.size_unit, frame.options.max_size,
                    frame.options.tokenizer)

    if not args.quiet:
        for line in summary_lines(tally, seconds, jobs, verb="Measured", listed_in="--json"):
            say(line)
    outcome = Outcome(files_plan, tally.skipped, done=tally.files, failed=len(tally.failed))
    for line in outcome.lines("measure"):
        say(line)
    if tally.failed:
        say(f"{plural(len(tally.failed), 'file')} failed; the measures cover the others.")
    return outcome.status


def tokenizer_note(tokenizer: str | None) -> str:
    return f", tokens counted with {tokenizer}" if tokenizer else ""


def print_table(summary: Summary, baseline: Summary | None, unit: str, max_size: int, tokenizer: str | None = None) -> None:
    from rich.table import Table
    from rich.text import Text

    out = console(pipe_width=200)
    out.print(Text(f"Chunk quality (size in {unit}, max {max_size}{tokenizer_note(tokenizer)})", style="bold"))
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
    out.print(table)


def _cell(value: Any, shown: Callable[[Any], str], style: str = "") -> Text:
    from rich.text import Text

    if value is None:
        return Text("-", style="dim")
    return Text(shown(value), style=style)
