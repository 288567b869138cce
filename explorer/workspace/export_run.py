"""One export pipeline for a whole tree: the CLI's ``chunk`` command and the explorer's
"export: whole tree" both run :func:`write_export`, so they write the same document with
the same summary for the same files.

Workers encode each file's record (JSON or JSONL bytes); this process only writes the
bytes in order, counts, and lists what was skipped (the JSON ``skipped`` list, or JSONL
lines after the chunks). Binary and undecodable files found
while chunking are skipped (listed once, under ``skipped``), never counted as files.

Summary (``schema: 1``)::

    {"files": chunked files, "chunks": N, "bytes": source bytes chunked,
     "skipped": {reason: count, ...}, "failed": files with an error record,
     "seconds": wall time, "jobs": worker processes}
"""

from __future__ import annotations

import functools
import os
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING, Any

from ..engine.batch import run_jobs
from ..engine.batch.tally import RunTally
from ..engine.cancel import Cancelled, ShouldStop, stop_if_asked
from ..engine.files import DEFAULT_MAX_BYTES
from ..engine.options import ChunkOptions
from .atomic import atomic_writer
from .export import JsonDocumentWriter, JsonlWriter, encode_file_record, encode_jsonl, file_record
from .walk import WalkOptions, WalkPlan, plan

if TYPE_CHECKING:
    from ..engine.batch import ProgressCallback


@dataclass(slots=True)
class ExportRun:
    """What an export did: the tally, wall time and the jobs it ran with."""

    tally: RunTally
    seconds: float
    jobs: int
    planned: int  # files handed to the chunker (after leaving out the output itself)


def write_export(
    out: IO[bytes],
    files_plan: WalkPlan,
    options: ChunkOptions,
    *,
    fmt: str = "json",
    indent: int | None = None,
    jobs: int | None = None,
    extra: Mapping[str, Any] | None = None,
    output_path: str | None = None,
    on_progress: ProgressCallback | None = None,
    should_stop: ShouldStop | None = None,
    timeout: float | None = None,
    engine: str = "local",
    ray_address: str | None = None,
    shared_storage: bool = False,
) -> ExportRun:
    """Chunk the planned files and write the ``fmt`` export to ``out`` (binary).
    ``output_path`` is left out of the files (a previous export inside the tree)."""
    started = time.perf_counter()
    files = files_plan.files
    if output_path is not None:
        target = os.path.abspath(output_path)
        files = [f for f in files if os.path.abspath(f.path) != target]
    jobs = run_jobs(jobs, len(files), engine, ray_address)
    tally = RunTally(skipped=list(files_plan.skipped))
    jsonl = fmt == "jsonl"
    document = None if jsonl else JsonDocumentWriter(out, options, files_plan.root, indent=indent, extra=extra)
    lines = JsonlWriter(out) if jsonl else None
    encode = functools.partial(_encode_and_measure, encode_jsonl if jsonl
                               else functools.partial(encode_file_record, indent=indent))
    from ..engine.batch import BatchFile, chunk_batch_stream  # the chunker loads only for a run that chunks

    batch = [BatchFile(path=f.path, name=f.rel, size=f.size) for f in files]
    # The walker judged the sizes; the reader still refuses anything larger than it saw.
    max_bytes = max([DEFAULT_MAX_BYTES, *(f.size for f in files)])
    stream = chunk_batch_stream(batch, jobs=jobs, on_progress=on_progress, analyze=encode, keep_chunks=False,
                                options=options, timeout=timeout, max_bytes=max_bytes, engine=engine,
                                ray_address=ray_address, shared_storage=shared_storage)
    try:
        for walked, result in zip(files, stream):
            stop_if_asked(should_stop)  # raised inside the writer, so an atomic output is discarded
            count, encoded, over, largest = result.analysis if result.ok else (0, b"", 0, 0)
            tally.add(result, walked.rel, chunks=count if result.ok else None)
            tally.add_embedded(over, largest)
            if lines is not None:
                if result.ok:
                    lines.add_encoded(count, encoded)
            elif document is not None:
                if result.ok:
                    document.add_encoded(encoded)
                elif not result.not_text:  # failures are part of the document; binaries are skipped
                    document.add(file_record(walked.rel, result.language, error=result.error,
                                             error_kind=result.error_kind))
    finally:
        stream.close()  # stops the workers when leaving early
    seconds = time.perf_counter() - started
    if document is not None:
        document.close([s.to_dict() for s in tally.skipped], tally.to_dict(seconds, jobs))
    elif lines is not None:
        for skipped in tally.skipped:
            lines.add_skipped(skipped.to_dict())
    return ExportRun(tally, seconds, jobs, len(files))


def _encode_and_measure(encode: Callable[..., tuple[int, bytes]], parsed: Any, chunks: Sequence[Any],
                        options: ChunkOptions, seconds: Any) -> tuple[int, bytes, int, int]:
    """Batch analyzer: ``encode``'s ``(chunk count, bytes)``, then how many chunks have an
    embedded text over the limit and the largest embedded size (the run's closing line)."""
    count, data = encode(parsed, chunks, options, seconds)
    sizes = [chunk.embedded_size for chunk in chunks]
    return count, data, sum(size > options.max_size for size in sizes), max(sizes, default=0)


def export_tree_file(root: str, options: ChunkOptions, walk: WalkOptions | None, target: str,
                     **kwargs: Any) -> ExportRun | None:
    """Walk ``root`` and write the JSON export to ``target`` atomically (the explorer's
    whole-tree export). Returns None when cancelled: nothing is written then."""
    files_plan = plan([root], walk, root=root)
    try:
        with atomic_writer(target, binary=True) as out:
            return write_export(out, files_plan, options, output_path=target, **kwargs)
    except Cancelled:
        return None
