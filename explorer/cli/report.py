"""What a headless run tells the user on stderr: warnings and errors, progress bars (only
on a terminal) and the closing summary. stdout is left to the data (:mod:`.output`)."""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, TextIO

from ..display import plural, skipped_lines
from ..terminal_text import visible

if TYPE_CHECKING:
    from ..engine.batch import BatchResult
    from ..engine.batch.skips import SkipRecord
    from ..engine.batch.tally import RunTally
    from ..workspace.walk import WalkPlan

if TYPE_CHECKING:  # the evaluation's types only: numpy is loaded when a verb evaluates
    from ..engine.retrieval import EvalProgress, SettingEval

#: Failures listed one by one in the summary before "... and N more".
MAX_LISTED_FAILURES = 20
#: Off a terminal (a CI log), a progress line at most this often (seconds).
PROGRESS_LINE_SECONDS = 5.0


def say(message: str, stream: TextIO | None = None) -> None:
    print(message, file=stream or sys.stderr)


def warn_about_walk(files_plan: WalkPlan) -> None:
    """Ignore files whose rules did not apply, on stderr: files they meant to leave out are in."""
    for warning in files_plan.warnings:
        say(f"chunk-explorer: warning: ignore file not read: {visible(warning)}")


def warn_about_cache(problem: str | None) -> None:
    """Why the results cache was not used or not written (the run itself went on), on stderr."""
    if problem:
        say(f"chunk-explorer: warning: {visible(problem)}")


def error(message: str) -> None:
    say(f"chunk-explorer: error: {message}")


def stderr_is_terminal() -> bool:
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False


@contextlib.contextmanager
def progress_bar(total: int, description: str, enabled: bool) -> Iterator[Callable[[int, int | None, BatchResult], None]]:
    """A rich progress bar on stderr, or a no-op. Yields an ``on_progress`` callback."""
    if not enabled or total == 0:
        yield lambda completed, total_, result: None
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TaskProgressColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    console = Console(file=sys.stderr)
    progress = Progress(
        TextColumn(description),
        BarColumn(),
        MofNCompleteColumn(),
        TaskProgressColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        # File names are data, never markup.
        TextColumn("{task.fields[current]}", markup=False),
        console=console,
        transient=True,
    )
    task = progress.add_task(description, total=total, current="")

    def on_progress(completed: int, total_: int | None, result: BatchResult) -> None:
        # ``total_``: the files actually chunked (an incremental run chunks only the changed ones).
        progress.update(task, completed=completed, total=total_ or total, current=_short(result.path))

    with progress:
        yield on_progress


@contextlib.contextmanager
def progress_report(total: int, description: str, *, quiet: bool) -> Iterator[
        Callable[[int, int | None, BatchResult], None]]:
    """Progress on stderr: the bar of :func:`progress_bar` on a terminal; elsewhere (a CI
    log) a line such as ``chunking: 120/1,779 files (6%), 12s`` every
    :data:`PROGRESS_LINE_SECONDS`, and the last one; nothing with ``quiet``."""
    if quiet or stderr_is_terminal():
        with progress_bar(total, description, not quiet) as bar:
            yield bar
        return
    started = last = time.monotonic()
    shown = False

    def on_progress(completed: int, total_: int | None, result: BatchResult) -> None:
        nonlocal last, shown
        now = time.monotonic()
        of = total_ or total
        if now - last >= PROGRESS_LINE_SECONDS or (shown and completed == of):
            last, shown = now, True
            share = f" ({completed * 100 // of}%)" if of else ""
            say(f"{description}: {completed:,}/{of:,} files{share}, {now - started:.0f}s")

    yield on_progress


@contextlib.contextmanager
def eval_progress(files: int, settings: int, enabled: bool) -> Iterator[
        tuple[Callable[[EvalProgress], None] | None, Callable[[SettingEval], None] | None]]:
    """The evaluation's progress bars on stderr (chunking files, reading the history, then
    settings scored, and the retriever's work within a setting), or nothing."""
    if not enabled:
        yield None, None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from ..engine.retrieval import CHUNKING, RETRIEVING
    from ..engine.retrieval.results import READING_HISTORY

    progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                        console=Console(file=sys.stderr), transient=True)
    chunking = progress.add_task("chunking files", total=files)
    history = progress.add_task("reading history", total=None, visible=False)
    scored = progress.add_task("settings scored", total=settings)
    step = progress.add_task("retrieving", total=None, visible=False)

    def on_progress(event: EvalProgress) -> None:
        if event.stage == CHUNKING:
            progress.update(chunking, completed=event.done, total=event.total or files)
        elif event.stage == READING_HISTORY:
            progress.update(history, completed=event.done, total=event.total, visible=True,
                            description="reading history (commits)" if event.total else "parsing changed files")
        elif event.stage == RETRIEVING and event.total:
            progress.update(step, completed=event.done, total=event.total, visible=True,
                            description=f"retrieving (setting {(event.setting or 0) + 1})")

    def on_setting(_: SettingEval) -> None:
        progress.advance(scored)
        progress.update(step, visible=False)

    with progress:
        yield on_progress, on_setting


def _short(path: str, width: int = 40) -> str:
    path = visible(path)
    return path if len(path) <= width else "..." + path[-(width - 3):]


def summary_lines(tally: RunTally, seconds: float, jobs: int, verb: str = "Chunked", *,
                  listed_in: str = "") -> list[str]:
    """The closing lines of a run: what was done, then what was left out (``listed_in``:
    the output that lists every skipped input, when more are left out than are named)."""
    rate = f", {tally.bytes / 1e6 / seconds:.1f} MB/s" if seconds > 0 and tally.bytes else ""
    headline = (f"{verb} {plural(tally.files, 'file')} into {plural(tally.chunks, 'chunk')} "
                f"in {seconds:.2f} s ({plural(jobs, 'job')}{rate}).")
    return [headline, *left_out_lines(tally.skipped, tally.failed, listed_in=listed_in, partial=tally.partial)]


def left_out_lines(skipped: Sequence[SkipRecord], failed: Sequence[BatchResult], *, listed_in: str = "",
                   partial: Sequence[tuple[str, Sequence[str]]] = ()) -> list[str]:
    """What a run skipped, named by reason, the parts left out of files it chunked, and the
    files that failed, listed."""
    lines = skipped_lines(skipped, more=f"all in {listed_in}" if listed_in else "")
    if partial:
        lines.append(f"Left parts out of {plural(len(partial), 'file')}:")
        for rel, parts in partial[:MAX_LISTED_FAILURES]:
            lines.append(f"  {visible(rel)}: {visible(', '.join(parts))}")
        if len(partial) > MAX_LISTED_FAILURES:
            lines.append(f"  ... and {len(partial) - MAX_LISTED_FAILURES} more" + (f" (all in {listed_in})" if listed_in else ""))
    if failed:
        lines.append(f"Failed {plural(len(failed), 'file')}:")
        for result in failed[:MAX_LISTED_FAILURES]:
            lines.append(f"  {visible(result.path)}: {visible(result.error or '')}")
        if len(failed) > MAX_LISTED_FAILURES:
            lines.append(f"  ... and {len(failed) - MAX_LISTED_FAILURES} more" + (f" (all in {listed_in})" if listed_in else ""))
    return lines
