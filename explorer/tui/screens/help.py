"""Help: the keys of the screen it was opened from, by where they work, and what the screen shows.

Each screen lists exactly its own keys: its bindings, those of the widgets in it (a
section per kind of pane, in the order they appear) and the few that work everywhere.
A screen says what its marks and colours mean in its ``HELP`` text.
"""

from __future__ import annotations

from rich.style import Style
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen, Screen
from textual.widget import Widget
from textual.widgets import Static

from ..widgets.footer import key_name
from ..widgets.text_pane import Line, TextPane

TITLE = Style(bold=True, underline=True)
KEY = Style(bold=True)

#: Keys a widget answers without a binding of its own (mouse, enter on a tree), by widget class name.
EXTRA_KEYS: dict[str, list[Binding]] = {
    "SourceView": [Binding("click", "", "Put the cursor there")],
    "AstTree": [Binding("enter", "", "Expand / collapse, or load more")],
    "FileTree": [Binding("enter", "", "Open the file")],
    "QueryTable": [Binding("up,down,pageup,pagedown", "", "Move through the queries")],
}

def key_text(keys: str) -> str:
    return " ".join(key_name(k.strip()) for k in keys.split(","))


def binding_lines(title: str, bindings: list[BindingType]) -> list[Line]:
    lines: list[Line] = [(title, TITLE)]
    for binding in bindings:
        if not isinstance(binding, Binding):
            binding = Binding(*binding)
        description = binding.tooltip or binding.description or binding.action
        lines.append((f"  {key_text(binding.key):<22} {description}", None))
    lines.append(("", None))
    return lines


#: Section titles of the explorer's panes, by widget class name.
PANE_TITLES = {
    "FileTree": "Files (1)", "SourceView": "Source (2)", "AstTree": "AST (3)", "ScopeTree": "Scope (4)",
    "ChunkList": "Chunk list (5)", "ChunkDetail": "Chunk text (7)", "TextPane": "Text panes",
    "TraceSourceView": "Source", "OverlaySourceView": "Source", "QueryTable": "Query list",
}


def pane_title(widget: type[Widget]) -> str:
    return PANE_TITLES.get(widget.__name__) or widget.BINDING_GROUP_TITLE or widget.__name__


def widget_sections(screen: Screen) -> list[tuple[str, list[BindingType]]]:
    """One section per kind of focusable widget in ``screen`` that has keys, in screen order."""
    sections: dict[str, tuple[str, list[BindingType]]] = {}
    for widget in screen.query("*"):
        kind = type(widget)
        if not widget.can_focus or kind.__name__ in sections:
            continue
        bindings = _own_bindings(kind)
        bindings += EXTRA_KEYS.get(kind.__name__, [])
        if bindings:
            sections[kind.__name__] = (pane_title(kind), bindings)
    return list(sections.values())


def _own_bindings(kind: type[Widget]) -> list[BindingType]:
    """The bindings a widget class declares itself or takes from the explorer's classes it extends
    (not Textual's: those of a Tree or a DataTable are its usual arrows)."""
    bindings: list[BindingType] = []
    for cls in kind.__mro__:
        if cls.__module__.startswith("explorer.") and "BINDINGS" in vars(cls):
            bindings += [b for b in vars(cls)["BINDINGS"] if not any(_same(b, o) for o in bindings)]
    return bindings


def _same(a: BindingType, b: BindingType) -> bool:
    return isinstance(a, Binding) and isinstance(b, Binding) and a.action == b.action


def help_lines(app: App, screen: Screen) -> list[Line]:
    """Everything the help shows for ``screen``."""
    about = (type(screen).HELP or "").strip("\n").splitlines()
    lines: list[Line] = [(text, None) for text in [*about, ""]] if about else []
    own = list(type(screen).BINDINGS)
    if own:
        lines += binding_lines(f"Keys of {screen.BINDING_GROUP_TITLE or 'this screen'}", own)
    for name, bindings in widget_sections(screen):
        lines += binding_lines(name, bindings)
    lines += binding_lines("Everywhere", list(type(app).BINDINGS) + [
        Binding("ctrl+p", "command_palette", "Command palette: every action, and files by name"),
        Binding("tab,shift+tab", "focus_next", "Next / previous pane"),
    ])
    return lines


class HelpScreen(ModalScreen[None]):
    """The keys of one screen; escape, q or ? closes."""

    BINDINGS = [Binding("escape,q,question_mark", "dismiss", "Close help", id="help.close")]

    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > Vertical {
        width: 112; max-width: 95%; height: 90%;
        border: round $accent; background: $surface; padding: 0 1;
    }
    HelpScreen TextPane { height: 1fr; }
    HelpScreen .hint { color: $text-muted; height: 1; }
    """

    def __init__(self, screen: Screen) -> None:
        super().__init__()
        #: The screen whose keys are listed.
        self.about = screen

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = f"Chunk Explorer: keys of {self.about.BINDING_GROUP_TITLE or 'this screen'}"
            yield TextPane(id="help-text")
            yield Static("escape closes · ↑↓ scroll", classes="hint")

    def on_mount(self) -> None:
        pane = self.query_one(TextPane)
        pane.set_lines(help_lines(self.app, self.about))
        pane.focus()
