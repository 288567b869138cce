"""What ``sweep`` and ``eval`` share: the grid flags (every combination of the listed
values is a setting), building and picking settings, the console both print their
tables on, and the evaluation's progress bars."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ..engine.measure.sweep import DEFAULT_MAX_SIZES, settings_grid
from ..engine.options import CONTEXT_MODES, SIZE_UNITS, STRATEGIES, ChunkOptions
from ..engine.retrieval import CHUNKING, RETRIEVING, EvalProgress, EvalResult, SettingEval
from ..engine.retrieval.recommend import OBJECTIVES, Recommendation
from ..terminal_text import visible
from ..workspace.atomic import check_writable
from ..workspace.export import OutputError
from ..workspace.settings import SETTINGS_FILE, find_settings, save_settings
from . import options as cli_options
from .errors import UsageError

if TYPE_CHECKING:  # rich is imported when there is something to print
    from rich.console import Console

#: Grid axes in table order (slowest first): ChunkOptions field -> argparse destination.
AXES = {
    "size_unit": "sweep_size_unit",
    "strategy": "sweep_strategy",
    "context_mode": "sweep_context",
    "max_size": "sweep_max_size",
    "overlap_lines": "sweep_overlap_lines",
}
#: Table width when stdout is not a terminal (a file or a pipe).
PIPE_WIDTH = 180
#: The context budget of recall@budget when none is given, per size unit (about 4,000
#: non-whitespace characters in each).
DEFAULT_BUDGETS = {"nws": 4000, "chars": 8000, "lines": 200, "tokens": 2000}


# -- flags --------------------------------------------------------------------------------
def _int_list(minimum: int) -> Callable[[str], list[int]]:
    def parse(text: str) -> list[int]:
        values = []
        for part in _parts(text):
            try:
                value = int(part)
            except ValueError:
                raise argparse.ArgumentTypeError(f"expected whole numbers separated by commas, got {part!r}") from None
            if value < minimum:
                raise argparse.ArgumentTypeError(f"every value must be at least {minimum}, got {value}")
            values.append(value)
        return values

    return parse


def _choice_list(choices: tuple[str, ...]) -> Callable[[str], list[str]]:
    def parse(text: str) -> list[str]:
        values = _parts(text)
        wrong = [v for v in values if v not in choices]
        if wrong:
            raise argparse.ArgumentTypeError(f"{', '.join(wrong)} not one of {', '.join(choices)}")
        return values

    return parse


def _parts(text: str) -> list[str]:
    parts = [p.strip() for p in text.split(",") if p.strip()]
    if not parts:
        raise argparse.ArgumentTypeError("expected a comma-separated list of values")
    return parts


def add_axes(parser: argparse.ArgumentParser, default_sizes: str, context_help: str) -> argparse._ArgumentGroup:
    """The grid flags: every combination of the listed values is a setting."""
    axes = parser.add_argument_group("settings to compare (comma-separated; every combination is run)")
    axes.add_argument("--max-size", dest="sweep_max_size", type=_int_list(1), metavar="LIST",
                      help=f"largest chunk, in the size unit (default {default_sizes} for nws)")
    axes.add_argument("--overlap-lines", dest="sweep_overlap_lines", type=_int_list(0), metavar="LIST",
                      help="lines of the previous chunk repeated before each chunk, e.g. 0,5")
    axes.add_argument("--size-unit", dest="sweep_size_unit", type=_choice_list(SIZE_UNITS), metavar="LIST",
                      help=f"size units: {', '.join(SIZE_UNITS)}")
    axes.add_argument("--context", dest="sweep_context", type=_choice_list(CONTEXT_MODES), metavar="LIST",
                      help=f"{context_help}: {', '.join(CONTEXT_MODES)}")
    axes.add_argument("--strategy", dest="sweep_strategy", type=_choice_list(STRATEGIES), metavar="LIST",
                      help="ast and/or lines (the line-packing baseline)")
    cli_options.add_token_options(axes)
    return axes


def add_objective(parser: argparse.ArgumentParser | argparse._ArgumentGroup) -> None:
    """``--objective``: what the recommendation optimises."""
    parser.add_argument("--objective", choices=tuple(OBJECTIVES), default="top5",
                        help="what the recommended setting is best at: top5 (recall@5: you take the top 5 "
                             "chunks, the default) or budget (recall@budget: you fill --budget)")


def budget_config(budget: int | None, settings: Sequence[ChunkOptions]) -> tuple[int, str]:
    """The budget and its unit: the settings' size unit when they share one, else nws;
    the unit's default when ``budget`` is None."""
    units = {s.size_unit for s in settings}
    unit = units.pop() if len(units) == 1 else "nws"
    return (DEFAULT_BUDGETS[unit] if budget is None else budget), unit


def recommendation_lines(result: EvalResult, recommendation: Recommendation) -> list[str]:
    """The recommendation as the CLI prints it: the setting and why, then the evidence."""
    chosen = result.settings[recommendation.setting]
    label = chosen.label(result.varied)
    head = "Keep your current settings" if recommendation.keep_current else f"Recommended: #{chosen.index + 1}"
    lines = [f"{head} ({label}; {chosen.chunks:,} chunks) for --objective {recommendation.objective}: "
             f"{recommendation.reason}."]
    if recommendation.evidence and recommendation.compared is not None:
        other = result.settings[recommendation.compared]
        lines.append(f"Queries that moved most, #{other.index + 1} -> #{chosen.index + 1} ({recommendation.measure}):")
        for moved in recommendation.evidence:
            ranks = f"rank {_rank(moved.rank_before)} -> {_rank(moved.rank_after)}"
            text = " ".join(moved.text.split())
            text = text if len(text) <= 70 else text[:69] + "…"
            lines.append(f"  {100 * moved.before:.0f}% -> {100 * moved.after:.0f}% ({ranks}): {text!r} -> "
                         f"{moved.path}:{moved.line}")
    return lines


def print_recommendation(console: Console, result: EvalResult, recommendation: Recommendation) -> None:
    from rich.text import Text

    console.print()
    for number, line in enumerate(recommendation_lines(result, recommendation)):
        # query texts and paths are data: printable characters only, never markup
        console.print(Text(visible(line), style="bold" if number == 0 else ""))


def _rank(rank: int | None) -> str:
    return "-" if rank is None else str(rank)


# -- the settings ----------------------------------------------------------------------------
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


# -- saving a setting --------------------------------------------------------------------------
def check_save_target(resolved: cli_options.Resolved, root: str, explicit_file: bool) -> str:
    """The settings file --save will write (the one given with --settings, else the one
    found for the root, else a new one in the root), checked before any work."""
    if explicit_file and resolved.settings_path:
        path = resolved.settings_path
    else:
        path = find_settings(root) or os.path.join(root, SETTINGS_FILE)
    try:
        return check_writable(path)
    except OutputError as exc:
        raise UsageError(f"--save: {exc}") from None


def save_setting(options: ChunkOptions, resolved: cli_options.Resolved, root: str, explicit_file: bool) -> str:
    # A --language given on the command line is for this run; the file keeps its own.
    options = replace(options, language=resolved.settings.options.language)
    # --settings FILE: write back to that file; edited in place, comments kept.
    path = resolved.settings_path if explicit_file and resolved.settings_path else None
    return save_settings(root, options, path=path)


# -- output ----------------------------------------------------------------------------------
def console() -> Console:
    """The console tables go to: the terminal's width, or a fixed width in a pipe."""
    from rich.console import Console

    return Console(width=None if sys.stdout.isatty() else PIPE_WIDTH, highlight=False)


@contextlib.contextmanager
def eval_progress(files: int, settings: int, enabled: bool) -> Iterator[
        tuple[Callable[[EvalProgress], None] | None, Callable[[SettingEval], None] | None]]:
    """Progress bars on stderr (chunking files, then settings scored, and the
    retriever's work within a setting), or nothing."""
    if not enabled:
        yield None, None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                        console=Console(file=sys.stderr), transient=True)
    chunking = progress.add_task("chunking files", total=files)
    scored = progress.add_task("settings scored", total=settings)
    step = progress.add_task("retrieving", total=None, visible=False)

    def on_progress(event: EvalProgress) -> None:
        if event.stage == CHUNKING:
            progress.update(chunking, completed=event.done, total=event.total or files)
        elif event.stage == RETRIEVING and event.total:
            progress.update(step, completed=event.done, total=event.total, visible=True,
                            description=f"retrieving (setting {(event.setting or 0) + 1})")

    def on_setting(_: SettingEval) -> None:
        progress.advance(scored)
        progress.update(step, visible=False)

    with progress:
        yield on_progress, on_setting
