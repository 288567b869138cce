"""Help: the keys of the screen it was opened from, by where they work, and what the screen shows.

Each screen lists exactly its own keys: its bindings, those of the widgets in it (a
section per kind of pane, in the order they appear, titled as the pane is) and the few
that work everywhere. A screen says what its marks and colours mean in its ``HELP``
text. The text wraps to the dialog's width, whatever the terminal's: a long line breaks
between words and goes on under where its text starts.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass

from rich.style import Style
from textual import events
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
#: Width of the key column; below twice this the description goes on the line under the keys.
KEY_COLUMN = 22

#: Keys a widget answers without a binding of its own (mouse, enter on a tree), by widget class name.
EXTRA_KEYS: dict[str, list[Binding]] = {
    "SourceView": [Binding("click", "", "Put the cursor there")],
    "AstTree": [Binding("enter", "", "Expand / collapse, or load more")],
    "FileTree": [Binding("enter", "", "Open the file")],
    "QueryTable": [Binding("pageup,pagedown", "", "A page of queries up / down")],
    "SweepTable": [Binding("pageup,pagedown", "", "A page of settings up / down")],
}


def key_text(keys: str) -> str:
    return " ".join(key_name(k.strip()) for k in keys.split(","))


@dataclass(frozen=True, slots=True)
class HelpEntry:
    """One piece of the help: a title, a line of a screen's text, or a key and what it does."""

    text: str
    keys: str = ""
    style: Style | None = None


def binding_entries(title: str, bindings: list[BindingType]) -> list[HelpEntry]:
    entries = [HelpEntry(title, style=TITLE)]
    for binding in bindings:
        if not isinstance(binding, Binding):
            binding = Binding(*binding)
        entries.append(HelpEntry(binding.tooltip or binding.description or binding.action, key_text(binding.key)))
    entries.append(HelpEntry(""))
    return entries


def pane_title(widget: type[Widget]) -> str:
    """A pane's section title as the user sees the pane (its ``BINDING_GROUP_TITLE``)."""
    for cls in widget.__mro__:
        title = vars(cls).get("BINDING_GROUP_TITLE")
        if title:
            return str(title)
    return "Other keys"


def pane_keys(screen: Screen) -> dict[str, str]:
    """The keys that focus a pane, by the pane's id (the screen's ``focus_pane('id')`` bindings)."""
    keys: dict[str, str] = {}
    for binding in type(screen).BINDINGS:
        if isinstance(binding, Binding) and binding.action.startswith("focus_pane("):
            keys[binding.action[len("focus_pane("):-1].strip("'\"")] = key_text(binding.key)
    return keys


def widget_sections(screen: Screen) -> list[tuple[str, list[BindingType]]]:
    """One section per kind of focusable widget in ``screen`` that has keys, in screen order,
    titled as the pane is, with the key that focuses it: ``Chunk list (5)``."""
    sections: dict[str, tuple[str, list[BindingType]]] = {}
    focus_keys = pane_keys(screen)
    for widget in screen.query("*"):
        kind = type(widget)
        # A pane's keys, and a container's that work while a pane inside it has the focus.
        if not (widget.can_focus or widget.can_focus_children) or kind.__name__ in sections:
            continue
        bindings = _own_bindings(kind)
        bindings += EXTRA_KEYS.get(kind.__name__, [])
        if bindings:
            title = pane_title(kind)
            key = next((focus_keys[node.id] for node in widget.ancestors_with_self if node.id in focus_keys), None)
            sections[kind.__name__] = (f"{title} ({key})" if key else title, bindings)
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


#: Keys every screen answers (listed under "Everywhere").
EVERYWHERE = [
    Binding("ctrl+p", "command_palette", "Command palette: the actions of this screen, and files by name"),
    Binding("tab,shift+tab", "focus_next", "Next / previous pane"),
]


def paragraphs(text: str) -> list[str]:
    """A screen's ``HELP`` as lines to wrap: a line that goes on with the next (it ends
    without a stop, and the next is not indented) is joined to it, so the text reflows
    at any width; an indented line (a table of marks) keeps its own line."""
    lines: list[str] = []
    for line in text.strip("\n").splitlines():
        joins = (lines and line.strip() and not line.startswith(" ") and lines[-1].strip()
                 and not lines[-1].startswith(" ") and lines[-1].rstrip()[-1] not in ".:!?")
        if joins:
            lines[-1] = f"{lines[-1].rstrip()} {line.strip()}"
        else:
            lines.append(line)
    return lines


def help_entries(app: App, screen: Screen) -> list[HelpEntry]:
    """Everything the help shows for ``screen``, before wrapping."""
    about = paragraphs(type(screen).HELP or "")
    entries = [HelpEntry(text) for text in [*about, ""]] if about else []
    own = list(type(screen).BINDINGS)
    if own:
        entries += binding_entries(f"Keys of {screen.BINDING_GROUP_TITLE or 'this screen'}", own)
    for name, bindings in widget_sections(screen):
        entries += binding_entries(name, bindings)
    entries += binding_entries("Everywhere", [*type(app).BINDINGS, *EVERYWHERE])
    return entries


def _wrapped(text: str, width: int, hanging: str | None = None) -> list[str]:
    """``text`` broken between words to ``width`` cells; the lines after the first start
    under its first word (or at ``hanging``)."""
    if len(text) <= width or not text.strip():
        return [text]
    lead = text[: len(text) - len(text.lstrip(" "))]
    return textwrap.wrap(text.lstrip(" "), width=max(10, width), initial_indent=lead,
                         subsequent_indent=lead if hanging is None else hanging,
                         break_long_words=True, break_on_hyphens=False) or [text]


def help_lines(entries: list[HelpEntry], width: int) -> list[Line]:
    """The entries as lines of at most ``width`` cells."""
    lines: list[Line] = []
    column = width >= 2 * (KEY_COLUMN + 3)
    for entry in entries:
        if not entry.keys:
            lines += [(line, entry.style) for line in _wrapped(entry.text, width)]
        elif column and len(entry.keys) <= KEY_COLUMN:
            head = f"  {entry.keys:<{KEY_COLUMN}} {entry.text}"
            lines += [(line, None) for line in _wrapped(head, width, " " * (KEY_COLUMN + 3))]
        else:  # keys too long for the column, or a narrow dialog: the description under them
            lines.append((f"  {entry.keys}", KEY))
            lines += [(line, None) for line in _wrapped(f"      {entry.text}", width)]
    return lines


class HelpText(TextPane):
    """The help, wrapped to the pane's width again whenever it changes."""

    BINDING_GROUP_TITLE = "Help"

    def __init__(self, entries: list[HelpEntry], *, id: str | None = None):
        super().__init__(id=id)
        self.entries = entries
        self._width = 0

    def on_resize(self, event: events.Resize) -> None:
        width = max(10, event.size.width - 1)  # one cell for the scrollbar
        if width != self._width:
            self._width = width
            self.set_lines(help_lines(self.entries, width))


class HelpScreen(ModalScreen[None]):
    """The keys of one screen; escape, q or ? closes."""

    BINDING_GROUP_TITLE = "help"
    BINDINGS = [Binding("escape,q,question_mark", "dismiss", "Close help", id="help.close")]

    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > Vertical {
        width: 112; max-width: 95%; height: 90%;
        border: round $accent; background: $surface; padding: 0 1;
    }
    HelpScreen HelpText { height: 1fr; overflow-x: hidden; }
    HelpScreen .hint { color: $text-muted; height: 1; }
    """

    def __init__(self, screen: Screen) -> None:
        super().__init__()
        #: The screen whose keys are listed.
        self.about = screen

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = f"Chunk Explorer: keys of {self.about.BINDING_GROUP_TITLE or 'this screen'}"
            yield HelpText(help_entries(self.app, self.about), id="help-text")
            yield Static("escape closes · ↑↓ scroll", classes="hint")

    def on_mount(self) -> None:
        self.query_one(HelpText).focus()
