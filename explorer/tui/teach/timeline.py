"""The whole run on one line: where chunks close, nodes are opened up and tokens cut."""

from __future__ import annotations

from dataclasses import dataclass

from rich.style import Style
from rich.text import Text
from textual import events
from textual.message import Message
from textual.widget import Widget

from ..widgets.source.palette import CHUNK_HUES
from .model import TraceRun
from .source import OVERSIZED_HUE

#: What marks a stretch of steps, most telling first: action -> (glyph, style or None for the chunk's hue).
MARKS: tuple[tuple[frozenset[str], str, Style | None], ...] = (
    (frozenset({"close", "emit_chars", "finish"}), "┃", None),
    (frozenset({"split_lines", "split_chars"}), "✂", Style(color=OVERSIZED_HUE, bold=True)),
    (frozenset({"descend", "separate"}), "▾", Style(color=OVERSIZED_HUE)),
    (frozenset({"keep_together"}), "+", Style(color="#87d787")),
)
PLAIN = ("─", Style(color="#5f5f5f"))
CURRENT = Style(color="#ffa62b", bold=True)
REVERSE = Style(reverse=True)


def timeline_cells(run: TraceRun, width: int) -> list[tuple[str, Style]]:
    """One (glyph, style) per cell across ``width`` cells. A cell stands for the steps
    [k*n/width, (k+1)*n/width); when there are fewer steps than cells, a step spans
    several cells and only its first one carries its mark."""
    n = len(run.steps)
    width = max(1, width)
    cells = []
    for k in range(width):
        first = k * n // width
        last = max(first + 1, (k + 1) * n // width)
        if k > 0 and (k - 1) * n // width == first and last == first + 1:
            cells.append(PLAIN)  # the rest of a step already marked
            continue
        actions = {run.steps[i].action for i in range(first, min(last, n))}
        mark = PLAIN
        for wanted, glyph, style in MARKS:
            if actions & wanted:
                if style is None:  # the colour of the (last) chunk closed here
                    index = next(chunk for i in range(min(last, n) - 1, first - 1, -1)
                                 if (chunk := run.steps[i].chunk_index) is not None)
                    style = Style(color=CHUNK_HUES[index % len(CHUNK_HUES)], bold=True)
                mark = (glyph, style)
                break
        cells.append(mark)
    return cells


def cell_of(index: int, steps: int, width: int) -> int:
    """The first cell standing for step ``index``."""
    if steps <= 0:
        return 0
    if steps >= width:  # several steps per cell
        return index * width // steps
    return -(-index * width // steps)  # several cells per step: its first


class TraceTimeline(Widget):
    """Click a place to go to that step."""

    BINDING_GROUP_TITLE = "Timeline"

    DEFAULT_CSS = """
    TraceTimeline { height: 1; padding: 0 1; }
    """

    @dataclass
    class StepPicked(Message):
        """A step was clicked on the timeline."""

        index: int

    def __init__(self, *, id: str | None = None):
        super().__init__(id=id)
        self.run: TraceRun | None = None
        self.index = 0
        self._cells: tuple[int, list[tuple[str, Style]]] | None = None

    def show(self, run: TraceRun | None, index: int) -> None:
        if run is not self.run:
            self._cells = None
        self.run, self.index = run, index
        self.refresh()

    def _cells_for(self, width: int) -> list[tuple[str, Style]]:
        assert self.run is not None
        if self._cells is None or self._cells[0] != width:
            self._cells = (width, timeline_cells(self.run, width))
        return self._cells[1]

    def render(self) -> Text:
        text = Text(no_wrap=True)
        if self.run is None or not self.run.steps:
            return text
        cells = self._cells_for(self.content_size.width)
        current = min(len(cells) - 1, cell_of(self.index, len(self.run.steps), len(cells)))
        for k, (glyph, style) in enumerate(cells):
            if k == current:
                text.append("●", CURRENT) if (glyph, style) == PLAIN else text.append(glyph, style + REVERSE)
            else:
                text.append(glyph, style)
        return text

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if self.run is None or offset is None or not self.run.steps:
            return
        cells = len(self._cells_for(self.content_size.width))
        index = min(len(self.run.steps) - 1, offset.x * len(self.run.steps) // cells)
        self.post_message(self.StepPicked(index))
