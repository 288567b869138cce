"""Small pieces of wording shared by the panes."""

from __future__ import annotations


def counted(count: int, noun: str) -> str:
    """``1 chunk``, ``2 chunks``, ``0 chunks`` (``noun`` is the singular)."""
    return f"{count} {noun}{'' if count == 1 else 's'}"
