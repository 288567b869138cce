"""The source view: syntax-highlighted code with chunk boundaries, as a Line-API widget.

Only the lines on screen are rendered (``render_line``); each rendered line is
cached until something that changes its look changes. File content is only
ever placed in ``Text`` objects after ``display_line`` made it safe, so markup
in a file shows literally and control characters never reach the terminal.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass

from rich.segment import Segment
from rich.style import Style
from rich.syntax import PygmentsSyntaxTheme
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.color import Color
from textual.geometry import Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from explorer.engine.regions import region_marks
from explorer.engine.text import display_line
from explorer.terminal_text import visible

from ...document.lexer import lexer_for
from ...document.model import Chunking, Document
from ..line_cache import LineCache
from ..strips import text_strip
from .highlight import LineHighlighter
from .paint import StyleMixer, paint_line
from .palette import ChunkPalette

TAB_SIZE = 4
#: Characters of a line shown at a time (minified code must not slow the view): a longer
#: line shows a window of them, which follows the cursor along the line.
MAX_LINE_CHARS = 1000
PYGMENTS_THEMES = {True: "monokai", False: "default"}
#: Room for the note after a window of an over-long line.
CUT_NOTE_CELLS = 90
#: A notebook cell's first line is drawn with a line above it: the separator between cells.
_CELL_RULE = Style(overline=True)


@dataclass(frozen=True)
class _Styles:
    base: Style
    number: Style
    number_cursor: Style
    message: Style
    cut_note: Style
    palette: ChunkPalette
    mixer: StyleMixer
    pygments: PygmentsSyntaxTheme


class SourceView(ScrollView, can_focus=True, inherit_bindings=False):
    """Source of the open file with each chunk on its own background."""

    BINDING_GROUP_TITLE = "Source"

    BINDINGS = [
        Binding("up,k", "cursor_up", "Up", show=False, id="source.cursor_up"),
        Binding("down,j", "cursor_down", "Down", show=False, id="source.cursor_down"),
        Binding("left,h", "cursor_left", "Left", show=False, id="source.cursor_left"),
        Binding("right,l", "cursor_right", "Right", show=False, id="source.cursor_right"),
        Binding("pageup,ctrl+b", "page_up", "Page up", show=False, id="source.page_up"),
        Binding("pagedown,ctrl+f,space", "page_down", "Page down", show=False, id="source.page_down"),
        Binding("ctrl+u", "half_page(-1)", "Half page up", show=False, id="source.half_page_up"),
        Binding("ctrl+d", "half_page(1)", "Half page down", show=False, id="source.half_page_down"),
        Binding("home,0", "line_start", "Line start", show=False, id="source.line_start"),
        Binding("end,dollar_sign", "line_end", "Line end", show=False, id="source.line_end"),
        Binding("ctrl+home,g", "file_start", "First line", show=False, id="source.file_start"),
        Binding("ctrl+end,G", "file_end", "Last line", show=False, id="source.file_end"),
    ]

    COMPONENT_CLASSES = {
        "source-view--line-number",
        "source-view--line-number-cursor",
        "source-view--cursor",
        "source-view--message",
        "source-view--cut",
    }

    DEFAULT_CSS = """
    SourceView {
        background: $surface;
        & > .source-view--line-number { color: $text-muted; }
        & > .source-view--line-number-cursor { color: $text; text-style: bold; }
        & > .source-view--cursor { text-style: reverse; }
        & > .source-view--message { color: $text-muted; text-style: italic; }
        & > .source-view--cut { color: $text-muted; text-style: italic; }
    }
    """

    @dataclass
    class CursorMoved(Message):
        """The cursor moved (line and character column, 0-based, and its byte offset)."""

        line: int
        column: int
        byte: int

        def can_replace(self, message: Message) -> bool:
            return isinstance(message, SourceView.CursorMoved)

    def __init__(self, *, name: str | None = None, id: str | None = None, classes: str | None = None):
        super().__init__(name=name, id=id, classes=classes)
        self.document: Document | None = None
        self.cursor_line = 0
        self.cursor_column = 0
        self.selected_chunk: int | None = None
        self.highlighted_range: tuple[int, int] | None = None
        self.message = "Pick a file in the tree to see how it is chunked."
        self._highlighter: LineHighlighter | None = None
        self._styles: _Styles | None = None
        self._token_styles: dict[object, Style] = {}
        #: Each line's code (whole, cut) with the style padding it, and its gutter.
        self.code_lines = LineCache[int, tuple[Strip, Style]](self, 1024)
        self.gutters = LineCache[int, Strip](self, 1024)
        self._marks: dict[int, tuple[str, bool]] = {}

    # -- state in -----------------------------------------------------------------------
    def show_document(self, document: Document, *, keep_position: bool = False) -> None:
        """Show a newly loaded document (keeping scroll and cursor on a reload)."""
        scroll = self.scroll_offset
        file = document.file
        self.document = document
        self.message = ""
        self._highlighter = LineHighlighter(
            file.source, file.lexer or lexer_for(file.path, file.parsed.language), file.parsed.root, MAX_LINE_CHARS
        )
        # A container's regions and a notebook's cells are marked where they start.
        self._marks = {file.source.line_of(byte): (note, cell) for byte, note, cell in region_marks(file.parsed)}
        self.selected_chunk = None
        self.highlighted_range = None
        self._update_virtual_size()
        self._invalidate()
        if keep_position:
            self.cursor_line = min(self.cursor_line, max(0, file.source.line_count - 1))
            self.scroll_to(scroll.x, scroll.y, animate=False, immediate=True)
        else:
            self.cursor_line = self.cursor_column = 0
            self.scroll_to(0, 0, animate=False, immediate=True)

    def show_chunking(self, chunking: Chunking) -> None:
        """Show a new chunking of the document already shown."""
        if self.document is None:
            return
        self.document = Document(self.document.file, chunking, self.document.generation)
        if self.selected_chunk is not None and self.selected_chunk >= len(chunking.chunks):
            self.selected_chunk = None
        self._update_virtual_size()
        self._invalidate()

    def show_message(self, message: str) -> None:
        """Show no document, only a message (nothing open, binary file, ...)."""
        self.document = None
        self._highlighter = None
        self.message = message
        self.virtual_size = Size(0, 0)
        self._invalidate()

    def select_chunk(self, index: int | None, *, scroll: bool = True) -> None:
        """Emphasise one chunk; with ``scroll``, bring it into view and put the cursor on it."""
        if index != self.selected_chunk or self.highlighted_range is not None:
            self.selected_chunk = index
            self.highlighted_range = None
            self._invalidate()
        if index is not None and scroll and self.document is not None:
            start = self.document.chunks[index].byte_range.start
            self._reveal_bytes(start, self.document.chunks[index].byte_range.end)

    def show_range(self, start_byte: int, end_byte: int) -> None:
        """Highlight a byte range (an AST node, an entity), scroll to it, put the cursor at its start."""
        self.highlighted_range = (start_byte, end_byte)
        self._invalidate()
        self._reveal_bytes(start_byte, end_byte)

    # -- geometry -------------------------------------------------------------------------
    @property
    def line_count(self) -> int:
        return self.document.source.line_count if self.document else 0

    @property
    def gutter_width(self) -> int:
        if self.document is None:
            return 0
        return self._number_width + 1 + 1 + self._chunk_number_width + 1 + 1

    @property
    def _number_width(self) -> int:
        return max(3, len(str(self.line_count)))

    @property
    def _chunk_number_width(self) -> int:
        return max(3, len(str(len(self.document.chunks)))) if self.document else 0

    def _update_virtual_size(self) -> None:
        if self.document is None:
            return
        width = self.document.file.longest_line
        if width > MAX_LINE_CHARS:
            width = MAX_LINE_CHARS + CUT_NOTE_CELLS  # a window of the line, then a note on what is shown
        self.virtual_size = Size(self.gutter_width + width + 2, self.line_count)

    def _invalidate(self) -> None:
        self.code_lines.clear()
        self.gutters.clear()
        self.refresh()

    def _invalidate_line(self, line: int) -> None:
        self.code_lines.discard(line)
        self.gutters.discard(line)
        self.refresh_line(line)

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._styles = None
        self._token_styles.clear()
        self.code_lines.restyle()
        self.gutters.restyle()

    # -- rendering ----------------------------------------------------------------------
    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        line = scroll_y + y
        width = self.size.width
        styles = self.styles_now
        base = styles.base
        if self.document is None or line >= self.line_count:
            if self.document is None and self.message:
                # Wrapped: a refusal names the file and says why, which can be long.
                lines = textwrap.wrap(self.message, max(10, width - 4))
                row = y - max(0, self.size.height // 3)
                if 0 <= row < len(lines):
                    text = Text(lines[row], end="")
                    text.align("center", width)
                    return text_strip(text, self.app.console, styles.message).crop_extend(0, width, base)
            return Strip.blank(width, base)
        gutter = self.gutters.get(line, lambda: self._render_gutter(line))
        code, pad = self.code_lines.get(line, lambda: self._render_code(line))
        code_width = max(0, width - self.gutter_width)
        return Strip.join([gutter, code.crop_extend(scroll_x, scroll_x + code_width, pad)])

    @property
    def styles_now(self) -> _Styles:
        """Styles resolved from CSS and the theme (kept until the next style change)."""
        if self._styles is None:
            dark = self.app.current_theme.dark
            background = self.background_colors[1]
            accent = Color.parse(self.app.current_theme.accent or "#ffa62b")
            component = self.get_component_rich_style
            base = self.code_lines.base
            self._styles = _Styles(
                base=base,
                number=base + component("source-view--line-number", partial=True),
                number_cursor=base + component("source-view--line-number-cursor", partial=True),
                message=base + component("source-view--message", partial=True),
                cut_note=component("source-view--cut", partial=True),
                palette=ChunkPalette.build(background, accent, dark),
                mixer=StyleMixer(base, component("source-view--cursor", partial=True)),
                pygments=PygmentsSyntaxTheme(PYGMENTS_THEMES[dark]),
            )
        return self._styles

    @property
    def palette(self) -> ChunkPalette:
        return self.styles_now.palette

    def _token_style(self, ttype: object) -> Style:
        style = self._token_styles.get(ttype)
        if style is None:
            full = self.styles_now.pygments.get_style_for_token(ttype)  # type: ignore[arg-type]
            # Backgrounds belong to chunks here: keep only the token's colour and emphasis.
            style = Style(color=full.color, bold=full.bold, italic=full.italic, underline=full.underline)
            self._token_styles[ttype] = style
        return style

    def _render_gutter(self, line: int) -> Strip:
        assert self.document is not None
        layout = self.document.chunking.layout
        styles = self.styles_now
        palette = styles.palette
        base = styles.base
        number_style = styles.number_cursor if line == self.cursor_line else styles.number
        segments = [Segment(f"{line + 1:>{self._number_width}} ", number_style)]
        source = self.document.source
        line_start = source.line_starts[line]
        cut = layout.forced_cuts.get(line)
        if cut is not None:
            segments.append(Segment("✂", base + palette.cut))
        elif layout.overlaps_between(line_start, source.line_end(line)):
            segments.append(Segment("┆", base + palette.overlap_bar))
        else:
            segments.append(Segment(" ", base))
        starting = layout.first_chunk_on_line(line)
        if starting is not None:
            style = base + palette.bar(starting)
            if starting == self.selected_chunk:
                style += Style(reverse=True, bold=True)
            segments.append(Segment(f"{starting + 1:>{self._chunk_number_width}}", style))
        else:
            segments.append(Segment(" " * self._chunk_number_width, base))
        owner = layout.chunk_at(line_start)
        if owner is not None:
            segments.append(Segment("█" if owner == self.selected_chunk else "▌", base + palette.bar(owner)))
        else:
            segments.append(Segment(" ", base))
        segments.append(Segment(" ", base))
        mark = self._marks.get(line)
        if mark is not None and mark[1]:  # the cell separator runs through the gutter too
            segments = [Segment(s.text, (s.style or Style()) + _CELL_RULE) for s in segments]
        return Strip(segments, self.gutter_width)

    def _render_code(self, line: int) -> tuple[Strip, Style]:
        """The whole (cut) line as a strip, and the style to pad it with to the view's edge."""
        assert self.document is not None and self._highlighter is not None
        source = self.document.source
        layout = self.document.chunking.layout
        styles = self.styles_now
        palette = styles.palette
        highlighter = self._highlighter
        raw = highlighter.line_text(line)
        if raw.isascii() and raw.isprintable():
            shown, index = raw, None  # nothing to make safe: display indices are character indices
        else:
            shown, cells = display_line(raw, TAB_SIZE)
            # Only tabs change the length (they become spaces).
            index = _display_index(raw, cells) if "\t" in raw else None

        def at(char: int) -> int:
            char = max(0, min(char, len(raw)))
            return index[char] if index is not None else char

        line_start = source.line_starts[line]
        content_end = source.line_end(line, keep_newline=False)
        line_end = max(source.line_end(line), line_start + 1)
        window = highlighter.windows.get(line, 0)
        first_char = source.char_offset(line_start) + window
        cut = highlighter.is_cut(line)
        # The byte the padding after the text stands for: the line break, or the last character shown.
        if cut:
            pad_byte = source.byte_offset(first_char + len(raw) - 1)
        else:
            pad_byte = content_end if source.line_end(line) > content_end else max(line_start, content_end - 1)
        backgrounds: list = []
        pad: Style | None = None

        def add(start_byte: int, end_byte: int, style: Style) -> None:
            nonlocal pad
            a = at(source.char_offset(max(start_byte, line_start)) - first_char)
            b = at(source.char_offset(min(end_byte, content_end)) - first_char)
            if b > a:
                backgrounds.append((a, b, style))
            if start_byte <= pad_byte < end_byte:
                pad = style

        for k in layout.chunks_between(line_start, line_end):
            add(layout.starts[k], layout.ends[k], palette.background(k, k == self.selected_chunk))
        for start, end, _ in layout.overlaps_between(line_start, line_end):
            add(start, end, palette.overlap)
        if self.highlighted_range is not None:
            start, end = self.highlighted_range
            if start < line_end and end > line_start:
                add(start, end, palette.range)
        tokens = []
        position = 0
        for value, ttype in highlighter.tokens(line):
            tokens.append((at(position), at(position + len(value)), self._token_style(ttype)))
            position += len(value)
        cursor = at(self.cursor_column - window) if line == self.cursor_line and self.has_focus else None
        segments = paint_line(shown, tokens, backgrounds, styles.mixer, cursor, pad)
        pad_style = styles.mixer.mix(pad, None)
        if cut or window:
            total = highlighter.line_length(line)
            note = f" … (characters {window + 1:,}-{window + len(raw):,} of {total:,}; the view follows the cursor)"
            segments.append(Segment(note, pad_style + styles.cut_note))
        mark = self._marks.get(line)
        if mark is not None:
            note, starts_cell = mark
            segments.append(Segment(f"   ◀ {visible(note)}", pad_style + styles.cut_note))
            if starts_cell:  # a rule above the cell's first line separates it from the cell before
                segments = [Segment(s.text, (s.style or Style()) + _CELL_RULE) for s in segments]
        return Strip(segments), pad_style

    # -- cursor -------------------------------------------------------------------------
    def move_cursor(self, line: int, column: int, *, notify: bool = True, scroll: bool = True) -> None:
        if self.document is None:
            return
        line = max(0, min(line, self.line_count - 1))
        length = self._highlighter.line_length(line) if self._highlighter else 0
        column = max(0, min(column, length))
        previous = self.cursor_line
        self.cursor_line, self.cursor_column = line, column
        if self._highlighter is not None and self._highlighter.follow(line, column):
            self._invalidate_line(line)  # an over-long line: its window moved to the cursor
        self._invalidate_line(previous)
        self._invalidate_line(line)
        if scroll:
            self._scroll_cursor_visible()
        if notify:
            self.post_message(self.CursorMoved(line, column, self.cursor_byte()))

    def cursor_byte(self) -> int:
        """Byte offset of the cursor in the file."""
        if self.document is None or self.line_count == 0:
            return 0
        source = self.document.source
        line = min(self.cursor_line, self.line_count - 1)
        return source.byte_offset(source.char_offset(source.line_starts[line]) + self.cursor_column)

    def _scroll_cursor_visible(self) -> None:
        height = self.scrollable_content_region.height
        top = int(self.scroll_y)
        y = top
        if self.cursor_line < top:
            y = self.cursor_line
        elif self.cursor_line >= top + height:
            y = self.cursor_line - height + 1
        x = int(self.scroll_x)
        code_width = max(1, self.scrollable_content_region.width - self.gutter_width)
        cell = self._cursor_cell()
        if cell < x:
            x = max(0, cell - 4)
        elif cell >= x + code_width:
            x = cell - code_width + 4
        if (x, y) != (int(self.scroll_x), top):
            self.scroll_to(x, y, animate=False, immediate=True)

    def _cursor_cell(self) -> int:
        if self._highlighter is None:
            return 0
        raw = self._highlighter.line_text(self.cursor_line)
        window = self._highlighter.windows.get(self.cursor_line, 0)
        _, cells = display_line(raw[: self.cursor_column - window], TAB_SIZE)
        return cells[-1]

    def _reveal_bytes(self, start: int, end: int) -> None:
        """Scroll so that a byte range starts in view (a few lines from the top if it
        was out of view) and put the cursor at its start."""
        assert self.document is not None
        source = self.document.source
        first, last = source.line_range(start, max(end, start + 1))
        column = source.char_offset(start) - source.char_offset(source.line_starts[first])
        height = self.scrollable_content_region.height
        y = top = int(self.scroll_y)
        if not (top <= first and last < top + height):
            y = max(0, first - min(3, height // 4))
        x = int(self.scroll_x)
        code_width = max(1, self.scrollable_content_region.width - self.gutter_width)
        self.move_cursor(first, column, notify=False, scroll=False)
        cell = self._cursor_cell()
        if not x <= cell < x + code_width:
            x = max(0, cell - code_width // 3)
        if (x, y) != (int(self.scroll_x), top):
            self.scroll_to(x, y, animate=False, immediate=True)

    def action_cursor_up(self) -> None:
        self.move_cursor(self.cursor_line - 1, self.cursor_column)

    def action_cursor_down(self) -> None:
        self.move_cursor(self.cursor_line + 1, self.cursor_column)

    def action_cursor_left(self) -> None:
        self.move_cursor(self.cursor_line, self.cursor_column - 1)

    def action_cursor_right(self) -> None:
        self.move_cursor(self.cursor_line, self.cursor_column + 1)

    def _page(self, lines: int) -> None:
        self.scroll_to(y=max(0, self.scroll_y + lines), animate=False, immediate=True)
        self.move_cursor(self.cursor_line + lines, self.cursor_column)

    def action_page_up(self) -> None:
        self._page(-max(1, self.scrollable_content_region.height - 1))

    def action_page_down(self) -> None:
        self._page(max(1, self.scrollable_content_region.height - 1))

    def action_half_page(self, direction: int) -> None:
        self._page(direction * max(1, self.scrollable_content_region.height // 2))

    def action_line_start(self) -> None:
        self.move_cursor(self.cursor_line, 0)

    def action_line_end(self) -> None:
        length = self._highlighter.line_length(self.cursor_line) if self._highlighter else 0
        self.move_cursor(self.cursor_line, length)

    def action_file_start(self) -> None:
        self.move_cursor(0, 0)

    def action_file_end(self) -> None:
        self.move_cursor(self.line_count - 1, 0)

    # -- mouse and focus --------------------------------------------------------------------
    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None or self.document is None or self._highlighter is None:
            return
        line = int(self.scroll_y) + offset.y
        if line >= self.line_count:
            return
        cell = offset.x - self.gutter_width + int(self.scroll_x)
        raw = self._highlighter.line_text(line)
        _, cells = display_line(raw, TAB_SIZE)
        column = 0
        while column < len(raw) and cells[column + 1] <= cell:
            column += 1
        self.move_cursor(line, column + self._highlighter.windows.get(line, 0), scroll=False)

    def on_focus(self, event: events.Focus) -> None:
        self._invalidate_line(self.cursor_line)

    def on_blur(self, event: events.Blur) -> None:
        self._invalidate_line(self.cursor_line)


def _display_index(raw: str, cells: list[int]) -> list[int]:
    """For each character of ``raw`` (and one past the end), its index in the display string."""
    index = []
    position = 0
    for k, ch in enumerate(raw):
        index.append(position)
        position += (cells[k + 1] - cells[k]) if ch == "\t" else 1
    index.append(position)
    return index
