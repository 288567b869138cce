"""A read-only pane of text lines (chunk text, docstrings), rendered line by line.

Lines are file content: they go through ``display_line`` and into ``Text``
objects, never through markup, and only the visible ones are rendered.
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.binding import Binding
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip

from explorer.engine.text import display_line

from .line_cache import LineCache
from .strips import text_strip

TAB_SIZE = 4
#: Characters of a line shown (a chunk of minified code is one long line: show all of it).
MAX_LINE_CHARS = 20_000

Line = tuple[str, Style | None]


class TextPane(ScrollView, can_focus=True):
    """Scrollable plain text; each line may carry a style."""

    BINDING_GROUP_TITLE = "Text"

    BINDINGS = [
        Binding("up,k", "scroll_up", "Up", show=False, id="text.scroll_up"),
        Binding("down,j", "scroll_down", "Down", show=False, id="text.scroll_down"),
        Binding("left,h", "scroll_left", "Left", show=False, id="text.scroll_left"),
        Binding("right,l", "scroll_right", "Right", show=False, id="text.scroll_right"),
        Binding("home,g", "scroll_home", "Top", show=False, id="text.scroll_home"),
        Binding("end,G", "scroll_end", "Bottom", show=False, id="text.scroll_end"),
        Binding("pageup,ctrl+b", "page_up", "Page up", show=False, id="text.page_up"),
        Binding("pagedown,ctrl+f,space", "page_down", "Page down", show=False, id="text.page_down"),
    ]

    def __init__(self, *, id: str | None = None, classes: str | None = None):
        super().__init__(id=id, classes=classes)
        self.lines: list[Line] = []
        self.cache = LineCache[int, Strip](self, 256)

    def set_lines(self, lines: list[Line]) -> None:
        self.lines = lines
        self.cache.clear()
        width = max((min(len(text), MAX_LINE_CHARS) for text, _ in lines), default=0)
        self.virtual_size = Size(width + 2, len(lines))
        self.scroll_to(0, 0, animate=False, immediate=True)
        self.refresh()

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self.cache.restyle()

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        index = scroll_y + y
        width = self.size.width
        base = self.cache.base
        if index >= len(self.lines):
            return Strip.blank(width, base)
        strip = self.cache.get(index, lambda: self.line_strip(index, base))
        return strip.crop_extend(scroll_x, scroll_x + width, base)

    def line_strip(self, index: int, base: Style) -> Strip:
        """Line ``index`` drawn in full (cropped to the view by the caller)."""
        raw, style = self.lines[index]
        shown, _ = display_line(raw[:MAX_LINE_CHARS], TAB_SIZE)
        text = Text(shown, style=base + style if style else base, end="", no_wrap=True)
        return text_strip(text, self.app.console, base)
