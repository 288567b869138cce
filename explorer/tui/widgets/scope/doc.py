"""An entity's signature and docstring, shown on demand over the explorer."""

from __future__ import annotations

from rich.style import Style
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from explorer.engine.structure import Entity
from explorer.engine.text import split_lines

from ..text_pane import Line, TextPane

TITLE = Style(bold=True)
MUTED = Style(dim=True)


def doc_lines(entity: Entity) -> list[Line]:
    lines: list[Line] = [(f"{entity.type} {entity.name}  (lines {entity.line_start + 1}-{entity.line_end + 1})", TITLE)]
    lines.extend((line, MUTED) for line in split_lines(entity.signature or ""))
    lines.append(("", None))
    if entity.docstring:
        lines.extend((line, None) for line in split_lines(entity.docstring))
    else:
        lines.append(("(no docstring)", MUTED))
    return lines


class EntityDocScreen(ModalScreen[None]):
    """Signature and docstring of one entity; any of escape, d or q closes it."""

    BINDINGS = [Binding("escape,d,q", "dismiss", "Close", id="doc.close")]

    DEFAULT_CSS = """
    EntityDocScreen { align: center middle; }
    EntityDocScreen > Vertical {
        width: 90; max-width: 90%; height: 24; max-height: 80%;
        border: round $accent; background: $surface; padding: 0 1;
    }
    EntityDocScreen TextPane { height: 1fr; }
    EntityDocScreen .hint { color: $text-muted; height: 1; }
    """

    def __init__(self, entity: Entity):
        super().__init__()
        self.entity = entity

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = "Docstring"
            yield TextPane(id="doc-text")
            yield Static("escape closes", classes="hint")

    def on_mount(self) -> None:
        self.query_one(TextPane).set_lines(doc_lines(self.entity))
        self.query_one(TextPane).focus()
