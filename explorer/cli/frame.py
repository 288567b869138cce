"""What every verb over ``PATH...`` starts from: the paths checked, the root the outputs
name files relative to, the effective settings (defaults < settings file < flags, the
file read said on stderr), then the walk, the worker count and whether to draw progress."""

from __future__ import annotations

import argparse
from dataclasses import dataclass

from ..engine.batch import default_jobs
from ..engine.options import ChunkOptions
from ..workspace.walk import WalkPlan, common_root, plan
from . import options as cli_options
from .report import stderr_is_terminal, warn_about_walk


@dataclass(frozen=True, slots=True)
class Frame:
    args: argparse.Namespace
    root: str
    resolved: cli_options.Resolved

    @classmethod
    def open(cls, args: argparse.Namespace) -> Frame:
        """Check ``args.paths`` and read the settings. Raises UsageError."""
        cli_options.check_paths(args.paths)
        root = common_root(args.paths)
        return cls(args, root, cli_options.resolve(args, root))

    @property
    def options(self) -> ChunkOptions:
        return self.resolved.options

    def walk(self) -> WalkPlan:
        """The files to work on; ignore files whose rules did not apply are named on stderr."""
        files_plan = plan(self.args.paths, self.resolved.walk, root=self.root)
        warn_about_walk(files_plan)
        return files_plan

    @property
    def jobs(self) -> int:
        """``--jobs``, else every core."""
        return self.args.jobs or default_jobs()

    @property
    def show_progress(self) -> bool:
        """Progress bars only on a terminal, and not with ``--quiet``."""
        return not self.args.quiet and stderr_is_terminal()

    @property
    def settings_file_given(self) -> bool:
        """Whether ``--settings FILE`` named the settings file (``--save`` writes back to it)."""
        return bool(getattr(self.args, "settings", None))
