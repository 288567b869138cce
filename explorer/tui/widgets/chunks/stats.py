"""Stats of the current chunking: count, size spread, a histogram against the limit, over and tiny counts."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.widget import Widget

from explorer.display import plural
from explorer.engine.options import ChunkOptions

from ...document.model import ChunkStats, Document

_LEVELS = " ▁▂▃▄▅▆▇█"
BIN_CELLS = 2

LABEL = Style(dim=True)
VALUE = Style(bold=True)
BAD = Style(color="#ff5f5f", bold=True)
GOOD = Style(color="#87d787")
BUSY = Style(color="#ffd75f", bold=True)
BARS = Style(color="#70d6ff")
EMPTY = Style(color="#4a4a4a")


def histogram(stats: ChunkStats) -> Text:
    """One line of bars: one per size bin from 0 to max_size, then the oversized chunks in red."""
    peak = max(stats.histogram, default=0) or 1

    def bar(count: int, style: Style) -> tuple[str, Style]:
        if count == 0:
            return "▁" * BIN_CELLS, EMPTY
        return _LEVELS[max(1, round(count * 8 / peak))] * BIN_CELLS, style

    text = Text(no_wrap=True)
    text.append("sizes 0 ", LABEL)
    for count in stats.histogram[:-1]:
        text.append(*bar(count, BARS))
    text.append(f" {stats.max_size} ", LABEL)
    text.append(*bar(stats.histogram[-1], BAD))
    text.append(" over", LABEL)
    return text


def limit_text(options: ChunkOptions) -> str:
    """What the figures were computed for: ``max 300 nws``."""
    counted_with = f" ({options.tokenizer})" if options.tokenizer else ""
    return f"max {options.max_size} {options.size_unit}{counted_with}"


def stats_text(document: Document | None, *, show_timings: bool, pending: ChunkOptions | None = None) -> Text:
    """The stats of ``document``; ``pending``: newer parameters being applied (the figures
    shown are still those of the document's own parameters, and say so)."""
    if document is None:
        return Text("no file open", style=LABEL)
    stats = document.chunking.stats
    file = document.file
    if file.partial:
        return Text(f"{plural(file.source.line_count, 'line')}: parsing and chunking…", style=LABEL)
    text = Text(no_wrap=True, overflow="ellipsis")
    if pending is not None:
        text.append(f"re-chunking for {limit_text(pending)}…", BUSY)
        text.append(f" these figures: {limit_text(document.options)}", LABEL)
        text.append("\n")
    count, noun = plural(stats.count, "chunk").split(" ", 1)
    text.append(count, VALUE)
    text.append(f" {noun}", LABEL)
    text.append(f"  ·  {stats.unit}{f' ({stats.tokenizer})' if stats.tokenizer else ''} ", LABEL)
    for name, value in (("min", stats.smallest), ("median", stats.median), ("max", stats.largest)):
        text.append(f"{name} ", LABEL)
        text.append(f"{value:g}" if isinstance(value, float) else f"{value}", VALUE)
        text.append("  ")
    text.append("\n")
    text.append("over ", LABEL)
    text.append(f"{stats.over}", BAD if stats.over else GOOD)
    text.append("  embedded over ", LABEL)
    # A fault only where the limit binds the embedded text; else information (the fit's design).
    flagged = document.options.fit_embedded and stats.embedded_over
    text.append(f"{stats.embedded_over}", BAD if flagged else (VALUE if stats.embedded_over else GOOD))
    text.append("  tiny ", LABEL)
    text.append(f"{stats.tiny}", BAD if stats.tiny else GOOD)
    if file.parsed.parse_error:
        text.append("  ·  syntax errors", BAD)
    if show_timings:
        text.append(f"  ·  parse {file.parse_ms:.0f} ms  chunk {document.chunking.chunk_ms:.0f} ms", LABEL)
    text.append("\n")
    text.append_text(histogram(stats))
    return text


class StatsPanel(Widget):
    """Three lines of stats for the open file (a fixed size: updates repaint, never re-layout)."""

    DEFAULT_CSS = """
    StatsPanel { height: 3; padding: 0 1; }
    """

    def __init__(self, *, show_timings: bool = True, id: str | None = None):
        super().__init__(id=id)
        self.show_timings = show_timings
        self._text = Text("no file open", style=LABEL)

    def show_document(self, document: Document | None, pending: ChunkOptions | None = None) -> None:
        self._text = stats_text(document, show_timings=self.show_timings, pending=pending)
        self.refresh()

    def render(self) -> Text:
        return self._text
