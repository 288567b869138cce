"""Plain-text figures shared by the CLI and the explorer (no Rich, no Textual)."""

from __future__ import annotations

BLOCKS = " ▏▎▍▌▋▊▉█"  # eighths of a cell


def bar(value: float, peak: float, width: int) -> str:
    """A horizontal bar of ``width`` cells at full scale, in eighths of a cell."""
    if peak <= 0 or value <= 0:
        return " " * width
    eighths = max(1, round(value / peak * width * 8))
    full, rest = divmod(eighths, 8)
    return ("█" * full + (BLOCKS[rest] if rest else "")).ljust(width)


def human_bytes(count: float) -> str:
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if count >= scale:
            return f"{count / scale:.1f} {unit}"
    return f"{int(count)} B"
