"""A list of rows with a header and a cursor, drawn line by line (the repository view, the file finder).

A Line-API widget: only the rows on screen are rendered, so a scan of 2,000 files with
tens of thousands of problems scrolls and re-sorts without building a widget per row.
Subclasses say how many rows there are and how one looks.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.segment import Segment
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.geometry import Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from .line_cache import LineCache
from .strips import text_strip


class RowList(ScrollView, can_focus=True):
    """Rows under a header; the cursor row is highlighted and announced when the user moves it."""

    BINDING_GROUP_TITLE = "List"

    BINDINGS = [
        Binding("up,k", "move(-1)", "Up", show=False),
        Binding("down,j", "move(1)", "Down", show=False),
        Binding("pageup,ctrl+b", "page(-1)", "Page up", show=False),
        Binding("pagedown,ctrl+f", "page(1)", "Page down", show=False),
        Binding("home,g", "first", "First", show=False),
        Binding("end,G", "last", "Last", show=False),
    ]

    COMPONENT_CLASSES = {"row-list--header", "row-list--cursor", "row-list--empty"}

    DEFAULT_CSS = """
    RowList {
        & > .row-list--header { color: $text-muted; text-style: bold; }
        & > .row-list--cursor { background: $boost; text-style: bold; }
        & > .row-list--empty { color: $text-muted; text-style: italic; }
        &:focus > .row-list--cursor { background: $block-cursor-background; color: $block-cursor-foreground; }
    }
    """

    @dataclass
    class CursorMoved(Message):
        """The user moved the cursor of ``row_list`` to ``index``."""

        row_list: RowList
        index: int

        @property
        def control(self) -> RowList:
            """The list whose cursor moved (lets handlers pick one list with ``@on``)."""
            return self.row_list

    def __init__(self, *, id: str | None = None):
        super().__init__(id=id)
        self.cursor = 0
        self.count = 0
        self.empty_message = ""
        #: Rows by (index, under the cursor, width).
        self.lines = LineCache[tuple[int, bool, int], Strip](self, 256)

    # -- for subclasses -----------------------------------------------------------------------
    def header(self) -> str:
        return ""

    def row(self, index: int) -> Text:
        raise NotImplementedError

    # -- state in ---------------------------------------------------------------------------------
    def set_count(self, count: int, cursor: int | None = None) -> None:
        """The rows changed: ``count`` of them, the cursor on ``cursor`` (else kept in range)."""
        self.count = count
        self.cursor = max(0, min(self.cursor if cursor is None else cursor, count - 1))
        self.lines.clear()
        self.virtual_size = Size(self.size.width, count + 1)
        self._scroll_cursor_visible()
        self.refresh()

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self.lines.restyle()

    # -- rendering -----------------------------------------------------------------------------
    def render_line(self, y: int) -> Strip:
        width = self.size.width
        base = self.lines.base
        if y == 0:
            style = self.get_component_rich_style("row-list--header")
            return Strip([Segment(self.header(), style)]).crop_extend(0, width, base)
        if self.count == 0:
            if y == 1 and self.empty_message:
                style = self.get_component_rich_style("row-list--empty")
                return Strip([Segment(f" {self.empty_message}", style)]).crop_extend(0, width, base)
            return Strip.blank(width, base)
        index = int(self.scroll_y) + y - 1
        if index >= self.count:
            return Strip.blank(width, base)
        selected = index == self.cursor
        return self.lines.get((index, selected, width), lambda: self._render_row(index, selected, width))

    def _render_row(self, index: int, selected: bool, width: int) -> Strip:
        base = self.get_component_rich_style("row-list--cursor") if selected else self.lines.base
        text = self.row(index)
        text.no_wrap = True
        text.end = ""
        text.truncate(width, overflow="ellipsis", pad=True)
        return text_strip(text, self.app.console, base)

    # -- input ---------------------------------------------------------------------------------
    def move_to(self, index: int, *, announce: bool = True) -> None:
        if self.count == 0:
            return
        index = max(0, min(index, self.count - 1))
        if index != self.cursor:
            self.lines.discard((self.cursor, True, self.size.width))
            self.cursor = index
            self.lines.discard((index, False, self.size.width))
            self._scroll_cursor_visible()
            self.refresh()
        if announce:
            self.post_message(self.CursorMoved(self, index))

    def show_cursor(self) -> None:
        """Scroll the cursor's row into view (after the list was shown again, say)."""
        self._scroll_cursor_visible()
        self.refresh()

    def _scroll_cursor_visible(self) -> None:
        height = self.scrollable_content_region.height
        top = int(self.scroll_y)
        if self.cursor < top:
            self.scroll_to(y=self.cursor, animate=False, immediate=True)
        elif height > 1 and self.cursor > top + height - 2:
            self.scroll_to(y=self.cursor - height + 2, animate=False, immediate=True)

    def action_move(self, delta: int) -> None:
        self.move_to(self.cursor + delta)

    def action_page(self, direction: int) -> None:
        self.move_to(self.cursor + direction * max(1, self.scrollable_content_region.height - 2))

    def action_first(self) -> None:
        self.move_to(0)

    def action_last(self) -> None:
        self.move_to(self.count - 1)

    def on_focus(self) -> None:
        self.lines.clear()
        self.refresh()

    def on_blur(self) -> None:
        self.lines.clear()
        self.refresh()

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None or offset.y == 0:
            return
        index = int(self.scroll_y) + offset.y - 1
        if 0 <= index < self.count:
            self.move_to(index)
