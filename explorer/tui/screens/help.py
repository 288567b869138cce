"""Help: every key binding of the explorer, by where it works."""

from __future__ import annotations

from rich.style import Style
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.keys import key_to_character
from textual.screen import ModalScreen
from textual.widgets import Static

from ..widgets.text_pane import Line, TextPane

TITLE = Style(bold=True, underline=True)
KEY = Style(bold=True)

ABOUT = [
    "Each chunk has its own background; the gutter shows line numbers, chunk numbers at the",
    "first line of each chunk, ┆ on overlap lines (repeated at the head of the next chunk) and",
    "✂ where a cut had to fall inside a token. Line numbers are 1-based; AST positions are",
    "0-based [row, column] as in the tree-sitter playground (columns count characters).",
    "Stats: over = chunks above the max size; tiny = chunks under 50 non-whitespace characters.",
    "Moving in any pane moves the others to the same place. The command palette (ctrl+p)",
    "offers every action as \"group: action\".",
]

_KEY_NAMES = {
    "plus": "+", "minus": "-", "equals_sign": "=", "greater_than_sign": ">", "less_than_sign": "<",
    "question_mark": "?", "dollar_sign": "$", "space": "space",
}


def key_text(keys: str) -> str:
    return " ".join(key_name(k.strip()) for k in keys.split(","))


def key_name(key: str) -> str:
    """How a key is written for people: ``]`` for ``right_square_bracket``, ``ctrl+p`` as is."""
    if key in _KEY_NAMES:
        return _KEY_NAMES[key]
    character = key_to_character(key)
    return character if character and character.isprintable() and not character.isspace() else key


def binding_lines(title: str, bindings: list[BindingType]) -> list[Line]:
    lines: list[Line] = [(title, TITLE)]
    for binding in bindings:
        if not isinstance(binding, Binding):
            binding = Binding(*binding)
        description = binding.tooltip or binding.description or binding.action
        lines.append((f"  {key_text(binding.key):<22} {description}", None))
    lines.append(("", None))
    return lines


def help_lines(app: App) -> list[Line]:
    from ..widgets.ast.tree import AstTree
    from ..widgets.chunks.list import ChunkList
    from ..widgets.files.tree import FileTree
    from ..widgets.scope.tree import ScopeTree
    from ..widgets.source.view import SourceView
    from ..widgets.text_pane import TextPane
    from .explore import ExploreScreen

    lines: list[Line] = [(text, None) for text in [*ABOUT, ""]]
    lines += binding_lines("Everywhere", list(type(app).BINDINGS) + [Binding("ctrl+p", "command_palette", "Command palette")])
    lines += binding_lines("Panes", list(ExploreScreen.BINDINGS) + [Binding("tab,shift+tab", "focus_next", "Next / previous pane")])
    lines += binding_lines("Source", list(SourceView.BINDINGS) + [Binding("click", "", "Put the cursor there")])
    lines += binding_lines("Chunk list", list(ChunkList.BINDINGS))
    lines += binding_lines("AST", list(AstTree.BINDINGS) + [Binding("enter", "", "Expand / collapse, or load more")])
    lines += binding_lines("Scope", list(ScopeTree.BINDINGS))
    lines += binding_lines("Files", list(FileTree.BINDINGS) + [Binding("enter", "", "Open the file")])
    from ..widgets.files.pane import FilesPane

    lines += binding_lines("File finder (/)", [Binding("a,b,c", "", "Type letters of the name, in order (fuzzy)"),
                                               *FilesPane.BINDINGS])
    lines += binding_lines("Text panes (chunk detail)", list(TextPane.BINDINGS))
    from ..compare.screen import CompareScreen
    from ..sweep.screen import SweepScreen
    from ..teach.screen import TeachScreen

    lines += binding_lines("Teach mode (t)", list(TeachScreen.BINDINGS))
    lines += binding_lines("Compare view (c)", list(CompareScreen.BINDINGS))
    lines += binding_lines("Sweep (palette: sweep)", list(SweepScreen.BINDINGS))
    from ..queries.screen import QueriesScreen

    lines += binding_lines("Queries view (r, or v in the sweep)", list(QueriesScreen.BINDINGS))
    from ..repository.screen import RepositoryScreen

    lines += binding_lines("Repository view (R)", list(RepositoryScreen.BINDINGS)
                           + [Binding("tab", "", "Switch between the file list and the problem list")])
    return lines


class HelpScreen(ModalScreen[None]):
    """All bindings; escape, q or ? closes."""

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

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = "Chunk Explorer: keys"
            yield TextPane(id="help-text")
            yield Static("escape closes · ↑↓ scroll", classes="hint")

    def on_mount(self) -> None:
        pane = self.query_one(TextPane)
        pane.set_lines(help_lines(self.app))
        pane.focus()
