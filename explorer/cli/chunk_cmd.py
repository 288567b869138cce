"""``chunk-explorer chunk PATH...``: chunk files and directories to JSON or JSONL."""

from __future__ import annotations

import argparse
import contextlib
import functools
import os
import sys
import time
from collections.abc import Iterator
from typing import TextIO, cast

from ..engine.batch import BatchFile, chunk_batch_stream, default_jobs
from ..workspace.export import (
    FORMATS, JsonDocumentWriter, JsonlWriter, OutputError, atomic_writer, check_writable, encode_file_record,
    encode_jsonl, file_record,
)
from ..workspace.walk import WalkPlan, common_root, plan
from . import options as cli_options
from .errors import EXIT_FAILED, EXIT_OK, UsageError
from .report import RunTally, progress_bar, say, stderr_is_terminal

NAME = "chunk"
HELP = "chunk files and directories; JSON or JSONL to stdout or a file"
DESCRIPTION = """\
Chunk source files with the same engine and options as the explorer. Directories are
walked (respecting .gitignore, skipping .git, virtualenvs, node_modules and build
output); files named on the command line are always taken. Options come from the
.chunk-explorer.toml at the root, overridden by flags.

exit status: 0 all files chunked, 1 some files failed (the output holds the others),
2 usage error (nothing done)."""


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(NAME, help=HELP, description=DESCRIPTION,
                                   formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("paths", nargs="+", metavar="PATH", help="files and directories to chunk")
    cli_options.add_chunk_options(parser)
    output = parser.add_argument_group("output")
    output.add_argument("--format", choices=FORMATS, default="json",
                        help="json: one document; jsonl: one chunk per line (default json)")
    output.add_argument("-o", "--output", metavar="FILE",
                        help="write to FILE (atomically) instead of stdout")
    output.add_argument("--indent", type=cli_options.non_negative_int, metavar="N",
                        help="pretty-print the JSON document with N spaces")
    output.add_argument("-q", "--quiet", action="store_true", help="no progress bar and no summary")
    cli_options.add_walk_options(parser)
    cli_options.add_jobs_option(parser)
    cli_options.add_settings_options(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    cli_options.check_paths(args.paths)
    output_path = None if args.output in (None, "-") else args.output
    if output_path is not None:
        try:
            output_path = check_writable(output_path)
        except OutputError as exc:
            raise UsageError(str(exc)) from None

    root = common_root(args.paths)
    resolved = cli_options.resolve(args, root)
    files_plan = plan(args.paths, resolved.walk, root=root)
    if output_path is not None:
        # Never chunk our own output (a previous run's file inside the tree).
        files_plan.files = [f for f in files_plan.files if os.path.abspath(f.path) != output_path]

    jobs = args.jobs or default_jobs()
    tally = RunTally(skipped=list(files_plan.skipped))
    show_progress = not args.quiet and stderr_is_terminal()
    started = time.perf_counter()

    with _output(output_path) as out:
        writer = _writer(args, out, resolved, files_plan)
        # Records are encoded to JSON in the workers: the parent only writes strings.
        if isinstance(writer, JsonlWriter):
            encode = encode_jsonl
        else:
            encode = functools.partial(encode_file_record, indent=args.indent)
        with progress_bar(len(files_plan.files), "chunking", show_progress) as on_progress:
            batch = [BatchFile(path=f.path, name=f.rel) for f in files_plan.files]
            stream = chunk_batch_stream(batch, jobs=jobs, on_progress=on_progress, analyze=encode,
                                        keep_chunks=False, options=resolved.options)
            for walked, result in zip(files_plan.files, stream):
                count, encoded = result.analysis if result.ok else (0, "")
                tally.add(result, walked.rel, chunks=count)
                if isinstance(writer, JsonlWriter):
                    if result.ok:
                        writer.add_encoded(count, encoded)
                elif result.ok:
                    writer.add_encoded(encoded)
                elif not result.not_text:  # failures are part of the document; binaries are skipped
                    writer.add(file_record(walked.rel, result.language, error=result.error,
                                           error_kind=result.error_kind))
        seconds = time.perf_counter() - started
        if isinstance(writer, JsonDocumentWriter):
            writer.close([s.to_dict() for s in tally.skipped], tally.to_dict(seconds, jobs))

    if not args.quiet:
        for line in tally.summary_lines(seconds, jobs):
            say(line)
        if output_path is not None:
            say(f"Wrote {output_path}")
        if not files_plan.files and not tally.skipped:
            say("No files found: check the paths, or --include/--exclude.")
    if tally.failed:
        say(f"{len(tally.failed)} of {len(files_plan.files)} files failed; the output holds every other file. "
            "Fix or --exclude the failing files and run again.")
        return EXIT_FAILED
    return EXIT_OK


def _writer(args: argparse.Namespace, out: TextIO, resolved: cli_options.Resolved,
            files_plan: WalkPlan) -> JsonDocumentWriter | JsonlWriter:
    if args.format == "jsonl":
        return JsonlWriter(out)
    extra = {"settings": resolved.settings_path} if resolved.settings_path else {}
    return JsonDocumentWriter(out, resolved.options, files_plan.root, indent=args.indent, extra=extra)


@contextlib.contextmanager
def _output(path: str | None) -> Iterator[TextIO]:
    if path is None:
        yield sys.stdout
        sys.stdout.flush()
    else:
        with atomic_writer(path) as handle:
            yield cast(TextIO, handle)  # text mode: binary=False
