"""What changes when the explorer runs for a visitor of ``chunk-explorer serve``.

Each visitor's browser gets an app process of its own, started by the server with
``--served``. Such an app reads only under PATH and writes only into the folder the
teacher named (``--write-to``; none: it writes nothing), as :class:`Serving` decides
with the workspace's :class:`~explorer.workspace.confine.Confinement`. It also dies with
the server whatever kills it (:func:`hold_lifeline`): the kernel sends it SIGTERM when
its parent dies (Linux), and a watchdog thread checks the parent as well.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import sys
import threading
import time
from dataclasses import dataclass

from explorer.workspace.confine import Confinement
from explorer.workspace.settings import SETTINGS_FILE

#: How often the watchdog looks at the parent, and how long a clean exit may take after SIGTERM.
WATCH_EVERY = 0.5
EXIT_GRACE = 3.0
#: prctl(2)'s option asking for a signal when the parent dies.
PR_SET_PDEATHSIG = 1


@dataclass(frozen=True, slots=True)
class Serving:
    """The rules of a served app."""

    confinement: Confinement

    @property
    def writes(self) -> bool:
        return self.confinement.writes

    def settings_target(self) -> str | None:
        """Where saved settings go: the write folder's settings file (None: nowhere)."""
        folder = self.confinement.write_dir
        return None if folder is None else os.path.join(folder, SETTINGS_FILE)

    def notice(self) -> str:
        """What a visitor is told when the app starts."""
        where = self.confinement.write_dir
        writes = (f"exports and saved settings go to {where} only" if where is not None
                  else "exports and saving settings are off (the server names no folder to write into)")
        return (f"Served: files are read only under {self.confinement.root}; {writes}; "
                "screenshots download to your browser.")


def hold_lifeline(parent: int | None = None) -> None:
    """Make this process end when its parent (the server) does, however the parent ends."""
    expected = os.getppid() if parent is None else parent
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    if os.getppid() != expected:  # the parent died before the request above took effect
        _end()
    threading.Thread(target=_watch, args=(expected,), name="served-lifeline", daemon=True).start()


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(WATCH_EVERY)
    _end()


def _end() -> None:
    """SIGTERM first (Textual's web driver exits the app cleanly on it), then SIGKILL."""
    for signum in (signal.SIGTERM, signal.SIGKILL):
        with contextlib.suppress(OSError):
            os.kill(os.getpid(), signum)
        time.sleep(EXIT_GRACE)
