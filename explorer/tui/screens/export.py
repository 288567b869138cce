"""Export dialogs: choose where to write (Enter accepts the proposal), and progress for a whole tree."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, ProgressBar, Static


class ExportScreen(ModalScreen[str | None]):
    """Asks for the file to write; dismisses with the path, or None when cancelled."""

    BINDINGS = [Binding("escape", "cancel", "Cancel", id="export.cancel")]

    DEFAULT_CSS = """
    ExportScreen { align: center middle; }
    ExportScreen > Vertical {
        width: 90; max-width: 95%; height: auto;
        border: round $accent; background: $surface; padding: 1 2;
    }
    ExportScreen Input { margin: 1 0; }
    ExportScreen .hint { color: $text-muted; }
    ExportScreen .hint.-error { color: $error; }
    """

    def __init__(self, title: str, description: str, proposal: str):
        super().__init__()
        self.title_text = title
        self.description = description
        self.proposal = proposal

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = self.title_text
            yield Label(self.description, markup=False)
            yield Input(self.proposal, id="export-path", select_on_focus=False)
            yield Static("Enter writes the file (atomically) · Escape cancels", classes="hint")

    def on_mount(self) -> None:
        field = self.query_one(Input)
        field.focus()
        field.cursor_position = len(field.value)

    @on(Input.Submitted)
    def _accept(self, event: Input.Submitted) -> None:
        event.stop()
        path = event.value.strip()
        if not path:  # say why nothing happens rather than closing as if it had been written
            self.query_one(".hint", Static).update("Type the path of the file to write, or press Escape to cancel")
            self.query_one(".hint", Static).add_class("-error")
            return
        self.dismiss(path)

    def action_cancel(self) -> None:
        self.dismiss(None)


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

    def __init__(self, target: str):
        super().__init__()
        self.target = target

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = "Exporting the tree"
            yield Label(f"Chunking every file into {self.target}", markup=False)
            yield ProgressBar(total=None, show_eta=False, id="export-progress")
            yield Static("Escape cancels", classes="hint")

    def advance(self, done: int, total: int) -> None:
        self.query_one(ProgressBar).update(total=max(1, total), progress=done)

    def action_cancel(self) -> None:
        for worker in self.app.workers:
            if worker.group == "export":
                worker.cancel()
        self.dismiss(None)
