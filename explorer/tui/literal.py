"""Text from disk (file names, paths, errors that quote them) shown exactly as written.

Titles, labels and palette entries given a ``str`` read it as markup: a file named
``[@click=app.quit]ok.py`` would show as ``ok.py`` and quit the app when clicked.
Everything that interpolates such text goes through here (or passes ``markup=False``);
the characters themselves are made visible by :func:`explorer.terminal_text.visible`, as
the CLI shows them.
"""

from __future__ import annotations

from textual.content import Content
from textual.fuzzy import Matcher

from explorer.terminal_text import visible


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
