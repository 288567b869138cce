"""The explorer's two exports, from key to notice: the dialog asking where, the worker
writing (:mod:`.write`), the progress of a whole tree, and what the user is told.

The app forwards its export keys (``e``, the palette's "export: ...") and the workers'
messages (:mod:`.messages`) here; everything else about exporting lives in this folder.
"""

from __future__ import annotations

import os
from functools import partial
from typing import Any

from textual.app import App

from explorer.display import plural, skipped_lines
from explorer.engine.options import ChunkOptions
from explorer.workspace.confine import Confinement
from explorer.workspace.overwrite import export_refusal
from explorer.workspace.walk import WalkOptions

from ..app_state import explorer_state
from ..document.model import Document
from ..jobs import JobRun, LatestJob
from .dialog import ExportScreen
from .messages import ExportFailed, ExportFinished, ExportProgressed
from .progress import ExportProgressScreen
from .write import default_export_path, export_document, export_tree


class ExportService:
    """Exports of one app; typed paths are read from ``start_dir`` (where the explorer was started).
    A served app's ``confinement`` refuses every target outside the folder it may write into."""

    def __init__(self, app: App[Any], start_dir: str, confinement: Confinement | None = None):
        self.app = app
        self.start_dir = start_dir
        self.confinement = confinement
        #: Exports (the open file, or the whole tree) run one at a time; their workers report
        #: success and failure themselves (ExportFinished, ExportFailed).
        self.exporting: LatestJob[None] = LatestJob(app, "export")

    def target(self, path: str) -> str:
        """The absolute path of what the user typed."""
        return os.path.abspath(os.path.join(self.start_dir, os.path.expanduser(path)))

    def refusal(self, target: str) -> str | None:
        """Why an export must not write ``target`` (the open file, a source in the tree), or None."""
        if self.confinement is not None and (outside := self.confinement.write_refusal(target)) is not None:
            return outside
        state = explorer_state(self.app)
        shown = [state.document.path] if state.document is not None else []
        return export_refusal(target, state.root, state.walk_options, shown)

    def writes_nothing(self) -> bool:
        """A served app with no folder to write into: says so (no dialog is worth opening)."""
        if self.confinement is None or self.confinement.writes:
            return False
        self.app.notify("This served explorer writes nothing (the server was started without --write-to)",
                        title="Export off", severity="warning", markup=False)
        return True

    # -- the open file ----------------------------------------------------------------------
    def export_file(self) -> None:
        """Ask where to write the open file's chunks, then write them in a worker."""
        document = explorer_state(self.app).document
        if document is None:
            self.app.notify("Open a file first", severity="warning", markup=False)
            return
        if self.writes_nothing():
            return
        name = os.path.basename(document.path)
        self.app.push_screen(
            ExportScreen(
                "Export chunks",
                f"{plural(len(document.chunks), 'chunk')} of {name}, as JSON (the schema of `chunk-explorer chunk`):",
                default_export_path(self.start_dir, name),
                resolve=self.target, refuse=self.refusal,
            ),
            self._file_chosen,
        )

    def _file_chosen(self, path: str | None) -> None:
        state = explorer_state(self.app)
        if not path or state.document is None:
            return
        self.exporting.start(partial(self._write_file, state.document, self.target(path), state.root),
                             "export the open file", name="export file")

    def _write_file(self, document: Document, target: str, root: str, run: JobRun) -> None:
        try:
            count = export_document(document, target, root)
        except Exception as error:  # OutputError says what went wrong and what to do
            self.app.post_message(ExportFailed(target, str(error)))
            return
        self.app.post_message(ExportFinished(target, 1, count))

    # -- the whole tree -----------------------------------------------------------------------
    def export_tree(self) -> None:
        """Ask where to write every file's chunks, then chunk and write them in a worker, with progress."""
        root = explorer_state(self.app).root
        if self.writes_nothing():
            return
        self.app.push_screen(
            ExportScreen(
                "Export the whole tree",
                f"Chunk every file under {root} (walker rules, .gitignore) into one JSON document:",
                default_export_path(self.start_dir, os.path.basename(root.rstrip(os.sep)) or "root"),
                resolve=self.target, refuse=self.refusal,
            ),
            self._tree_chosen,
        )

    def _tree_chosen(self, path: str | None) -> None:
        if not path:
            return
        target = self.target(path)
        state = explorer_state(self.app)
        self.app.push_screen(ExportProgressScreen(target, cancel=self.exporting.cancel))
        self.exporting.start(partial(self._write_tree, target, state.root, state.options, state.walk_options),
                             "export the whole tree", name="export tree")

    def _write_tree(self, target: str, root: str, options: ChunkOptions, walk: WalkOptions | None,
                    run: JobRun) -> None:
        def progressed(done: int, total: int) -> None:
            self.app.post_message(ExportProgressed(done, total))

        try:
            result = export_tree(root, options, walk, target, on_progress=progressed,
                                 should_stop=run)
        except Exception as error:
            self.app.post_message(ExportFailed(target, str(error)))
            return
        if result is not None:
            skipped = tuple(skipped_lines(result.skipped, more="all in the document", limit=5))
            self.app.post_message(ExportFinished(target, result.files, result.chunks, len(result.failed), skipped))

    # -- what the workers report ----------------------------------------------------------------
    def progressed(self, message: ExportProgressed) -> None:
        if isinstance(self.app.screen, ExportProgressScreen):
            self.app.screen.advance(message.done, message.total)

    def finished(self, message: ExportFinished) -> None:
        if isinstance(self.app.screen, ExportProgressScreen):
            self.app.screen.dismiss(None)
        files = f" from {message.files} files" if message.files != 1 else ""
        failed = f" ({message.failed} files failed, listed in the document)" if message.failed else ""
        left_out = "".join(f"\n{line.strip()}" for line in message.skipped)
        self.app.notify(f"Wrote {plural(message.chunks, 'chunk')}{files} to {message.path}{failed}{left_out}",
                        title="Exported", markup=False, timeout=10 if left_out else 5)

    def failed(self, message: ExportFailed) -> None:
        if isinstance(self.app.screen, ExportProgressScreen):
            self.app.screen.dismiss(None)
        self.app.notify(message.reason, title="Export failed", severity="error", timeout=10, markup=False)
