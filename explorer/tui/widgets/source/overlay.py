"""A source view that paints extra byte ranges over the chunk colours.

Teach mode paints the window being built and the node under consideration;
the compare view paints the definitions a chunking splits. The ranges are laid
over the strips the source view already rendered (and cached), so the view's
own rendering stays the one place that draws code.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.segment import Segment
from rich.style import Style
from textual.strip import Strip

from explorer.engine.text import display_line

from .view import TAB_SIZE, SourceView


@dataclass(frozen=True, slots=True)
class Overlay:
    """A byte range (end exclusive) painted with ``style``; ``bar`` also marks its lines in the gutter."""

    start: int
    end: int
    style: Style
    bar: Style | None = None


def restyle(strip: Strip, start: int, end: int, style: Style) -> Strip:
    """``strip`` with ``style`` laid over cells [start, end) (the overlay wins where both set a value)."""
    start, end = max(0, start), min(end, strip.cell_length)
    if end <= start:
        return strip
    before, middle, after = strip.divide([start, end, strip.cell_length])[:3]
    painted = Strip(
        [Segment(text, (seg_style or Style()) + style, control) for text, seg_style, control in middle],
        middle.cell_length,
    )
    return Strip.join([before, painted, after])


class OverlaySourceView(SourceView):
    """The source view with ranges painted over it, drawn in the order given."""

    BINDING_GROUP_TITLE = "Source"

    def __init__(self, *, name: str | None = None, id: str | None = None, classes: str | None = None):
        super().__init__(name=name, id=id, classes=classes)
        self.overlays: tuple[Overlay, ...] = ()

    def set_overlays(self, overlays: Sequence[Overlay]) -> None:
        overlays = tuple(overlays)
        if overlays != self.overlays:
            self.overlays = overlays
            self._invalidate()

    def reveal(self, start: int, end: int) -> None:
        """Scroll a byte range into view (its first line), putting the cursor there quietly."""
        if self.document is not None:
            self._reveal_bytes(start, end)

    def _line_bounds(self, line: int) -> tuple[int, int, int]:
        assert self.document is not None
        source = self.document.source
        return source.line_starts[line], source.line_end(line, keep_newline=False), source.line_end(line)

    def _render_code(self, line: int) -> tuple[Strip, Style]:
        strip, pad = super()._render_code(line)
        if not self.overlays or self.document is None or self._highlighter is None:
            return strip, pad
        source = self.document.source
        line_start, content_end, line_end = self._line_bounds(line)
        raw = self._highlighter.line_text(line)  # cut for display: later characters are not shown
        cells: list[int] | None = None
        first_char = source.char_offset(line_start)
        # The byte the padding stands for: the line break, or the last character.
        pad_byte = content_end if line_end > content_end else max(line_start, content_end - 1)
        for overlay in self.overlays:
            if overlay.start >= max(line_end, line_start + 1) or overlay.end <= line_start:
                continue
            if cells is None:
                cells = display_line(raw, TAB_SIZE)[1]
            a = min(len(raw), max(0, source.char_offset(max(overlay.start, line_start)) - first_char))
            b = min(len(raw), max(0, source.char_offset(min(overlay.end, content_end)) - first_char))
            if not overlay.style:  # a gutter mark only
                continue
            strip = restyle(strip, cells[a], cells[b], overlay.style)
            if overlay.start <= pad_byte < overlay.end:
                pad = pad + overlay.style
        return strip, pad

    def _render_gutter(self, line: int) -> Strip:
        gutter = super()._render_gutter(line)
        if not self.overlays or self.document is None:
            return gutter
        line_start, _, line_end = self._line_bounds(line)
        bar = None
        for overlay in self.overlays:
            if overlay.bar is not None and overlay.start < max(line_end, line_start + 1) and overlay.end > line_start:
                bar = overlay.bar
        if bar is None:
            return gutter
        # The gutter ends with the chunk bar cell and a space: the overlay's bar takes the bar cell.
        at = self.gutter_width - 2
        before, _, after = gutter.divide([at, at + 1, gutter.cell_length])[:3]
        return Strip.join([before, Strip([Segment("▌", self.rich_style + bar)], 1), after])
