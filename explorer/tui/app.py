"""The explorer app: wires the document service, the file watcher, the exports, the screens and the keys.

It owns the state the screens show (``document``, ``options``, ``problem``) and
is the only place that changes it, in message handlers: the screens read it
through :mod:`.app_state` and ask for changes with :mod:`.app_messages`.
"""

from __future__ import annotations

import io
import os
from collections.abc import Iterable

from textual import work
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.reactive import var
from textual.screen import Screen

from explorer.display import options_text
from explorer.engine.options import ChunkOptions, options_in_unit
from explorer.engine.sizing import SizeInUnit
from explorer.terminal_text import visible
from explorer.workspace.walk import DEFAULT_MAX_FILE_SIZE, WalkOptions

from . import heap
from .app_messages import FileChosen, OptionsChanged, QuerySourcesChosen, SettingChosen, UnitChosen
from .app_state import DEFAULT_QUERY_SOURCES
from .document.messages import ChunkingFailed, ChunksReady, FileOpened, FileOpenFailed
from .document.model import Document, needs_reparse
from .document.service import DocumentService
from .export.messages import ExportFailed, ExportFinished, ExportProgressed
from .export.service import ExportService
from .processes import start_resource_tracker
from .screens.explore import ExploreScreen
from .screens.help import HelpScreen
from .screenshot import save_screenshot
from .served import Serving
from .steps import stepped_size
from .tools import open_compare, open_queries, open_sweep, open_teach, open_teach_on
from .watch import FilesChangedOnDisk, WatchStarted, watch_directory


class ChunkExplorerApp(App[int]):
    """See how a codebase gets chunked, and tune it live."""

    TITLE = "Chunk Explorer"
    CSS_PATH = "styles/app.tcss"
    # Only Textual's system commands (theme, screenshot, quit, help): each screen offers its
    # own actions in its COMMANDS, so the palette never reaches a screen behind the one in front.
    COMMANDS = App.COMMANDS
    SCREENS = {"explore": ExploreScreen}
    MODES = {"explore": "explore"}
    DEFAULT_MODE = "explore"
    #: A maximized pane keeps the keys under it (escape, or z, restores the layout).
    ALLOW_IN_MAXIMIZED_VIEW = "KeyFooter"

    # Only the keys that work on every screen; each screen binds its own.
    BINDINGS = [
        Binding("question_mark", "help", "Help", key_display="?", id="app.help",
                tooltip="Show the keys of this screen"),
        Binding("q,ctrl+c", "quit", "Quit", key_display="q", id="app.quit", tooltip="Quit the explorer"),
    ]

    #: The open file and its chunking (None: nothing open, or it could not be shown).
    document: var[Document | None] = var(None, always_update=True)
    #: The chunking parameters in force.
    options: var[ChunkOptions] = var(ChunkOptions())
    #: Why nothing is shown (a binary file, a deleted file, ...), or "".
    problem: var[str] = var("")
    #: The query sources of the retrieval evaluations (the sweep's, the queries view's).
    query_sources: var[tuple[str, ...]] = var(DEFAULT_QUERY_SOURCES)

    def __init__(
        self,
        path: str | None = None,
        options: ChunkOptions | None = None,
        *,
        walk: WalkOptions | None = None,
        settings_path: str | None = None,
        watch: bool = True,
        show_timings: bool = True,
        start_dir: str | None = None,
        teach: str | None = None,
        serving: Serving | None = None,
        open_path: str | None = None,
    ):
        super().__init__()
        target = os.path.abspath(path or os.curdir)
        self.root = target if os.path.isdir(target) else os.path.dirname(target)
        self.initial_file = os.path.abspath(open_path) if open_path else None if os.path.isdir(target) else target
        #: ``--teach FILE``: teach mode on it at start, in the presentation layout.
        self.teach_file = os.path.abspath(teach) if teach else None
        #: The rules of an app served to a browser (reads under the root, writes in one folder), or None.
        self.serving = serving
        if serving is not None and serving.confinement.write_dir is not None:
            start_dir = serving.confinement.write_dir  # exports are proposed, and typed paths read, there
        self.start_dir = os.path.abspath(start_dir or os.getcwd())
        self.walk_options = walk
        self.settings_path = settings_path
        self.watching = watch
        #: Whether the directory watch is set up (changes made before it are not seen).
        self.watch_started = False
        self.show_timings = show_timings
        #: Loads and chunks the open file in workers (document/).
        self.service = DocumentService(self, self.root, walk.max_file_size if walk else DEFAULT_MAX_FILE_SIZE)
        #: The export keys' dialogs, workers and notices (export/).
        self.exports = ExportService(self, self.start_dir,
                                     confinement=serving.confinement if serving is not None else None)
        #: The file last refused for its size (``o`` opens it anyway), or None.
        self.refused_path: str | None = None
        #: The file the user last asked to see, shown or not (a file that could not be
        #: read is opened again when it changes on disk).
        self.wanted_path: str | None = None
        self.set_reactive(ChunkExplorerApp.options, options or ChunkOptions())

    @property
    def explore(self) -> ExploreScreen:
        screen = self.get_screen("explore")
        assert isinstance(screen, ExploreScreen)
        return screen

    def on_load(self) -> None:
        # Everything imported so far lives as long as the app: keep full collections
        # from walking it while the screens are built (see heap.py).
        heap.install()
        heap.keep()
        start_resource_tracker()  # while stderr is still a real file (see processes.py)

    def on_mount(self) -> None:
        if self.serving is not None:
            self.notify(self.serving.notice(), title="Chunk Explorer in a browser", timeout=12, markup=False)
        if self.teach_file is not None:
            self.call_after_refresh(self.start_teaching, self.teach_file)
        if self.initial_file is not None:
            # After the first frame: parsing holds the GIL and would delay it.
            self.call_after_refresh(self.open_file, self.initial_file)
            self.call_after_refresh(self.explore.reveal_file, self.initial_file)
            self.call_after_refresh(self.explore.focus_source)
        if self.watching:
            self.watch_files()

    def on_unmount(self) -> None:
        heap.uninstall()

    # -- opening and chunking -------------------------------------------------------------
    def read_refusal(self, path: str) -> str | None:
        """Why a served app must not open ``path`` (outside the served folder), or None."""
        return None if self.serving is None else self.serving.confinement.read_refusal(path)

    def open_file(self, path: str, *, reloaded: bool = False) -> None:
        refusal = self.read_refusal(path)
        if refusal is not None:
            self.notify(refusal, title="Not opened", severity="error", markup=False)
            return
        self.wanted_path = path
        self.service.open(path, self.options, reloaded=reloaded)

    def start_teaching(self, path: str) -> None:
        """Teach mode on ``path``, in its presentation layout (``--teach FILE``)."""
        refusal = self.read_refusal(path)
        if refusal is not None:
            self.notify(refusal, title="Not opened", severity="error", markup=False)
            return
        open_teach_on(self, path, present=True)

    def on_file_chosen(self, message: FileChosen) -> None:
        self.open_file(message.path)

    def on_file_opened(self, message: FileOpened) -> None:
        document = message.document
        if document.generation != self.service.generation:
            return  # a newer load superseded this one
        self.problem = ""
        previous = self.document
        replaced = previous is not None and not previous.file.partial and previous.file is not document.file
        del previous  # no reference may keep the old file alive past release()
        self.document = document
        if replaced:
            heap.release()  # the old file is dropped: its cycles must be freed, not frozen
        if message.shown is not None:
            self.call_after_refresh(message.shown.set)
        if not document.file.partial:
            skipped = document.file.parsed.skipped
            if skipped:  # (a notebook cell of a type this version does not know)
                self.notify(visible("Left out of the chunks: " + ", ".join(skipped)),
                            title=visible(os.path.basename(document.path)), severity="warning", markup=False)
            heap.keep()
            if document.options != self.options:
                self.apply_options(self.options)  # changed while the file was loading

    def on_file_open_failed(self, message: FileOpenFailed) -> None:
        if message.generation != self.service.generation:
            return
        name = visible(os.path.basename(message.path))  # newlines and control characters shown
        self.refused_path = message.path if message.too_large else None
        reason = f"{message.reason}; press o to open it anyway" if message.too_large else message.reason
        self.problem = f"{name}: {reason}"
        dropped = self.document is not None
        self.document = None
        if dropped:
            heap.release()  # the old file's cycles must be freed, not frozen
        self.notify(reason, title=name, severity="warning", markup=False)

    def on_chunks_ready(self, message: ChunksReady) -> None:
        self.service.chunking_finished(message.run)
        document = self.document
        if document is None or message.generation != self.service.generation:
            return
        self.document = Document(document.file, message.chunking, document.generation)

    def on_chunking_failed(self, message: ChunkingFailed) -> None:
        self.service.chunking_finished(message.run)
        if message.generation == self.service.generation:
            self.notify(message.reason, title="Chunking failed", severity="error", markup=False)
            if self.document is not None and not self.service.busy:
                # Nothing more is coming: the parameters in force are those of the chunks shown.
                self.options = self.document.options

    def on_options_changed(self, message: OptionsChanged) -> None:
        self.apply_options(message.options)

    def on_setting_chosen(self, message: SettingChosen) -> None:
        self.apply_options(message.options)
        if message.save:
            self.action_save_settings(message.label)

    def on_query_sources_chosen(self, message: QuerySourcesChosen) -> None:
        self.query_sources = message.sources

    def apply_options(self, options: ChunkOptions) -> None:
        """New parameters: re-chunk the open file (re-parse only for a new language or strategy)."""
        self.options = options
        document = self.document
        if document is None or document.file.partial:
            return  # applied when the file has loaded
        if needs_reparse(document.file.parse_options, options):
            self.service.reparse(document.file, options)
        else:
            self.service.rechunk(document.file, options)

    def on_unit_chosen(self, message: UnitChosen) -> None:
        self.choose_unit(message.unit)

    def choose_unit(self, unit: str) -> None:
        """Size chunks in ``unit``: the max size becomes about as much text in it (by the ratio
        measured on the open file, else code's typical one) and tokens count with a tokenizer
        (the first offline encoding unless one is set); the notice says which."""
        if unit == self.options.size_unit:
            return
        document = self.document
        source = document.source if document is not None else None
        try:
            options, converted = options_in_unit(self.options, unit, source)  # type: ignore[arg-type]
        except ValueError as error:
            self.notify(str(error), title="Invalid parameter", severity="error", markup=False)
            return
        self.notify(unit_notice(self.options, options, converted, visible(os.path.basename(document.path))
                                if document is not None else None), title="Size unit", markup=False)
        self.apply_options(options)

    def set_option(self, **changes: object) -> None:
        try:
            self.apply_options(ChunkOptions.build(self.options, **changes))
        except ValueError as error:
            self.notify(str(error), severity="error", markup=False)

    # -- watching the directory -------------------------------------------------------------
    @work(group="watch", exclusive=True, exit_on_error=False, description="watch the explored directory")
    async def watch_files(self) -> None:
        try:
            await watch_directory(self.root, self.post_message)
        except Exception as error:  # e.g. the inotify watch limit: the explorer still works, unwatched
            self.notify(f"Not watching for changes: {error}", severity="warning", markup=False)

    def on_watch_started(self, message: WatchStarted) -> None:
        self.watch_started = True

    def on_files_changed_on_disk(self, message: FilesChangedOnDisk) -> None:
        document = self.document
        open_path = document.path if document is not None else self.wanted_path
        if open_path is not None and message.touches(open_path):
            if os.path.isfile(open_path):
                self.open_file(open_path, reloaded=document is not None)
            elif document is not None and not os.path.isdir(os.path.dirname(open_path)):
                # Its folder is gone: nothing of it is left to show.
                self.problem = f"{visible(os.path.basename(open_path))}: its folder was removed"
                self.document = None
                heap.release()
            elif document is not None and not self.problem:
                self.problem = f"{os.path.basename(open_path)} was deleted"
                self.notify(
                    f"{os.path.basename(open_path)} was deleted on disk; still showing its last content",
                    title="File deleted", severity="warning", markup=False,
                )
        folders = message.folders_to_list(self.root)
        if message.ignore_rules_changed():
            self.explore.refresh_ignore_rules()
        elif folders:
            self.explore.refresh_folders(folders)

    # -- actions ------------------------------------------------------------------------------
    def action_size_step(self, direction: int) -> None:
        """Move the max size to the next multiple of the unit's step, up or down (steps.py)."""
        size = stepped_size(self.options.max_size, self.options.size_unit, direction)
        if size != self.options.max_size:
            self.set_option(max_size=size)

    def action_overlap_step(self, direction: int) -> None:
        overlap = max(0, self.options.overlap_lines + direction)
        if overlap != self.options.overlap_lines:
            self.set_option(overlap_lines=overlap)

    def action_next_chunk(self) -> None:
        self.explore.step_chunk(1)

    def action_previous_chunk(self) -> None:
        self.explore.step_chunk(-1)

    def action_teach(self) -> None:
        open_teach(self)

    def action_teach_sample(self, name: str) -> None:
        open_teach(self, name)

    def action_compare(self) -> None:
        open_compare(self)

    def action_sweep(self) -> None:
        open_sweep(self)

    def action_queries(self) -> None:
        open_queries(self)

    def action_help(self) -> None:
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen(self.screen))

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        # Textual's Screenshot writes to ~/Downloads and says nothing when that is missing; its
        # Keys panel lists Textual's names for keys: the explorer's help lists the screen's own.
        for command in super().get_system_commands(screen):
            if command.title not in ("Screenshot", "Keys"):
                yield command
        yield SystemCommand("Help", "The keys of this screen and what its marks mean (?)", self.action_help)
        where = "downloaded by your browser" if self.serving is not None else \
            "in ~/Downloads, or where the explorer was started"
        yield SystemCommand("Screenshot", f"Save an SVG picture of the screen ({where})",
                            lambda: self.set_timer(0.1, self.action_save_screenshot))

    def action_save_screenshot(self) -> None:
        if self.serving is not None:
            # Nothing is written on the server: the picture is sent to the visitor's browser.
            name = f"{'-'.join(self.title.lower().split()) or 'screenshot'}.svg"
            self.deliver_text(io.StringIO(self.export_screenshot()), save_filename=name, mime_type="image/svg+xml")
            self.notify(f"Sent {name} to your browser", title="Screenshot", markup=False)
            return
        try:
            path = save_screenshot(self.export_screenshot(), self.title, self.start_dir)
        except OSError as error:
            self.notify(f"Could not write the screenshot: {error.strerror or error}", title="Screenshot not saved",
                        severity="error", markup=False)
            return
        self.notify(f"Saved to {path}", title="Screenshot", markup=False)

    async def action_quit(self) -> None:
        self.exit(0)

    def action_open_anyway(self) -> None:
        if self.refused_path is None:
            self.notify("No file was refused for its size", severity="information")
            return
        path, self.refused_path = self.refused_path, None
        if self.read_refusal(path) is None:
            self.service.open(path, self.options, anyway=True)

    def action_reload(self) -> None:
        if self.document is not None:
            self.open_file(self.document.path, reloaded=True)

    def action_toggle_anonymous(self) -> None:
        self.explore.toggle_anonymous_nodes()

    def action_save_settings(self, label: str = "") -> None:
        """Write the parameters in force to the settings file; the notice says which and where."""
        from explorer.workspace.settings import save_settings

        target = self.settings_path
        if self.serving is not None:
            # Never the served repository's own file: the teacher's folder, or nowhere.
            target = self.serving.settings_target()
            if target is None:
                self.notify("This served explorer writes nothing (the server was started without --write-to)",
                            title="Settings not saved", severity="warning", markup=False)
                return
        try:
            path = save_settings(self.root, self.options, path=target)
        except Exception as error:  # unwritable, malformed existing file: say so, keep going
            self.notify(str(error), title="Settings not saved", severity="error", markup=False)
            return
        what = f"{label}: " if label else ""
        self.notify(f"Wrote {what}{options_text(self.options)} to {visible(path)}", title="Settings saved",
                    markup=False, timeout=8)

    # -- export (export/ holds the dialogs, the workers and the notices) ----------------------------
    def action_export(self) -> None:
        self.exports.export_file()

    def action_export_tree(self) -> None:
        self.exports.export_tree()

    def on_export_progressed(self, message: ExportProgressed) -> None:
        self.exports.progressed(message)

    def on_export_finished(self, message: ExportFinished) -> None:
        self.exports.finished(message)

    def on_export_failed(self, message: ExportFailed) -> None:
        self.exports.failed(message)


def unit_notice(old: ChunkOptions, new: ChunkOptions, converted: SizeInUnit, file: str | None) -> str:
    """What a unit change did: ``max size 1,500 nws -> 480 tokens (0.32 tokens per nws, measured
    on test.py)``, and the tokenizer tokens are counted with when it was chosen for the user."""
    how = f"{converted.ratio:.2g} {new.size_unit} per {old.size_unit}, " + (
        f"measured on {file}" if converted.measured and file else
        "typical of code" + (f" ({file} holds less than one chunk)" if file else ""))
    text = f"max size {old.max_size:,} {old.size_unit} → {new.max_size:,} {new.size_unit} ({how})"
    if new.tokenizer != old.tokenizer:
        text += (f"; tokens counted with {new.tokenizer} (the tokenizer field takes your model's "
                 "tokenizer.json)")
    return text


def run(
    path: str | None = None,
    options: ChunkOptions | None = None,
    *,
    walk: WalkOptions | None = None,
    settings_path: str | None = None,
    teach: str | None = None,
    serving: Serving | None = None,
    open_path: str | None = None,
) -> int:
    """Open the explorer on a directory, or on a file inside its directory. Returns the exit status:
    non-zero after a crash (Textual prints the error once the terminal is restored)."""
    app = ChunkExplorerApp(path, options, walk=walk, settings_path=settings_path, teach=teach, serving=serving,
                           open_path=open_path)
    result = app.run()
    return app.return_code or result or 0
