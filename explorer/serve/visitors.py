"""Each visitor's explorer: the command line and environment of its process, and the
count of visitors against the cap.

The command starts with ``exec`` (textual-serve runs it through ``/bin/sh``): the shell
becomes the explorer, so the explorer's parent is the server itself, and its lifeline
(:func:`explorer.tui.served.hold_lifeline`) watches the right process.
"""

from __future__ import annotations

import os
import shlex
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field

from ..engine.batch import JOBS_VARIABLE
from ..workspace.cache_dir import CACHE_VARIABLE
from ..workspace.confine import Confinement

#: The folder inside the write folder that holds a served app's caches.
CACHE_FOLDER = ".cache"


@dataclass(frozen=True, slots=True)
class ServeConfig:
    """What ``chunk-explorer serve`` was asked for."""

    confinement: Confinement
    host: str = "127.0.0.1"
    port: int = 8000
    #: The secret every page URL must carry (``?token=``); None: none asked.
    token: str | None = None
    #: ``--teach FILE``: every visitor starts in teach mode on it (resolved, under the root).
    teach: str | None = None
    max_visitors: int = 30
    #: PATH and the chunking, walk and settings flags, as typed, for every visitor's explorer
    #: (run in the server's folder, so a relative PATH means the same).
    explorer_args: tuple[str, ...] = ()
    python: str = field(default=sys.executable)
    title: str = "Chunk Explorer"

    @property
    def root(self) -> str:
        return self.confinement.root


def app_command(config: ServeConfig, open_file: str | None = None) -> str:
    """The shell command of one visitor's explorer (every part quoted)."""
    argv = [config.python, "-m", "explorer", *config.explorer_args, "--served"]
    if config.confinement.write_dir is not None:
        argv += ["--write-to", config.confinement.write_dir]
    if config.teach is not None:
        argv += ["--teach", config.teach]
    if open_file is not None:
        argv += ["--open", open_file]
    return "exec " + shlex.join(argv)


def app_environment(config: ServeConfig, base: Mapping[str, str] | None = None) -> dict[str, str]:
    """The variables a visitor's explorer needs on top of the server's: one core each (no
    worker processes), and caches in the write folder, or none on disk."""
    environment = dict(os.environ if base is None else base)
    environment[JOBS_VARIABLE] = "1"
    folder = config.confinement.write_dir
    environment[CACHE_VARIABLE] = "off" if folder is None else os.path.join(folder, CACHE_FOLDER)
    return environment


class Visitors:
    """The visitors connected now, at most ``limit``."""

    def __init__(self, limit: int):
        self.limit = limit
        self.connected = 0
        self.served = 0

    @property
    def full(self) -> bool:
        return self.connected >= self.limit

    def arrive(self) -> bool:
        """Count a new visitor in; False when the server is full."""
        if self.full:
            return False
        self.connected += 1
        self.served += 1
        return True

    def leave(self) -> None:
        self.connected = max(0, self.connected - 1)

