"""The settings file through the CLI: the documented example is the one the commands use,
and a file they cannot use stops them with the file named (nothing is written)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from explorer.workspace.settings import SETTINGS_FILE

SETTINGS_DOC = Path(__file__).resolve().parents[2] / "docs" / "settings.md"


def test_the_documented_settings_file_drives_the_chunk_command(cli, tmp_path) -> None:
    snippets = re.findall(r"```toml\n(.*?)```", SETTINGS_DOC.read_text(encoding="utf-8"), re.DOTALL)
    snippet = next(s for s in snippets if "[chunk]" in s)
    (tmp_path / SETTINGS_FILE).write_text(snippet)
    (tmp_path / "app.py").write_text("def f():\n    return 1\n")
    run = cli("chunk", tmp_path, "-q")
    assert run.code == 0, run.err
    doc = run.json()
    assert doc["settings"] == str(tmp_path / SETTINGS_FILE)
    for key, value in tomllib.loads(snippet)["chunk"].items():
        assert doc["options"][key] == value, key


def test_a_key_outside_its_table_is_a_usage_error(cli, tmp_path) -> None:
    (tmp_path / SETTINGS_FILE).write_text("max_size = 1000\n")
    (tmp_path / "app.py").write_text("x = 1\n")
    out = tmp_path / "chunks.json"
    run = cli("chunk", tmp_path, "-o", out)
    assert run.code == 2
    assert str(tmp_path / SETTINGS_FILE) in run.err and "[chunk]" in run.err
    assert not out.exists()
