"""A test run leaves the checkout as it found it: a file that appears in the repository
during the run (one git would list as untracked, that is, one that could be committed by
mistake) fails the run, named. Tests write into their temporary folders only; the current
directory of every test is one of those (tests/conftest.py), so a default output path such
as an export's lands there, not in the repository.

Loaded by tests/conftest.py. Outside a git checkout (a scratch copy, an unpacked sdist) it
checks nothing. Ignored files (bytecode, caches, virtualenvs) are not counted: git never
offers them for a commit."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

_BEFORE = pytest.StashKey["set[str] | None"]()


def untracked_files(root: Path) -> set[str] | None:
    """The untracked, not ignored files of the git checkout holding ``root`` (paths as git
    gives them), or None when ``root`` is in no checkout or git cannot tell."""
    env = {k: v for k, v in os.environ.items() if k not in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE")}
    try:
        done = subprocess.run(["git", "-C", str(root), "status", "--porcelain=v1", "-z", "--untracked-files=all"],
                              capture_output=True, text=True, timeout=120, env=env)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if done.returncode != 0:
        return None
    return {entry[3:] for entry in done.stdout.split("\0") if entry.startswith("?? ")}


def pytest_sessionstart(session: pytest.Session) -> None:
    session.stash[_BEFORE] = untracked_files(session.config.rootpath)


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    before = session.stash.get(_BEFORE, None)
    if before is None:
        return
    new = sorted((untracked_files(session.config.rootpath) or set()) - before)
    if not new:
        return
    message = ("the test run left new files in the checkout (a test wrote outside its temporary folder): "
               + ", ".join(new))
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.write_line(message, red=True, bold=True)
    else:
        print(message, file=sys.stderr)
    session.exitstatus = pytest.ExitCode.TESTS_FAILED
