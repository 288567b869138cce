"""Stopping long work: one stop check and one exception, for the whole code base.

Long work (chunking a huge file, a sweep, an evaluation, an embedding run, an export, a
trace) takes ``should_stop``, a :data:`ShouldStop` it asks every few milliseconds (a thread
cannot be interrupted otherwise). When it answers True, the work stops: inside a step it
raises :class:`Cancelled`; between files or settings it returns what it finished, marked
incomplete (each function's doc says which).
"""

from __future__ import annotations

from collections.abc import Callable

#: ``should_stop()``: True when the caller wants the work to stop.
ShouldStop = Callable[[], bool]


class Cancelled(Exception):
    """Raised inside long work when its ``should_stop()`` said so."""


def stop_asked(should_stop: ShouldStop | None) -> bool:
    """Whether ``should_stop`` is given and says to stop."""
    return should_stop is not None and should_stop()


def stop_if_asked(should_stop: ShouldStop | None) -> None:
    """Raise :class:`Cancelled` when ``should_stop`` is given and says so."""
    if should_stop is not None and should_stop():
        raise Cancelled
