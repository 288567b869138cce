"""The grid of settings sweep and eval compare: the axis flags (comma-separated values;
every combination is a setting), the settings they make over the effective ones, and a
setting picked by its # or its max size."""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence
from typing import Any

from ..display import grid_label
from ..engine.measure.per_setting import varied_fields
from ..engine.measure.sweep import DEFAULT_MAX_SIZES, Merged, chunking_of, distinct_settings, settings_grid
from ..engine.options import CONTEXT_MODES, SIZE_UNITS, ChunkOptions
from . import options as cli_options
from .errors import UsageError
from .flag_types import option_list
from .report import say

#: Grid axes in table order (slowest first): ChunkOptions field -> argparse destination.
AXES = {
    "size_unit": "sweep_size_unit",
    "strategy": "sweep_strategy",
    "context_mode": "sweep_context",
    "max_size": "sweep_max_size",
    "overlap_lines": "sweep_overlap_lines",
}


def add_axes(parser: argparse.ArgumentParser, default_sizes: str, context_help: str) -> argparse._ArgumentGroup:
    """The grid flags: every combination of the listed values is a setting."""
    axes = parser.add_argument_group("settings to compare (comma-separated; every combination is run)")
    axes.add_argument("--max-size", dest="sweep_max_size", type=option_list("max_size"), metavar="LIST",
                      help=f"largest chunk, in the size unit (default {default_sizes} for nws)")
    axes.add_argument("--overlap-lines", dest="sweep_overlap_lines", type=option_list("overlap_lines"), metavar="LIST",
                      help="lines of the previous chunk repeated before each chunk, e.g. 0,5")
    axes.add_argument("--size-unit", dest="sweep_size_unit", type=option_list("size_unit"), metavar="LIST",
                      help=f"size units: {', '.join(SIZE_UNITS)}")
    axes.add_argument("--context", dest="sweep_context", type=option_list("context_mode"), metavar="LIST",
                      help=f"{context_help}: {', '.join(CONTEXT_MODES)}")
    axes.add_argument("--strategy", dest="sweep_strategy", type=option_list("strategy"), metavar="LIST",
                      help="ast and/or lines (the line-packing baseline)")
    cli_options.add_token_options(axes)
    return axes


def build_settings(args: argparse.Namespace, base: ChunkOptions,
                   default_sizes: Mapping[str, Sequence[int]] = DEFAULT_MAX_SIZES) -> list[ChunkOptions]:
    """The cartesian product of the listed values over ``base``; max sizes default per unit
    (``default_sizes``) when none are listed."""
    axes: dict[str, list[Any]] = {}
    for name, dest in AXES.items():
        if getattr(args, dest, None):
            axes[name] = list(getattr(args, dest))
    if "max_size" in axes:
        return settings_grid(base, axes)
    grid: list[ChunkOptions] = []
    for unit in axes.get("size_unit", [base.size_unit]):
        for setting in settings_grid(base, {**axes, "size_unit": [unit], "max_size": list(default_sizes[unit])}):
            if setting not in grid:
                grid.append(setting)
    return grid


def merge_equivalents(settings: list[ChunkOptions], *, quiet: bool = False) -> tuple[list[ChunkOptions], list[Merged]]:
    """The grid without the points that cannot differ from another (overlap under context
    none), each left out said on stderr (unless ``quiet``) with the setting it equals."""
    kept, merged = distinct_settings(settings)
    varied = varied_fields(settings)
    if not quiet:
        for point in merged:
            say(f"Left out {grid_label(point.options, varied)}: the same chunks as #{point.same_as + 1} "
                f"({grid_label(kept[point.same_as], varied)}); {point.why}.")
    return kept, merged


def current_index(settings: Sequence[ChunkOptions], options: ChunkOptions) -> int | None:
    """The position of the settings in effect now among ``settings``, if they are listed
    (a grid point left out as the same as another stands for it)."""
    chunking = chunking_of(options)
    return next((i for i, s in enumerate(settings) if chunking_of(s) == chunking), None)


def pick_setting(text: str, settings: list[ChunkOptions], flag: str = "--save") -> int:
    """The index a flag picks: a number from the # column (``2`` or ``#2``), or a max
    size that only one setting has. Raises UsageError."""
    raw = text.strip()
    as_index = raw.startswith("#")
    try:
        number = int(raw.lstrip("#"))
    except ValueError:
        raise UsageError(f"{flag} takes a number from the # column or a max size, not {text!r}") from None
    if 1 <= number <= len(settings):
        return number - 1
    if as_index:
        raise UsageError(f"{flag} {text}: the sweep has settings #1 to #{len(settings)}")
    matches = [i for i, s in enumerate(settings) if s.max_size == number]
    if len(matches) == 1:
        return matches[0]
    if matches:
        listed = ", ".join(f"#{i + 1}" for i in matches)
        raise UsageError(f"{flag} {text}: several settings have max size {number} ({listed}); give the # instead")
    sizes = ", ".join(str(s) for s in dict.fromkeys(s.max_size for s in settings))
    raise UsageError(f"{flag} {text}: no setting has that number or max size (numbers 1-{len(settings)}, "
                     f"max sizes {sizes})")
