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


def histogram(stats: ChunkStats, width: int | None = None) -> Text:
    """One line of bars: one per size bin from 0 to max_size, then the oversized chunks in red
    (each bar one cell instead of two where two do not fit in ``width``)."""
    peak = max(stats.histogram, default=0) or 1
    limit = f" {stats.max_size} "
    cells = BIN_CELLS
    if width is not None and len("sizes 0 ") + len(stats.histogram) * cells + len(limit) + len(" over") > width:
        cells = 1

    def bar(count: int, style: Style, after: str = "") -> tuple[str, Style]:
        # (a space after a bar is the bar's: a span that starts with one can lose it in an SVG)
        if count == 0:
            return "▁" * cells + after, EMPTY
        return _LEVELS[max(1, round(count * 8 / peak))] * cells + after, style

    text = Text(no_wrap=True)
    text.append("sizes 0 ", LABEL)
    *bins, last = stats.histogram[:-1]
    for count in bins:
        text.append(*bar(count, BARS))
    text.append(*bar(last, BARS, " "))
    text.append(limit.lstrip(), LABEL)
    text.append(*bar(stats.histogram[-1], BAD, " "))
    text.append("over", LABEL)
    return text


def limit_text(options: ChunkOptions) -> str:
    """What the figures were computed for: ``max 300 nws``."""
    counted_with = f" ({options.tokenizer})" if options.tokenizer else ""
    return f"max {options.max_size} {options.size_unit}{counted_with}"


#: One figure of the panel: its parts, (text, style) each.
Piece = list[tuple[str, Style]]


def _figures(document: Document, show_timings: bool) -> list[list[Piece]]:
    """The figures, in the groups that start a line of their own: the sizes, then the counts."""
    stats, file = document.chunking.stats, document.file
    count, noun = plural(stats.count, "chunk").split(" ", 1)
    unit = f"{stats.unit}{f' ({stats.tokenizer})' if stats.tokenizer else ''} "
    sizes: list[Piece] = [[(f"{count} ", VALUE), (noun, LABEL)], [("·", LABEL)]]
    for name, value in (("min", stats.smallest), ("median", stats.median), ("max", stats.largest)):
        shown = f"{value:g}" if isinstance(value, float) else f"{value}"
        sizes.append([*([(unit, LABEL)] if name == "min" else []), (f"{name} ", LABEL), (shown, VALUE)])
    # A fault only where the limit binds the embedded text; else information (the fit's design).
    flagged = document.options.fit_embedded and stats.embedded_over
    counts: list[Piece] = [
        [("over ", LABEL), (f"{stats.over}", BAD if stats.over else GOOD)],
        [("embedded over ", LABEL), (f"{stats.embedded_over}", BAD if flagged else (VALUE if stats.embedded_over else GOOD))],
        [("tiny ", LABEL), (f"{stats.tiny}", BAD if stats.tiny else GOOD)],
    ]
    if file.parsed.parse_error:
        counts += [[("·", LABEL)], [("syntax errors", BAD)]]
    if show_timings:
        counts += [[("·", LABEL)], [(f"parse {file.parse_ms:.0f} ms  chunk {document.chunking.chunk_ms:.0f} ms", LABEL)]]
    return [sizes, counts]


def _flowed(groups: list[list[Piece]], width: int | None) -> list[Text]:
    """Each group on lines of its own, its figures two spaces apart and wrapped between figures
    where ``width`` is reached: a figure is never cut (a ``·`` does not start a line). The
    spaces end the figure before them (a leading space in a span can be lost in an SVG)."""
    lines: list[Text] = []
    for group in groups:
        line = Text(no_wrap=True, overflow="ellipsis")
        last = LABEL
        for k, piece in enumerate(group):
            size = sum(len(part) for part, _ in piece)
            follows = piece == [("·", LABEL)] and k + 1 < len(group)
            need = size + (len(group[k + 1][0][0]) + 2 if follows else 0)  # a · stays with what follows
            if line.plain and width is not None and len(line.plain) + 2 + need > width:
                lines.append(line)
                line = Text(no_wrap=True, overflow="ellipsis")
            elif line.plain:
                line.append("  ", last)
            for part, style in piece:
                line.append(part, style)
            last = piece[-1][1]
        lines.append(line)
    return lines


def stats_lines(document: Document | None, *, show_timings: bool, pending: ChunkOptions | None = None,
                width: int | None = None) -> list[Text]:
    """The stats of ``document`` line by line, whole within ``width`` cells (wrapped between
    figures); ``pending``: newer parameters being applied (the figures shown are still those of
    the document's own parameters, and say so, in a first line)."""
    if document is None:
        return [Text("no file open", style=LABEL)]
    file = document.file
    if file.partial:
        return [Text(f"{plural(file.source.line_count, 'line')}: parsing and chunking…", style=LABEL)]
    lines = _flowed(_figures(document, show_timings), width) + [histogram(document.chunking.stats, width)]
    if pending is not None:
        busy = Text(no_wrap=True, overflow="ellipsis")
        busy.append(f"re-chunking for {limit_text(pending)}…", BUSY)
        busy.append(f" these figures: {limit_text(document.options)}", LABEL)
        lines.insert(0, busy)
    return lines


def stats_text(document: Document | None, *, show_timings: bool, pending: ChunkOptions | None = None,
               width: int | None = None) -> Text:
    """:func:`stats_lines` as one text."""
    return Text("\n", no_wrap=True, overflow="ellipsis").join(
        stats_lines(document, show_timings=show_timings, pending=pending, width=width))


class StatsPanel(Widget):
    """The stats of the open file, whole at the panel's width: as many lines as the figures
    take there (the height changes only when that count does: updates repaint, they re-layout
    only then; the line saying it is re-chunking pushes the bars out of view for a while)."""

    DEFAULT_CSS = """
    StatsPanel { height: 3; padding: 0 1; }
    """

    def __init__(self, *, show_timings: bool = True, id: str | None = None):
        super().__init__(id=id)
        self.show_timings = show_timings
        self._document: Document | None = None
        self._pending: ChunkOptions | None = None

    def show_document(self, document: Document | None, pending: ChunkOptions | None = None) -> None:
        self._document, self._pending = document, pending
        self._fit()
        self.refresh()

    def on_resize(self) -> None:
        self._fit()

    def _fit(self) -> None:
        width = self.content_region.width or None
        lines = len(stats_lines(self._document, show_timings=self.show_timings, width=width))
        height = max(3, lines)  # (3: a file being read shows one line, and the layout stays)
        if self.styles.height is None or self.styles.height.value != height:
            self.styles.height = height

    def render(self) -> Text:
        return stats_text(self._document, show_timings=self.show_timings, pending=self._pending,
                          width=self.content_region.width or None)
