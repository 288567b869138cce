from __future__ import annotations

import json
from dataclasses import dataclass

import pytest

from explorer.__main__ import main


@dataclass
class Run:
    code: int
    out: str
    err: str

    def json(self):
        return json.loads(self.out)


@pytest.fixture
def cli(capsys):
    """Run ``chunk-explorer`` in this process, through the launcher: ``cli("chunk", path, ...)``."""

    def run(*argv) -> Run:
        code = main([str(a) for a in argv])
        captured = capsys.readouterr()
        return Run(code, captured.out, captured.err)

    return run


PY_SOURCE = '''"""A module."""

import os


def add(a, b):
    """Add two numbers."""
    return a + b


class Greeter:
    def __init__(self, name):
        self.name = name

    def greet(self):
        return f"hello {self.name}"
'''


@pytest.fixture
def py_source() -> str:
    return PY_SOURCE


@pytest.fixture
def project(tmp_path):
    """A small codebase: two languages, an ignored directory, a binary, a dependency dir."""
    root = tmp_path / "proj"
    (root / "src" / "pkg").mkdir(parents=True)
    (root / "src" / "pkg" / "mod.py").write_text(PY_SOURCE)
    (root / "src" / "app.ts").write_text("export function main(): number {\n  return 42;\n}\n")
    (root / "README.md").write_text("# Title\n\nSome words.\n")
    (root / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")  # unknown language
    (root / "data.json").write_bytes(b'{"a": 1}\x00\x00\x01')  # known name, binary content
    (root / "node_modules" / "dep").mkdir(parents=True)
    (root / "node_modules" / "dep" / "index.js").write_text("module.exports = 1;\n")
    return root
