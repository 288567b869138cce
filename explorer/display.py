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


def format_pct(value: float | None) -> str:
    """A percentage without its sign: two decimals under 10 (``0.25``), one from 10
    (``12.5``), ``0`` as ``0.0``; ``-`` when undefined (nothing to divide by)."""
    if value is None:
        return "-"
    return f"{value:.1f}" if value >= 10 or value == 0 else f"{value:.2f}"


def format_num(value: float | None) -> str:
    """A count or size with thousands separators, one decimal only when it is not
    whole (a median of an even count); ``-`` when undefined."""
    if value is None:
        return "-"
    return f"{value:,.0f}" if float(value).is_integer() else f"{value:,.1f}"
