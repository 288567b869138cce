"""What a served explorer may read and write: files under its PATH, and one folder the
teacher names (or nothing at all).

The server checks a visitor's requests with it before starting an app, and the app checks
every file it opens and every file it writes with it, so a path that climbs out with
``..``, an absolute path, or a link inside PATH that leads elsewhere is refused in both
places. Paths are compared after resolving links (:func:`os.path.realpath`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass


class PathRefused(ValueError):
    """A path a served explorer must not read or write; the message says why."""


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


@dataclass(frozen=True, slots=True)
class Confinement:
    """The folder a served explorer reads under, and the one it writes into (None: it writes nothing)."""

    root: str
    write_dir: str | None = None

    @classmethod
    def of(cls, root: str, write_dir: str | None = None) -> Confinement:
        return cls(os.path.realpath(root), os.path.realpath(write_dir) if write_dir else None)

    # -- reading ---------------------------------------------------------------------------
    def read_refusal(self, path: str) -> str | None:
        """Why ``path`` (absolute, or relative to the root) must not be opened, or None."""
        target = os.path.realpath(os.path.join(self.root, path))
        if not _inside(target, self.root):
            return f"{path} is outside the folder being served ({self.root})"
        return None

    def readable(self, path: str) -> str:
        """The resolved path of a file under the root (``path`` absolute, or relative to the
        root). Raises PathRefused outside it, and for anything but a regular file."""
        refusal = self.read_refusal(path)
        if refusal is not None:
            raise PathRefused(refusal)
        target = os.path.realpath(os.path.join(self.root, path))
        if not os.path.isfile(target):
            raise PathRefused(f"{path} is not a file under the folder being served")
        return target

    # -- writing ---------------------------------------------------------------------------
    @property
    def writes(self) -> bool:
        return self.write_dir is not None

    def write_refusal(self, target: str) -> str | None:
        """Why ``target`` (an absolute path) must not be written, or None."""
        if self.write_dir is None:
            return "this served explorer writes nothing (the server was started without --write-to)"
        # The folder the file would land in, with its links resolved; the name itself must
        # not be a link (replacing it would write wherever it leads).
        folder = os.path.realpath(os.path.dirname(os.path.abspath(target)))
        if not _inside(folder, self.write_dir) or os.path.islink(target):
            return f"{target} is outside the folder this served explorer writes into ({self.write_dir})"
        return None

    def writable(self, target: str) -> str:
        """``target`` made absolute; raises PathRefused outside the write folder."""
        refusal = self.write_refusal(target)
        if refusal is not None:
            raise PathRefused(refusal)
        return os.path.abspath(target)
