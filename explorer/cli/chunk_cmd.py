"""``chunk-explorer chunk PATH...``: chunk files and directories to JSON or JSONL."""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import json
import sys
from collections.abc import Iterator
from typing import IO

from ..display import embedded_line, plural
from ..engine.batch import default_jobs
from ..engine.options import ChunkOptions
from ..terminal_text import visible
from ..workspace.atomic import write_atomic
from ..workspace.export import FORMATS, OutputError, atomic_writer, check_writable, json_bytes
from ..workspace.export_run import write_export
from ..workspace.incremental import StateError, open_incremental, subset_scope
from ..workspace.walk import WalkPlan, plan
from . import options as cli_options
from .errors import UsageError
from .flag_types import non_negative_int, option, seconds
from .frame import Frame
from .outcome import Outcome
from .report import progress_bar, progress_report, say, summary_lines
from .verbs import SUMMARIES

NAME = "chunk"
HELP = SUMMARIES[NAME]
DESCRIPTION = """\
Chunk source files with the same engine and options as the explorer. Directories are
walked (respecting .gitignore, skipping .git, virtualenvs, node_modules and build
output); files named on the command line are always taken. Options come from the
nearest .chunk-explorer.toml from the path upwards (to the repository's top), overridden
by flags; stderr names the file read. The settings file itself is never chunked.

With --state FILE only the difference since the last run with that state is written, as
JSONL records {"op": "upsert", ...chunk} and {"op": "delete", "id": ..., "path": ...};
every chunk has a stable id (its path, embedded text and settings). FILE is replaced
only once the output is complete; a second run on the same FILE at once refuses to start.

With --engine ray the output is the same, byte for byte and in the same order, as
with the local engine (only the summary's seconds differ).

exit status: 0 all files chunked; 1 some files failed (the output holds the others;
with --state their previous chunks are kept), a file named on the command line was
skipped, or there was no file to chunk; 2 usage error or unusable state file (nothing
done)."""


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(NAME, help=HELP, description=DESCRIPTION,
                                   formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("paths", nargs="+", metavar="PATH", help="files and directories to chunk")
    cli_options.add_chunk_options(parser)
    output = parser.add_argument_group("output")
    output.add_argument("--format", choices=FORMATS,
                        help="json: one document; jsonl: one chunk per line (default json; jsonl with --state)")
    output.add_argument("-o", "--output", metavar="FILE",
                        help="write to FILE (atomically) instead of stdout")
    output.add_argument("--indent", type=non_negative_int, metavar="N",
                        help="pretty-print the JSON document with N spaces")
    output.add_argument("--state", metavar="FILE",
                        help="incremental: write only upserts and deletes since the run that wrote FILE "
                             "(JSONL), then update FILE")
    output.add_argument("--reconcile", metavar="IDS",
                        help="with --state: rebuild FILE from the tree and emit what makes an index holding "
                             "the ids in IDS (one per line, or the index's JSONL with an \"id\" field) right")
    output.add_argument("--summary-json", metavar="FILE",
                        help="also write the run's summary as JSON to FILE (atomically), for machines")
    output.add_argument("-q", "--quiet", action="store_true", help="no progress bar and no summary")
    output.add_argument("--namespace", type=option("namespace"), metavar="NAME",
                        help="put NAME (a repository's name, say) into every chunk id, so one index can hold "
                             "the same file from several repositories (settings key: namespace)")
    cli_options.add_walk_options(parser)
    cli_options.add_jobs_option(parser)
    running = parser.add_argument_group("running")
    running.add_argument("--timeout", type=seconds, metavar="SECONDS",
                         help="give up on a file after SECONDS (reported as that file's error)")
    running.add_argument("--engine", choices=("local", "ray"), default="local",
                         help="local: processes on this machine (default); ray: a Ray cluster (pip install "
                              "'chunk-explorer[ray]')")
    running.add_argument("--ray-address", metavar="ADDR",
                         help="the Ray cluster to join (auto: the running one); default: start a local one")
    running.add_argument("--shared-storage", action="store_true",
                         help="with --engine ray: the workers read the files from the same paths "
                              "(otherwise their contents are shipped through Ray's object store)")
    cli_options.add_settings_options(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    output_path = _check_flags(args)
    frame = Frame.open(args)
    files_plan = frame.walk()
    if args.state is not None:
        scope: list[str] = [""]
        subset = subset_scope(args.state, args.paths)
        if subset is not None:  # some folders of the state's tree: the rest stays as it is
            root, scope = subset
            files_plan = plan(args.paths, frame.resolved.walk, root=root)
        return _run_incremental(args, files_plan, frame.options, output_path, scope)
    settings_path = frame.resolved.settings_path
    extra = {"settings": settings_path} if settings_path else {}

    with _output(output_path) as out, progress_bar(len(files_plan.files), "chunking", frame.show_progress) as on_progress:
        run_ = write_export(out, files_plan, frame.options, fmt=args.format or "json", indent=args.indent,
                            jobs=args.jobs or (None if args.engine == "ray" else default_jobs()), extra=extra,
                            output_path=output_path, on_progress=on_progress, timeout=args.timeout,
                            engine=args.engine, ray_address=args.ray_address, shared_storage=args.shared_storage)
    tally = run_.tally
    _write_summary(args, tally.to_dict(run_.seconds, run_.jobs))

    outcome = Outcome(files_plan, tally.skipped, done=tally.files, failed=len(tally.failed))
    if not args.quiet:
        for line in summary_lines(tally, run_.seconds, run_.jobs, listed_in=f"the {(args.format or 'json').upper()} "
                                  "output"):
            say(line)
        if tally.chunks:
            say(embedded_line(frame.options, tally.chunks, tally.embedded_over, tally.embedded_largest))
        if output_path is not None:
            say(f"Wrote {output_path}")
    for line in outcome.lines("chunk"):
        say(line)
    if tally.failed:
        say(f"{len(tally.failed)} of {run_.planned} files failed; the output holds every other file. "
            "Fix or --exclude the failing files and run again.")
    return outcome.status


def _held_ids(path: str) -> frozenset[str]:
    """The ids an index holds: one per line, or JSONL records with an ``id``."""
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read --reconcile {path}: {getattr(exc, 'strerror', None) or exc}") from None
    ids = set()
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line:
            continue
        if line.startswith("{"):
            try:
                value = json.loads(line).get("id")
            except (ValueError, AttributeError):
                value = None
            if not isinstance(value, str):
                raise UsageError(f"--reconcile {path}, line {number}: a JSON record without a string \"id\"")
            ids.add(value)
        else:
            ids.add(line)
    return frozenset(ids)


def _write_summary(args: argparse.Namespace, summary: dict[str, object]) -> None:
    """``--summary-json FILE``: the summary the run printed, as one JSON object."""
    if args.summary_json is not None:
        write_atomic(args.summary_json, json_bytes(summary) + b"\n")


def _check_flags(args: argparse.Namespace) -> str | None:
    """The flags that go together, and a writable ``-o`` (its checked path, or None for
    stdout), before the paths are walked. Raises UsageError."""
    output_path = None if args.output in (None, "-") else args.output
    if args.summary_json is not None:
        try:
            check_writable(args.summary_json)
        except OutputError as exc:
            raise UsageError(str(exc)) from None
    if output_path is not None:
        try:
            output_path = check_writable(output_path)
        except OutputError as exc:
            raise UsageError(str(exc)) from None
    if args.engine != "ray" and (args.ray_address is not None or args.shared_storage):
        flag = "--ray-address" if args.ray_address is not None else "--shared-storage"
        raise UsageError(f"{flag} needs --engine ray")
    if args.engine == "ray" and importlib.util.find_spec("ray") is None:
        raise UsageError("--engine ray needs Ray: pip install 'chunk-explorer[ray]'")
    if args.reconcile is not None and args.state is None:
        raise UsageError("--reconcile needs --state FILE (the state it rebuilds)")
    if args.state is not None and (args.format == "json" or args.indent is not None):
        raise UsageError("--state writes JSONL records: leave out --format json and --indent")
    return output_path


def _run_incremental(args: argparse.Namespace, files_plan: WalkPlan, options: ChunkOptions,
                     output_path: str | None, scope: list[str]) -> int:
    """Write the difference since the state's run; update the state once it is all out."""
    held = None if args.reconcile is None else _held_ids(args.reconcile)
    try:
        with progress_report(len(files_plan.files), "chunking", quiet=args.quiet) as on_progress, \
                open_incremental(files_plan, args.state, options, jobs=args.jobs, timeout=args.timeout,
                                 engine=args.engine, ray_address=args.ray_address,
                                 shared_storage=args.shared_storage, on_progress=on_progress,
                                 leave_out=[output_path] if output_path else (), scope=scope,
                                 held=held) as run:
            if run.rechunk_reason and not args.quiet:
                say(f"{visible(run.rechunk_reason)}: re-chunking every file")
            with _output(output_path) as out:
                for record in run.records():
                    out.write(record.line)
            run.commit()
    except StateError as exc:
        raise UsageError(str(exc)) from None
    summary = run.summary
    _write_summary(args, summary.to_dict())
    for rel, why in summary.kept:
        say(f"chunk-explorer: warning: {visible(rel)}: {visible(why)}; its previous chunks are kept")
    if not args.quiet:
        say(f"{plural(summary.files, 'file')}: {summary.chunked:,} chunked, "
            f"{summary.unchanged + summary.touched:,} unchanged ({summary.touched:,} touched), "
            f"{summary.deleted_files:,} deleted; {plural(summary.upserts, 'upsert')} "
            f"({summary.new_texts:,} with new text), "
            f"{plural(summary.deletes, 'delete')} in {summary.seconds:.2f}s")
        if output_path is not None:
            say(f"Wrote {output_path}")
        say(f"Updated {args.state}")
    # Deletes are work too: a tree emptied since the last run is no empty input.
    outcome = Outcome(files_plan, files_plan.skipped, done=summary.files + summary.deleted_files,
                      failed=len(summary.kept))
    for line in outcome.lines("chunk"):
        say(line)
    return outcome.status


@contextlib.contextmanager
def _output(path: str | None) -> Iterator[IO[bytes]]:
    """The output as bytes: UTF-8 always, whatever the terminal's locale says."""
    if path is None:
        sys.stdout.flush()
        yield sys.stdout.buffer
        sys.stdout.buffer.flush()
    else:
        with atomic_writer(path, binary=True) as handle:
            yield handle
