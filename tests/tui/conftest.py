"""Fixtures for the explorer tests."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input

from .helpers import FIXTURES


@pytest.fixture(autouse=True)
def _no_cursor_blink(monkeypatch: pytest.MonkeyPatch) -> None:
    # A blinking cursor makes screens differ from one moment to the next: every Input
    # the app creates gets the public ``cursor_blink`` switched off.
    create = Input.__init__

    def create_without_blink(self: Input, *args: Any, **kwargs: Any) -> None:
        create(self, *args, **kwargs)
        self.cursor_blink = False

    monkeypatch.setattr(Input, "__init__", create_without_blink)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A writable copy of the fixture project."""
    target = tmp_path / "project"
    shutil.copytree(FIXTURES, target)
    return target
