"""Text from data (file names, paths, messages and queries that quote them) as both faces
show it on a terminal: on one line, every control character as a visible symbol (a
newline in a file name reads ``␊``, an escape sequence can never reach the terminal).

One character stands for one character (a tab is one space), so offsets into the text
still hold (the explorer highlights matched letters by them), and a name reads the same
in the explorer as on the CLI's stderr.
"""

from __future__ import annotations

from .engine.text import display_line


def visible(text: str) -> str:
    """``text`` on one line with its control characters as visible symbols, one for one."""
    return display_line(text, tab_size=1)[0]
