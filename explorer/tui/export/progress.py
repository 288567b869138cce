"""The progress of a whole-tree export, over the screen it was started from."""

from __future__ import annotations

from collections.abc import Callable

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, ProgressBar, Static


class ExportProgressScreen(ModalScreen[None]):
    """Progress of a whole-tree export; Escape cancels it (nothing is written then)."""

    BINDINGS = [Binding("escape", "cancel", "Cancel export", id="export.cancel_tree")]

    DEFAULT_CSS = """
    ExportProgressScreen { align: center middle; }
    ExportProgressScreen > Vertical {
        width: 70; max-width: 95%; height: auto;
        border: round $accent; background: $surface; padding: 1 2;
    }
    ExportProgressScreen ProgressBar { margin: 1 0; }
    ExportProgressScreen .hint { color: $text-muted; }
    """

    def __init__(self, target: str, cancel: Callable[[], object]):
        """``cancel`` stops the export (its owner runs it)."""
        super().__init__()
        self.target = target
        self.cancel = cancel

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = "Exporting the tree"
            yield Label(f"Chunking every file into {self.target}", markup=False)
            yield ProgressBar(total=None, show_eta=False, id="export-progress")
            yield Static("Escape cancels", classes="hint")

    def advance(self, done: int, total: int) -> None:
        self.query_one(ProgressBar).update(total=max(1, total), progress=done)

    def action_cancel(self) -> None:
        self.cancel()
        self.dismiss(None)
