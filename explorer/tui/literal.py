"""Text from disk (file names, paths, errors that quote them) shown exactly as written.

Titles, labels and palette entries given a ``str`` read it as markup: a file named
``[@click=app.quit]ok.py`` would show as ``ok.py`` and quit the app when clicked.
Everything that interpolates such text goes through here (or passes ``markup=False``).
"""

from __future__ import annotations

from textual.content import Content
from textual.fuzzy import Matcher

from explorer.engine.text import display_line


def visible(text: str) -> str:
    """``text`` on one line: control characters (a newline in a file name) as visible
    symbols, one for one (a tab is one space), so offsets into ``text`` still hold."""
    return display_line(text, tab_size=1)[0]


def literal(text: str) -> Content:
    """``text`` for a title or label: never markup, on one line."""
    return Content(visible(text))


def highlighted(matcher: Matcher, candidate: str) -> Content:
    """``candidate`` literally, with the letters the palette query matched highlighted
    (``Matcher.highlight`` would read the candidate as markup)."""
    content = literal(candidate)
    score, offsets = matcher.fuzzy_search.match(matcher.query, candidate)
    if not score:
        return content
    for offset in offsets:
        if not candidate[offset].isspace():
            content = content.stylize(matcher.match_style, offset, offset + 1)
    return content
