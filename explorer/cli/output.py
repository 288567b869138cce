"""What a verb writes to stdout: a JSON document, or tables on a console. (Progress and
the run's summary go to stderr: :mod:`.report`.)"""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # rich is imported when a table is printed, not at start-up
    from rich.console import Console

#: Table width when stdout is not a terminal (a file or a pipe).
PIPE_WIDTH = 180


def print_json(document: Any) -> None:
    """The verb's ``--json`` document on stdout, indented, ending with a newline."""
    json.dump(document, sys.stdout, indent=2)
    sys.stdout.write("\n")


def console(pipe_width: int = PIPE_WIDTH) -> Console:
    """The console tables go to: the terminal's width, or ``pipe_width`` in a pipe."""
    from rich.console import Console

    return Console(width=None if sys.stdout.isatty() else pipe_width, highlight=False)
