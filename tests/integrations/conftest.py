from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

import explorer
from explorer.cli.main import main

SAMPLES = Path(explorer.__file__).parent / "samples" / "files"
JSON_PACKAGE = Path(json.__file__).parent


@pytest.fixture
def tuned_tree(tmp_path) -> Path:
    """Real files in eight languages with tuned settings in their .chunk-explorer.toml."""
    tree = tmp_path / "repo"
    shutil.copytree(SAMPLES, tree / "samples")
    shutil.copytree(JSON_PACKAGE, tree / "json", ignore=shutil.ignore_patterns("__pycache__"))
    (tree / ".gitignore").write_text("json/tool.py\n")
    (tree / ".chunk-explorer.toml").write_text(
        '[chunk]\nmax_size = 400\noverlap_lines = 1\n[walk]\nexclude = ["samples/*.go"]\n')
    return tree


@pytest.fixture
def cli_records(capsys):
    """The CLI's JSONL chunk records for a path: what the adapters must match (the lines
    naming skipped inputs, which have no id, left out)."""

    def run(path: Path) -> list[dict]:
        code = main(["chunk", str(path), "--format", "jsonl", "-q", "-j", "1"])
        out = capsys.readouterr().out
        assert code == 0
        return [record for record in map(json.loads, out.splitlines()) if "id" in record]

    return run
