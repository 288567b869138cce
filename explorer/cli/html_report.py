"""``--html FILE`` of eval and sweep, and what ``report`` shares with them: the report of a
run written with the one renderer (:mod:`explorer.report.render`), its size said on stderr."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from ..display import human_bytes
from ..terminal_text import visible
from ..workspace.atomic import check_writable
from .errors import require_extra
from .report import say

if TYPE_CHECKING:
    from ..engine.measure.sweep import SweepResult
    from ..report.content import EvaluationPart
    from ..workspace.walk import WalkPlan
    from .frame import Frame


def add_html_option(group: argparse.ArgumentParser | argparse._ArgumentGroup) -> None:
    group.add_argument("--html", metavar="FILE",
                       help="also write this run's report to FILE: one self-contained HTML page (the files and "
                            "their chunks, the tables and figures), the same as `chunk-explorer report` draws")


def check_html_target(args: argparse.Namespace) -> None:
    """Fail before any work when ``--html`` cannot be written (OutputError) or drawn (MissingExtra)."""
    if getattr(args, "html", None):
        require_extra("report", "matplotlib")
        check_writable(args.html)


def write_html(frame: Frame, files_plan: WalkPlan, path: str, *, title: str, sweep: SweepResult | None = None,
               sweep_current: int | None = None, evaluation: EvaluationPart | None = None,
               compare: str = "lines") -> None:
    """The report of a run: its files chunked with the effective settings, and its parts."""
    from ..report.content import ReportContent
    from ..report.files import build_files
    from ..report.render import write_report

    files = build_files(files_plan, frame.options, compare, jobs=frame.jobs)
    content = ReportContent(title=title, root=files_plan.root, options=frame.options,
                            settings_file=frame.resolved.settings_path, files=files, sweep=sweep,
                            sweep_current=sweep_current, evaluation=evaluation)
    size = write_report(content, path)
    say(f"Wrote the report to {visible(path)} ({human_bytes(size)}).")
