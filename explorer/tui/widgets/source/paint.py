"""Painting one line of source: tokens coloured, chunk backgrounds underneath, a cursor on top.

Pure rich (no Textual): the source view calls this for each line it shows, so
it works in display indices of an already safe line (``display_line`` output)
and merges the few style runs of a line in one sweep, without ``Text`` objects.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.segment import Segment
from rich.style import Style

#: (start, end, style) over display indices, end exclusive.
Run = tuple[int, int, Style]


class StyleMixer:
    """Combines base, background and foreground styles, remembering each combination."""

    def __init__(self, base: Style, cursor: Style):
        self.base = base
        self.cursor = cursor
        self._mixed: dict[tuple[Style | None, Style | None, bool], Style] = {}

    def mix(self, background: Style | None, foreground: Style | None, cursor: bool = False) -> Style:
        key = (background, foreground, cursor)
        style = self._mixed.get(key)
        if style is None:
            style = self.base
            if background is not None:
                style += background
            if foreground is not None:
                style += foreground
            if cursor:
                style += self.cursor
            self._mixed[key] = style
        return style


def paint_line(
    shown: str,
    tokens: Sequence[Run],
    backgrounds: Sequence[Run],
    mixer: StyleMixer,
    cursor: int | None = None,
    pad: Style | None = None,
) -> list[Segment]:
    """Segments for a line. ``tokens`` are ascending and may leave gaps; later
    ``backgrounds`` win where they overlap earlier ones. A cursor past the end
    of the line is drawn on an extra blank cell with the ``pad`` background."""
    length = len(shown)
    points = {0, length}
    for start, end, _ in backgrounds:
        points.add(max(0, min(start, length)))
        points.add(max(0, min(end, length)))
    for start, end, _ in tokens:
        points.add(min(start, length))
        points.add(min(end, length))
    if cursor is not None and cursor < length:
        points.add(cursor)
        points.add(cursor + 1)
    bounds = sorted(points)
    segments: list[Segment] = []
    token_index = 0
    for a, b in zip(bounds, bounds[1:]):
        if a >= b:
            continue
        while token_index < len(tokens) and tokens[token_index][1] <= a:
            token_index += 1
        foreground = None
        if token_index < len(tokens) and tokens[token_index][0] <= a:
            foreground = tokens[token_index][2]
        background = None
        for start, end, style in backgrounds:
            if start <= a < end:
                background = style
        segments.append(Segment(shown[a:b], mixer.mix(background, foreground, a == cursor)))
    if cursor is not None and cursor >= length:
        segments.append(Segment(" ", mixer.mix(pad, None, True)))
    return segments
