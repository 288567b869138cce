"""Letting the engine's process pools start inside the Textual app.

multiprocessing's resource tracker, started the first time a forkserver or spawn
pool starts a process, passes ``sys.stderr.fileno()`` to its child. While the app
runs, Textual has replaced ``sys.stderr`` with a capture object whose ``fileno()``
is -1, and the tracker fails with "bad value(s) in fds_to_keep". So the app starts
the tracker when it loads, before Textual captures stderr; every later pool reuses
it. Nothing of the process (``sys.stderr`` included) is swapped or patched.
"""

from __future__ import annotations

import contextlib


def start_resource_tracker() -> None:
    """Start multiprocessing's resource tracker now (cheap once it runs). Call it from
    the app's load handler, while ``sys.stderr`` is still the embedding process's."""
    from multiprocessing import resource_tracker

    # Without a usable stderr at all, pools fail per run instead, and say so.
    with contextlib.suppress(Exception):
        resource_tracker.ensure_running()
