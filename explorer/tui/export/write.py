"""Exporting chunks from the explorer, in the CLI's JSON schema, written atomically.

No Textual here: workers call these functions and report back with messages.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from explorer.engine.batch.tally import RunTally
from explorer.engine.cancel import ShouldStop
from explorer.engine.options import ChunkOptions
from explorer.workspace.export import file_record, render_json, write_atomic
from explorer.workspace.export_run import export_tree_file
from explorer.workspace.ids import content_hash
from explorer.workspace.paths import display_path
from explorer.workspace.walk import WalkOptions

from ..document.model import Document


def default_export_path(start_dir: str, name: str) -> str:
    """``<name>.chunks.json`` in the directory the explorer was started from."""
    return os.path.join(start_dir, f"{os.path.basename(name) or 'chunks'}.chunks.json")


def export_document(document: Document, target: str, root: str) -> int:
    """Write the open file's chunks; returns the number of chunks written."""
    parsed = document.file.parsed
    record = file_record(display_path(document.path, root), parsed.language, document.chunks,
                         options=document.options, file_hash=content_hash(parsed.source.data))
    write_atomic(target, render_json([record], document.options, root))
    return len(document.chunks)


def export_tree(
    root: str,
    options: ChunkOptions,
    walk: WalkOptions | None,
    target: str,
    on_progress: Callable[[int, int], object] | None = None,
    should_stop: ShouldStop = lambda: False,
) -> RunTally | None:
    """Chunk every file under ``root`` (walker rules) into one JSON document, by the
    same pipeline as the CLI's ``chunk``; returns its tally (binary and undecodable files
    are counted under skipped only), or None when cancelled (nothing is written)."""
    progress = None if on_progress is None else (lambda done, total, result: on_progress(done, total or 0))
    run = export_tree_file(root, options, walk, target, on_progress=progress, should_stop=should_stop)
    return None if run is None else run.tally
