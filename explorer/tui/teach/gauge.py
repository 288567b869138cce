"""The size bar: the window being built against the limit, and the piece that may join it."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.widget import Widget

from explorer.engine.trace import TraceStep

from .model import EXPANSIONS
from .source import OVERSIZED_HUE, WINDOW_HUE

LABEL = Style(dim=True)
WINDOW = Style(color=WINDOW_HUE)
PIECE = Style(color="#ffa62b")
OVER = Style(color=OVERSIZED_HUE, bold=True)
EMPTY = Style(color="#5f5f5f")
LIMIT = Style(bold=True)
#: The bar shows sizes up to this many times the limit; more is marked as overflowing.
SCALE_CAP = 2.0


def gauge_parts(step: TraceStep, before: int, unit: str = "") -> tuple[list[tuple[int, Style]], str]:
    """Bar segments (size, style) and a caption for a step; ``before`` is the window's
    size before the step (what a closing chunk holds)."""
    limit = f"{step.limit:,} {unit}".rstrip()
    piece = step.piece_size or 0
    window = step.window_size or 0
    action = step.action
    if action == "add":
        return [(window - piece, WINDOW), (piece, PIECE)], f"window {window:,}/{limit} (+{piece:,})"
    if action == "open":
        return [(piece, PIECE)], f"new window {piece:,}/{limit}"
    if action == "keep_together":
        return [(window, WINDOW), (piece, PIECE)], f"piece {piece:,}/{limit}"
    if action == "close":
        return [(before, WINDOW), (piece, OVER)], f"{before:,} + {piece:,} > {limit}: closed"
    if action in EXPANSIONS:  # the piece is too big on its own
        return [(window, WINDOW), (piece, OVER)], f"piece alone {piece:,} > {limit}"
    if action == "emit_chars":
        return [(piece, PIECE)], f"part {piece:,}/{limit}"
    if action == "finish":
        return [(before, WINDOW)], f"last chunk {before:,}/{limit}"
    return [], f"limit {limit}"


def gauge_text(segments: list[tuple[int, Style]], caption: str, limit: int, width: int, rows: int = 1) -> Text:
    """The bar across ``width`` cells, ``rows`` lines tall; the caption beside its middle line."""
    text = Text(no_wrap=True, overflow="ellipsis")
    label = "size "
    caption = f" {caption}"
    cells = max(10, width - len(label) - len(caption))
    middle_row = (rows - 1) // 2
    lines = [_bar_line(segments, limit, cells, row == middle_row) for row in range(rows)]
    for row, line in enumerate(lines):
        if row:
            text.append("\n")
        text.append(label if row == middle_row else " " * len(label), LABEL)
        text.append_text(line)
        if row == middle_row:
            text.append(caption, LABEL)
    return text


def _bar_line(segments: list[tuple[int, Style]], limit: int, cells: int, baseline: bool = True) -> Text:
    """One line of the bar; ``baseline``: the empty part drawn as a line (else left blank)."""
    text = Text(no_wrap=True)
    total = sum(size for size, _ in segments)
    scale = max(limit, min(total, limit * SCALE_CAP)) or 1
    limit_cell = min(cells - 1, round(limit / scale * cells))
    bounds: list[tuple[int, int, Style | None]] = []
    acc = 0
    for size, style in segments:
        bounds.append((acc, acc + max(0, size), style))
        acc += max(0, size)
    for i in range(cells):
        if i == limit_cell:
            text.append("┃", LIMIT)
            continue
        middle = (i + 0.5) * scale / cells
        filled = next((s for a, b, s in bounds if a <= middle < b), None)
        if filled is None:
            text.append("─" if baseline else " ", EMPTY)
        elif i == cells - 1 and total > scale:
            text.append("»", OVER)
        else:
            text.append("█", filled)
    return text


class WindowGauge(Widget):
    """The window's size as a bar against the limit (the ┃), as tall as the widget (one line,
    or a large bar in teach's presentation layout)."""

    DEFAULT_CSS = """
    WindowGauge { height: 1; padding: 0 1; }
    """

    def __init__(self, *, id: str | None = None):
        super().__init__(id=id)
        self.step: TraceStep | None = None
        self.before = 0
        self.unit = ""

    def show_step(self, step: TraceStep | None, before: int, unit: str) -> None:
        self.step, self.before, self.unit = step, before, unit
        self.refresh()

    @property
    def caption(self) -> str:
        return gauge_parts(self.step, self.before, self.unit)[1] if self.step is not None else ""

    def render(self) -> Text:
        if self.step is None:
            return Text("")
        segments, caption = gauge_parts(self.step, self.before, self.unit)
        return gauge_text(segments, caption, self.step.limit, self.content_size.width,
                          max(1, self.content_size.height))
