"""Letting the engine's process pools start inside the Textual app.

Textual replaces ``sys.stderr`` with a capture object whose ``fileno()`` is -1.
multiprocessing's resource tracker, started the first time a forkserver or spawn
pool starts a process, passes ``sys.stderr.fileno()`` to its child and fails with
"bad value(s) in fds_to_keep". Starting the tracker once with the real stderr in
place (on the UI thread, so no other code sees the swap) avoids that; every later
pool reuses the running tracker.
"""

from __future__ import annotations

import sys


def prepare_process_pools() -> None:
    """Start multiprocessing's resource tracker with a real stderr (cheap once it runs)."""
    from multiprocessing import resource_tracker

    try:
        if sys.stderr is not None and sys.stderr.fileno() >= 0:
            resource_tracker.ensure_running()
            return
    except (AttributeError, OSError, ValueError):
        pass
    captured, sys.stderr = sys.stderr, sys.__stderr__
    try:
        resource_tracker.ensure_running()
    except Exception:  # no usable stderr at all: pools fall back to failing per run, reported
        pass
    finally:
        sys.stderr = captured
