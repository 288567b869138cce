"""The export dialog: choose where to write (Enter accepts the proposal).

The dialog never accepts a file being explored (the caller says which, ``refuse``)
and asks before replacing any other existing file: Enter again on the same path.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, Static


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
    ExportScreen #export-problem { color: $text-warning; height: auto; display: none; }
    ExportScreen #export-problem.-refused { color: $text-error; }
    """

    def __init__(
        self, title: str, description: str, proposal: str, *,
        resolve: Callable[[str], str] = os.path.abspath,
        refuse: Callable[[str], str | None] = lambda target: None,
    ):
        """``resolve`` turns what is typed into the absolute target; ``refuse`` says why
        a target must not be written (a file being explored), or None."""
        super().__init__()
        self.title_text = title
        self.description = description
        self.proposal = proposal
        self.resolve = resolve
        self.refuse = refuse
        #: The existing file the user was asked about: Enter on it again replaces it.
        self.confirmed: str | None = None

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = self.title_text
            yield Label(self.description, markup=False)
            yield Input(self.proposal, id="export-path", select_on_focus=False)
            yield Static(id="export-problem")
            yield Static("Enter writes the file (atomically) · Escape cancels", classes="hint")

    def on_mount(self) -> None:
        field = self.query_one(Input)
        field.focus()
        field.cursor_position = len(field.value)

    @on(Input.Submitted)
    def _accept(self, event: Input.Submitted) -> None:
        event.stop()
        typed = event.value.strip()
        if not typed:
            self._problem("Type the path of the file to write (Escape cancels)")
            return
        target = self.resolve(typed)
        refusal = self.refuse(target)
        if refusal is not None:
            self._problem(refusal, refused=True)
            return
        if os.path.lexists(target) and target != self.confirmed:
            self.confirmed = target
            self._problem(f"{target} exists: Enter again replaces it")
            return
        self.dismiss(typed)

    @on(Input.Changed)
    def _edited(self, event: Input.Changed) -> None:
        if self.confirmed is not None and self.resolve(event.value.strip()) != self.confirmed:
            self.confirmed = None
            self._problem("")

    def _problem(self, text: str, *, refused: bool = False) -> None:
        problem = self.query_one("#export-problem", Static)
        problem.update(Text(text))
        problem.set_class(refused, "-refused")
        problem.display = bool(text)

    def action_cancel(self) -> None:
        self.dismiss(None)
