"""No test can leave a file in the checkout: every test runs in an empty temporary folder,
and a run after which git finds a new untracked file fails, naming it
(tests/checkout_guard.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GUARD = ROOT / "tests" / "checkout_guard.py"


def test_every_test_runs_in_an_empty_folder_outside_the_checkout() -> None:
    cwd = Path.cwd().resolve()
    assert ROOT not in (cwd, *cwd.parents)
    assert list(cwd.iterdir()) == []


def git_repository(folder: Path) -> Path:
    folder.mkdir()
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
    subprocess.run(["git", "init", "-q", str(folder)], check=True, env=env)
    (folder / "conftest.py").write_text(GUARD.read_text())
    (folder / "left-before.txt").write_text("an untracked file the developer had: not the run's\n")
    return folder


def run_pytest(folder: Path, test_body: str) -> subprocess.CompletedProcess[str]:
    (folder / "test_inner.py").write_text(
        "from pathlib import Path\n\n\ndef test_inner(tmp_path):\n" + test_body)
    env = {k: v for k, v in os.environ.items() if k != "PYTEST_ADDOPTS"}
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_inner.py"],
                          cwd=folder, capture_output=True, text=True, timeout=300, env=env)


@pytest.mark.parametrize("where", ["Path(__file__).parent / 'stray.chunks.json'", "Path('deep/down/stray.chunks.json')"])
def test_a_run_that_leaves_a_new_file_in_the_checkout_fails_and_names_it(tmp_path, where) -> None:
    repo = git_repository(tmp_path / "repo")
    body = f"    target = {where}\n    target.parent.mkdir(parents=True, exist_ok=True)\n    target.write_text('{{}}')\n"
    done = run_pytest(repo, body)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "1 passed" in done.stdout  # the test itself passed: the run fails for the file it left
    stray = "stray.chunks.json" if where.startswith("Path(__file__)") else "deep/down/stray.chunks.json"
    assert f"left new files in the checkout (a test wrote outside its temporary folder): {stray}" in done.stdout
    assert "left-before.txt" not in done.stdout.split("checkout", 1)[1]


def test_a_run_that_writes_only_in_its_temporary_folders_passes(tmp_path) -> None:
    repo = git_repository(tmp_path / "repo")
    done = run_pytest(repo, "    (tmp_path / 'export.chunks.json').write_text('{}')\n")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "left new files" not in done.stdout


def test_outside_a_git_checkout_nothing_is_checked(tmp_path) -> None:
    folder = tmp_path / "plain"
    folder.mkdir()
    (folder / "conftest.py").write_text(GUARD.read_text())
    done = run_pytest(folder, "    (Path(__file__).parent / 'stray.txt').write_text('x')\n")
    assert done.returncode == 0, done.stdout + done.stderr
