"""Turning rich ``Text`` into ``Strip``s for the Line-API widgets."""

from __future__ import annotations

from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.strip import Strip


def text_strip(text: Text, console: Console, base: Style) -> Strip:
    """A strip of one line of text, every cell carrying at least the ``base`` style.

    (``Text.render`` leaves a span-less text unstyled: its own style is normally
    applied by the console, which Line-API widgets bypass.)
    """
    own = console.get_style(text.style) if isinstance(text.style, str) else text.style
    segments = list(text.render(console))
    return Strip(Segment.apply_style(segments, base + own), text.cell_len)
