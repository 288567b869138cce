"""The one exit-status rule of every command over ``PATH...`` (chunk, stats, sweep, eval, report):

- 0: every file asked for was done;
- 1: the run went through but did not do all it was asked, and stderr says what: a file
  failed; a file named on the command line was skipped (binary, not UTF-8, unreadable...);
  there was no file to work on under the paths (empty input, or every file skipped); or
  (each verb's own) no queries, an output or settings file that could not be written;
- 2: a usage error, and nothing was done: a flag's value, a path that does not exist, an
  unknown ``--language``, a settings or state file that cannot be used (``errors.py``).

Files a directory walk leaves out by rule (ignored, excluded, of an unknown language) are
named in the summary but are no failure: the user's rules left them out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..display import skipped_name
from ..engine.batch.skips import SkipRecord
from ..terminal_text import visible
from ..workspace.walk import WalkPlan
from .errors import EXIT_FAILED, EXIT_OK


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a run over the files of ``plan`` did: ``done`` files worked on, ``failed``
    files with an error, ``skipped`` every input left out (the walk's and the run's)."""

    plan: WalkPlan
    skipped: Sequence[SkipRecord]
    done: int
    failed: int = 0

    @property
    def named_skipped(self) -> list[SkipRecord]:
        """The inputs left out although the command line named them."""
        return [record for record in self.skipped if skipped_name(record) in self.plan.named]

    @property
    def status(self) -> int:
        if self.failed or self.named_skipped or self.done == 0:
            return EXIT_FAILED
        return EXIT_OK

    def lines(self, work: str) -> list[str]:
        """Why the run was not a success, for stderr (``work``: "chunk", "measure", ...);
        nothing when it was. Failures are said by each verb (what its output holds)."""
        lines = [f"{visible(skipped_name(record))} was named on the command line but skipped: "
                 f"{record.reason.wording}" for record in self.named_skipped]
        if self.done == 0 and not self.failed and not self.named_skipped:
            lines.append(f"No files to {work}: every file was skipped (listed above)." if self.skipped
                         else f"No files to {work}: check the paths, or --include/--exclude.")
        return lines
