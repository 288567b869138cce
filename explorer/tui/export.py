"""Exporting chunks from the explorer, in the CLI's JSON schema, written atomically.

No Textual here: workers call these functions and report back with messages.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass

from explorer.engine.batch import BatchFile, chunk_batch_stream, default_jobs
from explorer.engine.options import ChunkOptions
from explorer.workspace.export import JsonDocumentWriter, atomic_writer, file_record, render_json, write_atomic
from explorer.workspace.walk import WalkOptions, plan

from .state import Document, display_path

#: Below this many files, a process pool costs more than it saves.
POOL_THRESHOLD = 16


def default_export_path(start_dir: str, name: str) -> str:
    """``<name>.chunks.json`` in the directory the explorer was started from."""
    return os.path.join(start_dir, f"{os.path.basename(name) or 'chunks'}.chunks.json")


def export_document(document: Document, target: str, root: str) -> int:
    """Write the open file's chunks; returns the number of chunks written."""
    record = file_record(display_path(document.path, root), document.file.parsed.language, document.chunks)
    write_atomic(target, render_json([record], document.options, root))
    return len(document.chunks)


class _Cancelled(Exception):
    """Raised inside the atomic writer so that the temporary file is discarded."""


@dataclass(frozen=True)
class TreeExport:
    files: int
    chunks: int
    failed: int
    skipped: int


def export_tree(
    root: str,
    options: ChunkOptions,
    walk: WalkOptions | None,
    target: str,
    on_progress: Callable[[int, int], None] | None = None,
    is_cancelled: Callable[[], bool] = lambda: False,
) -> TreeExport | None:
    """Chunk every file under ``root`` (walker rules) into one JSON document.
    Returns None when cancelled (nothing is written then)."""
    files_plan = plan([root], walk, root=root)
    target_abs = os.path.abspath(target)
    files = [f for f in files_plan.files if os.path.abspath(f.path) != target_abs]
    jobs = 1 if len(files) < POOL_THRESHOLD else default_jobs()
    chunks = failed = 0
    skipped = [s.to_dict() for s in files_plan.skipped]
    try:
        with atomic_writer(target) as out:
            writer = JsonDocumentWriter(out, options, files_plan.root)
            batch = [BatchFile(path=f.path, name=f.rel) for f in files]
            stream = chunk_batch_stream(batch, jobs=jobs, options=options)
            for done, (walked, result) in enumerate(zip(files, stream), start=1):
                if is_cancelled():
                    stream.close()
                    raise _Cancelled  # inside the writer: the temporary file is discarded
                if result.ok:
                    chunks += len(result.chunks or ())
                    writer.add(file_record(walked.rel, result.language, result.chunks))
                elif result.not_text:
                    skipped.append({"path": walked.rel, "reason": result.error_kind})
                else:
                    failed += 1
                    writer.add(file_record(walked.rel, result.language, error=result.error,
                                           error_kind=result.error_kind))
                if on_progress is not None:
                    on_progress(done, len(files))
            writer.close(skipped, {"files": len(files), "chunks": chunks, "failed": failed, "skipped": len(skipped)})
    except _Cancelled:
        return None
    return TreeExport(len(files), chunks, failed, len(skipped))

