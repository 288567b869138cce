"""Where the tool keeps what it can compute again (embedding vectors, the definitions
parsed from a history): the user's cache folder, never the explored repository.

``CHUNK_EXPLORER_CACHE`` overrides the folder, or turns the disk cache off (``off``):
a served explorer sets it for its visitors' apps (into the folder it may write, or off)."""

from __future__ import annotations

import os

#: The environment variable naming the cache folder, or ``off``.
CACHE_VARIABLE = "CHUNK_EXPLORER_CACHE"


def cache_file(name: str) -> str | None:
    """``$CHUNK_EXPLORER_CACHE/NAME``, else ``$XDG_CACHE_HOME/chunk-explorer/NAME`` (``~/.cache``
    when unset); None when the disk cache is off (the callers keep what they compute in memory)."""
    chosen = os.environ.get(CACHE_VARIABLE, "")
    if chosen.strip().lower() == "off":
        return None
    if chosen:
        return os.path.join(chosen, name)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "chunk-explorer", name)
