"""The chunk list: one row per chunk with its lines, a size bar against the limit, entities and flags.

A Line-API widget, so a file cut into 20,000 tiny chunks scrolls as fast as one cut into ten.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.segment import Segment
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.geometry import Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from explorer.engine.measure.problems import PROBLEM_KINDS, Problem, problems_by_chunk
from explorer.engine.measure.quality import TINY_NWS
from explorer.engine.model import Chunk
from explorer.engine.structure import FileStructure
from explorer.engine.structure.entities import NON_SCOPE_TYPES
from explorer.engine.text import display_line

from ...document.model import Chunking
from ..line_cache import LineCache
from ..strips import text_strip

BAR_CELLS = 10
#: The bar's width in a pane narrower than WIDE (the numbers and flags keep their room).
NARROW_BAR_CELLS = 5
WIDE = 52
_EIGHTHS = " ▏▎▍▌▋▊▉"


def size_bar(size: int, limit: int, cells: int = BAR_CELLS) -> str:
    """A bar of ``cells`` cells filled in eighths to size/limit (capped at full)."""
    eighths = min(cells * 8, round(size * cells * 8 / max(1, limit)))
    full, part = divmod(eighths, 8)
    return ("█" * full + (_EIGHTHS[part] if part else "")).ljust(cells)


#: Flags of the problems the chunk's own fields do not show (tiny and forced cuts do).
PROBLEM_FLAGS = {"split": "split", "too-big": "bigdef", "embedded": "emb>"}


def chunk_flags(chunk: Chunk, limit: int, problems: Sequence[Problem] = ()) -> list[tuple[str, str]]:
    """Short flags for a chunk, each with the component class that colours it; ``problems``:
    the chunk's (:mod:`explorer.engine.measure.problems`), for what its fields do not tell."""
    flags = []
    for problem in sorted(problems, key=lambda p: PROBLEM_KINDS.index(p.kind)):  # the worst first
        if problem.kind == "dangling":  # `ends=`: the chunk ends on an opener
            flags.append((f"ends{problem.token}", "chunk-list--over"))
        elif problem.kind == "closer":  # `starts}`
            flags.append((f"starts{problem.token}", "chunk-list--over"))
        elif problem.kind in PROBLEM_FLAGS:
            flag = (PROBLEM_FLAGS[problem.kind], "chunk-list--tiny")
            if flag not in flags:
                flags.append(flag)
    if chunk.size > limit:
        flags.append(("over", "chunk-list--over"))
    if chunk.nws < TINY_NWS:
        flags.append(("tiny", "chunk-list--tiny"))
    if chunk.forced_split:
        flags.append(("✂cut", "chunk-list--cut"))
    if chunk.overlap_text:
        flags.append(("ovl", "chunk-list--flag"))
    if chunk.fallback_reason:
        flags.append(("lines", "chunk-list--flag"))
    return flags


def chunk_entities(chunk: Chunk, structure: FileStructure | None) -> str:
    """Names of the entities a chunk defines (those it overlaps that are not its scope,
    imports and exports left out, as in the detail's "Defines"), else its innermost scope.
    Taken from the file's structure, not the chunk's context, so every context mode has it."""
    index = structure.scope if structure is not None else None
    if index is None:
        return ""
    start, end = chunk.byte_range.start, chunk.byte_range.end
    scope, partial = index.around(start, end, 1)
    found = partial + [entity for entity, _ in index.starting_in(start, end)]
    names = [entity.name for entity in found if entity.type not in NON_SCOPE_TYPES and entity.name]
    if names:
        return ", ".join(names)
    return f"in {scope[0].name}" if scope else ""


def line_span(chunk: Chunk) -> str:
    """``12-40``: the chunk's lines, 1-based."""
    return f"{chunk.line_range.start + 1}-{chunk.line_range.end + 1}"


def column_widths(chunking: Chunking | None) -> tuple[int, int, int, int]:
    """Widths of the number, lines, size and embed columns: their header's or widest cell's."""
    chunks = chunking.chunks if chunking is not None else ()
    unit = chunking.options.size_unit if chunking is not None else ""
    return (
        max(1, len(str(len(chunks)))),
        max([len("lines"), *(len(line_span(c)) for c in chunks)]),
        max([len(unit), *(len(str(c.size)) for c in chunks)]),
        max([len("embed"), *(len(str(c.embedded_size)) for c in chunks)]),
    )


def bar_cells(width: int) -> int:
    return BAR_CELLS if width >= WIDE else NARROW_BAR_CELLS


class ChunkList(ScrollView, can_focus=True):
    """Chunks of the open file; the highlighted row is the selected chunk."""

    BINDING_GROUP_TITLE = "Chunk list"

    BINDINGS = [
        Binding("up,k", "move(-1)", "Up", show=False, id="chunks.cursor_up"),
        Binding("down,j", "move(1)", "Down", show=False, id="chunks.cursor_down"),
        Binding("pageup,ctrl+b", "page(-1)", "Page up", show=False, id="chunks.page_up"),
        Binding("pagedown,ctrl+f", "page(1)", "Page down", show=False, id="chunks.page_down"),
        Binding("home,g", "first", "First chunk", show=False, id="chunks.first"),
        Binding("end,G", "last", "Last chunk", show=False, id="chunks.last"),
        Binding("enter", "choose", "Show chunk", show=False, id="chunks.choose"),
    ]

    COMPONENT_CLASSES = {
        "chunk-list--header",
        "chunk-list--cursor",
        "chunk-list--number",
        "chunk-list--lines",
        "chunk-list--bar",
        "chunk-list--bar-over",
        "chunk-list--size",
        "chunk-list--entities",
        "chunk-list--flag",
        "chunk-list--over",
        "chunk-list--tiny",
        "chunk-list--cut",
        "chunk-list--empty",
    }

    DEFAULT_CSS = """
    ChunkList {
        & > .chunk-list--header { color: $text-muted; text-style: bold; }
        & > .chunk-list--cursor { background: $boost; text-style: bold; }
        & > .chunk-list--number { color: $text-muted; }
        & > .chunk-list--lines { color: $text-muted; }
        & > .chunk-list--bar { color: $success; }
        & > .chunk-list--bar-over { color: $error; }
        & > .chunk-list--size { color: $text; }
        & > .chunk-list--entities { color: $text-accent; }
        & > .chunk-list--flag { color: $text-muted; }
        & > .chunk-list--over { color: $text-error; text-style: bold; }
        & > .chunk-list--tiny { color: $text-warning; }
        & > .chunk-list--cut { color: $text-error; }
        & > .chunk-list--empty { color: $text-muted; text-style: italic; }
        &:focus > .chunk-list--cursor { background: $block-cursor-background; color: $block-cursor-foreground; }
    }
    """

    @dataclass
    class Selected(Message):
        """The user picked chunk ``index`` (moved the cursor to it, clicked it, or pressed enter)."""

        index: int

    def __init__(self, *, id: str | None = None):
        super().__init__(id=id)
        self.chunking: Chunking | None = None
        self.structure: FileStructure | None = None
        self.cursor: int | None = None
        self.problems: tuple[tuple[Problem, ...], ...] = ()
        self.empty_message = "no chunks"
        #: Widths of the number, lines, size and embed columns: as wide as their widest cell.
        self.widths = column_widths(None)
        #: Rows by (chunk index, under the cursor, width), and the pane's base style.
        self.rows = LineCache[tuple[int, bool, int], Strip](self, 512)

    # -- state in ------------------------------------------------------------------------
    def show_chunking(self, chunking: Chunking | None, structure: FileStructure | None = None) -> None:
        """Show a chunking (``structure``: the file's, for what each chunk defines)."""
        self.chunking = chunking
        self.structure = structure
        found = chunking.problems if chunking is not None else None
        #: Each chunk's problems (empty when they were not looked for).
        self.problems = problems_by_chunk(found) if found is not None else ()
        count = len(chunking.chunks) if chunking else 0
        if self.cursor is not None and self.cursor >= count:
            self.cursor = None
        self.widths = column_widths(chunking)
        self.rows.clear()
        self.virtual_size = Size(self.size.width, count + 1)
        self.refresh()

    def select(self, index: int | None, *, announce: bool = False) -> None:
        """Move the highlighted row (announcing it only when the user moved it)."""
        if self.chunking is None:
            return
        if index is not None:
            index = max(0, min(index, len(self.chunking.chunks) - 1))
        self.cursor = index
        self.refresh()
        if index is not None:
            self._scroll_index_visible(index)
            if announce:
                self.post_message(self.Selected(index))

    def _scroll_index_visible(self, index: int) -> None:
        # Row 0 is the header, so chunks scroll_y .. scroll_y + height - 2 are visible.
        height = self.scrollable_content_region.height
        top = int(self.scroll_y)
        if index < top:
            self.scroll_to(y=index, animate=False, immediate=True)
        elif index > top + height - 2:
            self.scroll_to(y=index - height + 2, animate=False, immediate=True)

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self.rows.restyle()

    # -- rendering ------------------------------------------------------------------------
    def render_line(self, y: int) -> Strip:
        width = self.size.width
        base = self.rows.base
        if y == 0:
            return self._header(width)
        row = int(self.scroll_y) + y
        if self.chunking is None or not self.chunking.chunks:
            if y == 1:
                style = self.get_component_rich_style("chunk-list--empty")
                return Strip([Segment(f" {self.empty_message}", style)]).crop_extend(0, width, base)
            return Strip.blank(width, base)
        index = row - 1
        if index >= len(self.chunking.chunks):
            return Strip.blank(width, base)
        return self.rows.get((index, index == self.cursor, width), lambda: self._row(index, width))

    def _header(self, width: int) -> Strip:
        base = self.rows.base
        style = self.get_component_rich_style("chunk-list--header")
        unit = self.chunking.options.size_unit if self.chunking else ""
        number, lines, size, embed = self.widths
        # "embed": the size of the contextualized text, what a pipeline embeds, in the same unit
        text = (f"{'#':>{number}} {'lines':<{lines}} {'size':<{bar_cells(width)}} {unit:>{size}} "
                f"{'embed':>{embed}}  defines")
        return Strip([Segment(text, style)]).crop_extend(0, width, base)

    def _row(self, index: int, width: int) -> Strip:
        assert self.chunking is not None
        chunk = self.chunking.chunks[index]
        limit = self.chunking.options.max_size
        style = self.get_component_rich_style
        selected = index == self.cursor
        # The full (not partial) cursor style: its background is blended with the pane's.
        base = style("chunk-list--cursor") if selected else self.rows.base
        number, lines_width, size, embed = self.widths
        text = Text(style=base, end="", no_wrap=True, overflow="ellipsis")
        text.append(f"{index + 1:>{number}} ", style("chunk-list--number", partial=True))
        text.append(f"{line_span(chunk):<{lines_width}} ", style("chunk-list--lines", partial=True))
        bar_style = "chunk-list--bar-over" if chunk.size > limit else "chunk-list--bar"
        text.append(size_bar(chunk.size, limit, bar_cells(width)), style(bar_style, partial=True))
        text.append(f" {chunk.size:>{size}} ", style("chunk-list--size", partial=True))
        embedded = "chunk-list--bar-over" if chunk.embedded_size > limit else "chunk-list--size"
        text.append(f"{chunk.embedded_size:>{embed}}  ", style(embedded, partial=True))
        problems = self.problems[index] if index < len(self.problems) else ()
        for flag, component in chunk_flags(chunk, limit, problems):
            text.append(flag, style(component, partial=True))
            text.append(" ")
        text.append(display_line(chunk_entities(chunk, self.structure))[0], style("chunk-list--entities", partial=True))
        text.truncate(width, overflow="ellipsis", pad=True)
        return text_strip(text, self.app.console, base)

    # -- input -----------------------------------------------------------------------------
    def action_move(self, delta: int) -> None:
        if self.chunking is None or not self.chunking.chunks:
            return
        self.select((self.cursor if self.cursor is not None else -1 if delta > 0 else 0) + delta, announce=True)

    def action_page(self, direction: int) -> None:
        self.action_move(direction * max(1, self.scrollable_content_region.height - 2))

    def action_first(self) -> None:
        self.select(0, announce=True)

    def action_last(self) -> None:
        if self.chunking is not None:
            self.select(len(self.chunking.chunks) - 1, announce=True)

    def action_choose(self) -> None:
        if self.cursor is not None:
            self.post_message(self.Selected(self.cursor))

    def on_focus(self) -> None:
        self.rows.clear()
        self.refresh()

    def on_blur(self) -> None:
        self.rows.clear()
        self.refresh()

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None or self.chunking is None or offset.y == 0:
            return
        index = int(self.scroll_y) + offset.y - 1
        if 0 <= index < len(self.chunking.chunks):
            self.select(index, announce=True)
