"""Fixtures for the explorer tests."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from textual.widgets import Input

from .helpers import FIXTURES


@pytest.fixture(autouse=True)
def _no_cursor_blink(monkeypatch: pytest.MonkeyPatch) -> None:
    # A blinking cursor makes screens differ from one moment to the next.
    monkeypatch.setattr(Input, "_toggle_cursor", lambda self: None)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A writable copy of the fixture project."""
    target = tmp_path / "project"
    shutil.copytree(FIXTURES, target)
    return target
