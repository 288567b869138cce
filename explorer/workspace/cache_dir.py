"""Where the tool keeps what it can compute again (embedding vectors, the definitions
parsed from a history): the user's cache folder, never the explored repository."""

from __future__ import annotations

import os


def cache_file(name: str) -> str:
    """``$XDG_CACHE_HOME/chunk-explorer/NAME`` (``~/.cache`` when the variable is unset)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "chunk-explorer", name)
