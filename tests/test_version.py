"""One version: pyproject.toml's, whether installed or run from a source checkout."""

from __future__ import annotations

import importlib.metadata
import tomllib
from pathlib import Path

import explorer
from explorer import version

PROJECT = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text())["project"]


def test_the_package_the_command_and_the_outputs_share_pyprojects_version():
    assert explorer.__version__ == version.tool_version() == PROJECT["version"]


def test_a_source_checkout_reads_pyproject_toml(monkeypatch):
    def not_installed(name: str) -> str:
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(importlib.metadata, "version", not_installed)
    version.tool_version.cache_clear()
    try:
        assert version.tool_version() == PROJECT["version"]
    finally:
        version.tool_version.cache_clear()
