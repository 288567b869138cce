"""The compare view: the open file chunked two ways, side by side, scrolled together.

The first side uses the explorer's parameters (its keys and palette change them
here too); the second is the line-packing baseline or a second set of parameters
(``b`` switches, ``]``/``[`` change its max size). Definitions that a side splits
are marked in its source; the measures of both sides sit in one table below.
"""

from __future__ import annotations

import os
from functools import partial

from rich.style import Style
from rich.table import Table
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.color import Color
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import Header, Static

from explorer.display import plural
from explorer.engine.options import ChunkOptions
from explorer.terminal_text import visible

from ..app_state import explorer_state
from ..document.model import Document, LoadedFile
from ..jobs import LatestJob
from ..literal import literal
from ..palette.screen_keys import ScreenKeyCommands
from ..steps import stepped_size
from ..widgets.fits import FitsWidth
from ..widgets.footer import KeyFooter
from ..widgets.source.overlay import Overlay, OverlaySourceView
from .messages import ComparisonFailed, ComparisonReady
from .model import BASELINE, MEASURES, SECOND_SET, Comparison, SecondSide, Side, compare, verdict

SPLIT_HUE = "#ff5f5f"
SPLIT_TINT = 0.35
BETTER = Style(color="#87d787", bold=True)
WORSE = Style(color="#ff875f")
LABEL = Style(dim=True)


def split_overlays(side: Side, view: OverlaySourceView) -> list[Overlay]:
    """The definitions a side splits: a red bar beside all their lines, their first line tinted red."""
    if view.document is None:
        return []
    source = view.document.source
    background = view.background_colors[1]
    tint = Style(bgcolor=background.blend(Color.parse(SPLIT_HUE), SPLIT_TINT).rich_color)
    bar = Style(color=SPLIT_HUE, bold=True)
    overlays = []
    for split in side.metrics.splits:
        first_line_end = source.line_end(source.line_of(split.start), keep_newline=False)
        overlays.append(Overlay(split.start, split.end, Style(), bar))
        overlays.append(Overlay(split.start, max(split.start + 1, min(split.end, first_line_end)), tint))
    return overlays


def split_summary(side: Side) -> str:
    """``4 definitions split, 1 doc comment cut off (red bar)`` for a side's border."""
    definitions = sum(1 for split in side.metrics.splits if split.what != "doc")
    docs = len(side.metrics.splits) - definitions
    text = f"{plural(definitions, 'definition')} split"
    if docs:
        text += f", {plural(docs, 'doc comment')} cut off"
    return text + (" (red bar)" if side.metrics.splits else "")


#: Header of the value columns, per half of the table.
SIDES = ("left", "right")
#: The column between the two halves, and the padding rich puts between columns.
SEPARATOR, PADDING = 2, 2


def measures_table(comparison: Comparison, width: int | None = None) -> Table:
    """Measure | first | second, the better value of each pair in green. Within ``width``
    the values are whole: written compact when the full ones do not fit (``35/146 (24%)``,
    ``1.3k``), and the measures' names shortened with ``…`` to leave them room."""
    first, second = comparison.first, comparison.second
    halves = (MEASURES[: (len(MEASURES) + 1) // 2], MEASURES[(len(MEASURES) + 1) // 2:])
    for compact in (False, True):
        shown = [[(m.name, m.shown(first, compact), m.shown(second, compact)) for m in half] for half in halves]
        widths = [max(len(header), *(len(row[k]) for row in half))
                  for half in shown for k, header in enumerate(("measure", *SIDES))]
        columns = len(widths) + 1  # and the separator
        if width is None or sum(widths) + SEPARATOR + PADDING * (columns - 1) <= width:
            break
    names: list[int | None] = [None, None]  # as wide as they are, where they fit
    if width is not None:  # else the names give way: what is left after the values, shared
        spare = width - SEPARATOR - PADDING * (columns - 1) - sum(widths[1:3]) - sum(widths[4:6])
        if spare < widths[0] + widths[3]:
            shared = max(1, spare * widths[0] // (widths[0] + widths[3]))
            names = [shared, max(1, spare - shared)]
    table = Table(box=None, expand=True, pad_edge=False, show_edge=False, header_style="bold")
    for k in range(2):
        table.add_column("measure", style=LABEL, no_wrap=True, overflow="ellipsis", width=names[k])
        for side, column in zip(SIDES, widths[3 * k + 1: 3 * k + 3]):
            table.add_column(side, justify="right", no_wrap=True, min_width=column)
        if k == 0:
            table.add_column(" ", width=SEPARATOR)
    for row in range(len(halves[0])):
        cells: list[Text] = []
        for k, half in enumerate(halves):
            if row < len(half):
                measure = half[row]
                name, left, right = shown[k][row]
                better = verdict(measure, first, second)
                cells += [
                    Text(name),
                    Text(left, BETTER if better > 0 else WORSE if better < 0 else Style()),
                    Text(right, BETTER if better < 0 else WORSE if better > 0 else Style()),
                ]
            else:
                cells += [Text(""), Text(""), Text("")]
            if k == 0:
                cells.append(Text("│", LABEL))
        table.add_row(*cells)
    return table


class CompareScreen(Screen):
    """One file, two chunkings."""

    BINDING_GROUP_TITLE = "the compare view"
    COMMANDS = {ScreenKeyCommands}
    HELP = """
The open file chunked two ways: left with the explorer's parameters (+ and - change its
size), right with the line-packing baseline or a second set of parameters (b switches;
] and [ change its size). The red bar marks a definition or doc comment a side splits.
Measures (green: the better of the two):
  definitions split     definitions that fit the limit but were cut anyway
  doc comments cut off  a doc comment left in another chunk than its definition
  clean cuts            chunk boundaries that fall between two statements or two sibling
                        nodes (not inside a node, not inside a token), in % of all cuts
  mid-line cuts         boundaries that fall inside a line
"""

    #: Pairs of keys the footer shows as one.
    RIGHT = Binding.Group("Right size", compact=True)
    SPLIT = Binding.Group("Split", compact=True)
    LEFT = Binding.Group("Left size", compact=True)

    BINDINGS = [
        Binding("b", "toggle_second", "Baseline/2nd set", id="compare.toggle",
                tooltip="Compare with the line-packing baseline, or with a second set of parameters"),
        Binding("left_square_bracket", "second_size(-1)", "Right size-", key_display="[", id="compare.size_down", group=RIGHT,
                tooltip="Decrease the right side's max size (switches it to a second set)"),
        Binding("right_square_bracket", "second_size(1)", "Right size+", key_display="]", id="compare.size_up", group=RIGHT,
                tooltip="Increase the right side's max size (switches it to a second set)"),
        Binding("n", "next_split(1)", "Next split", id="compare.next_split", group=SPLIT,
                tooltip="Scroll to the next definition either side splits"),
        Binding("p", "next_split(-1)", "Prev split", id="compare.previous_split", group=SPLIT,
                tooltip="Scroll to the previous definition either side splits"),
        Binding("plus,equals_sign", "app.size_step(1)", "Left size+", key_display="+", id="compare.left_size_up", group=LEFT,
                tooltip="Increase the left side's max size (the explorer's parameters)"),
        Binding("minus", "app.size_step(-1)", "Left size-", key_display="-", id="compare.left_size_down", group=LEFT,
                tooltip="Decrease the left side's max size (the explorer's parameters)"),
        Binding("escape", "leave", "Back", id="compare.leave", tooltip="Back to the screen the view was opened from"),
    ]

    DEFAULT_CSS = """
    CompareScreen {
        #compare-main { height: 1fr; }
        .compare-side { width: 1fr; }
        #compare-measures { height: auto; padding: 0 1; }
        .compare-side, #compare-measures {
            border: round $panel-lighten-2;
            border-title-color: $text-muted;
            border-title-style: bold;
            border-subtitle-color: $text-muted;
        }
        .compare-side:focus { border: round $accent; border-title-color: $text; }
    }
    """

    def __init__(self, file: LoadedFile, second: SecondSide | None = None):
        super().__init__()
        self.file = file
        self.second = second or SecondSide()
        self.comparison: Comparison | None = None
        self.comparing = LatestJob[Comparison](self, "compare", ComparisonReady, ComparisonFailed)
        self._syncing = False

    def compose(self) -> ComposeResult:
        yield Header(icon="▦")
        with Horizontal(id="compare-main"):
            yield OverlaySourceView(id="compare-first", classes="compare-side")
            yield OverlaySourceView(id="compare-second", classes="compare-side")
        yield Static(id="compare-measures")
        yield KeyFooter()

    @property
    def first_view(self) -> OverlaySourceView:
        return self.query_one("#compare-first", OverlaySourceView)

    @property
    def second_view(self) -> OverlaySourceView:
        return self.query_one("#compare-second", OverlaySourceView)

    def on_mount(self) -> None:
        self.title = "Compare"
        self.sub_title = visible(os.path.basename(self.file.path))
        for view in (self.first_view, self.second_view):
            view.message = "Chunking…"
            view.border_title = "…"
        first, second = self.first_view, self.second_view
        self.watch(first, "scroll_y", partial(self._sync_scroll, second), init=False)
        self.watch(second, "scroll_y", partial(self._sync_scroll, first), init=False)
        self.watch(first, "scroll_x", partial(self._sync_scroll, second), init=False)
        self.watch(second, "scroll_x", partial(self._sync_scroll, first), init=False)
        self.watch(self.app, "options", self._options_changed, init=False)
        measures = self.query_one("#compare-measures")
        measures.border_title = "Quality (green: the better of the two)"
        measures.border_subtitle = "clean cut: between two statements or sibling nodes, not inside one · ? explains"
        first.focus()
        self.recompute()

    # -- computing -----------------------------------------------------------------------
    @property
    def first_options(self) -> ChunkOptions:
        return explorer_state(self).options

    def recompute(self) -> None:
        file, first = self.file, self.first_options
        second = self.second.options(first)
        self.comparing.start(partial(compare, file, first, second),
                             f"chunk {os.path.basename(file.path)} two ways")

    def _options_changed(self, options: ChunkOptions) -> None:
        self.recompute()

    @on(ComparisonReady)
    def _comparison_ready(self, message: ComparisonReady) -> None:
        if not self.comparing.is_current(message.generation):
            return
        previous = self.comparison
        self.comparison = comparison = message.comparison
        keep = previous is not None
        for view, side, name in ((self.first_view, comparison.first, "Left"),
                                 (self.second_view, comparison.second, "Right")):
            document = Document(comparison.file, side.chunking, message.generation)
            if keep and view.document is not None:
                view.show_chunking(side.chunking)
            else:
                view.show_document(document)
            view.set_overlays(split_overlays(side, view))
            view.border_title = literal(f"{name}: {side.label}")
            view.border_subtitle = literal(f"{side.summary.chunks:,} chunks · {split_summary(side)}")
        self.query_one("#compare-measures", Static).update(
            FitsWidth(lambda width: measures_table(comparison, width)))

    @on(ComparisonFailed)
    def _comparison_failed(self, message: ComparisonFailed) -> None:
        if self.comparing.is_current(message.generation):
            self.notify(message.reason, title="Cannot compare", severity="error", markup=False)

    # -- scrolling together -----------------------------------------------------------------
    def _sync_scroll(self, other: OverlaySourceView, _value: float) -> None:
        if self._syncing:
            return
        self._syncing = True
        try:
            source = self.first_view if other is self.second_view else self.second_view
            other.scroll_to(source.scroll_x, source.scroll_y, animate=False, immediate=True)
        finally:
            self._syncing = False

    # -- keys ---------------------------------------------------------------------------------
    def action_toggle_second(self) -> None:
        if self.second.kind == BASELINE:
            size = self.second.max_size or self.first_options.max_size * 2
            self.second = SecondSide(SECOND_SET, size)
        else:
            self.second = SecondSide(BASELINE, self.second.max_size)
        self.recompute()

    def action_second_size(self, direction: int) -> None:
        """Change the right side's max size by the step of ``+`` and ``-`` (steps.py); from the
        baseline, the first press switches to a second set at twice the left side's size."""
        first = self.first_options
        if self.second.kind == BASELINE:
            size = self.second.max_size or first.max_size * 2
        else:
            size = stepped_size(self.second.max_size or first.max_size, first.size_unit, direction)
        self.second = SecondSide(SECOND_SET, size)
        self.recompute()

    def action_next_split(self, direction: int) -> None:
        """Scroll both sides to the next definition that either side splits."""
        comparison = self.comparison
        if comparison is None:
            return
        source = comparison.file.source
        lines = sorted({source.line_of(s.start) for side in (comparison.first, comparison.second)
                        for s in side.metrics.splits})
        current = self.first_view.cursor_line
        ahead = [line for line in lines if (line > current if direction > 0 else line < current)]
        if not ahead:
            self.notify("No more split definitions that way", timeout=2, markup=False)
            return
        target = ahead[0] if direction > 0 else ahead[-1]
        start = source.line_starts[target]
        self.first_view.reveal(start, start + 1)
        self.second_view.reveal(start, start + 1)

    def action_leave(self) -> None:
        self.dismiss()
