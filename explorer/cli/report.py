"""What a headless run tells the user on stderr: a progress bar (only on a terminal)
and the closing summary. stdout is left to the data."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator
from typing import TextIO

from ..engine.batch import BatchResult
from ..terminal_text import visible
from ..workspace.export_run import ExportTally
from ..workspace.walk import REASONS, WalkPlan

#: Failures listed one by one in the summary before "... and N more".
MAX_LISTED_FAILURES = 20


def plural(count: int, word: str, many: str | None = None) -> str:
    return f"{count:,} {word if count == 1 else (many or word + 's')}"


def say(message: str, stream: TextIO | None = None) -> None:
    print(message, file=stream or sys.stderr)


def warn_about_walk(files_plan: WalkPlan) -> None:
    """Ignore files whose rules did not apply, on stderr: files they meant to leave out are in."""
    for warning in files_plan.warnings:
        say(f"chunk-explorer: warning: ignore file not read: {visible(warning)}")


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
        progress.update(task, completed=completed, current=_short(result.path))

    with progress:
        yield on_progress


def _short(path: str, width: int = 40) -> str:
    path = visible(path)
    return path if len(path) <= width else "..." + path[-(width - 3):]


class RunTally(ExportTally):
    """The export's counts (the summary's schema is the export pipeline's), plus the
    closing lines on stderr."""

    def summary_lines(self, seconds: float, jobs: int, verb: str = "Chunked") -> list[str]:
        rate = f", {self.bytes / 1e6 / seconds:.1f} MB/s" if seconds > 0 and self.bytes else ""
        lines = [
            f"{verb} {plural(self.files, 'file')} into {plural(self.chunks, 'chunk')} "
            f"in {seconds:.2f} s ({plural(jobs, 'job')}{rate})."
        ]
        by_reason = self.skipped_by_reason()
        if by_reason:
            parts = ", ".join(f"{n:,} {REASONS.get(reason, reason)}" for reason, n in by_reason.items())
            lines.append(f"Skipped {plural(len(self.skipped), 'file or directory', 'files or directories')}: {parts}.")
        if self.failed:
            lines.append(f"Failed {plural(len(self.failed), 'file')}:")
            for result in self.failed[:MAX_LISTED_FAILURES]:
                lines.append(f"  {visible(result.path)}: {visible(result.error or '')}")
            if len(self.failed) > MAX_LISTED_FAILURES:
                lines.append(f"  ... and {len(self.failed) - MAX_LISTED_FAILURES} more (all are in the JSON output)")
        return lines

