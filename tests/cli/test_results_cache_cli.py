"""The results cache in the commands: ``stats``, ``sweep`` and ``eval`` print the same with
and without it (only the times differ), read it on a second run, and ``--no-cache`` or
``CHUNK_EXPLORER_CACHE=off`` keep nothing."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from explorer.workspace.results_cache import CAP_VARIABLE

CODE = '''"""Orders."""


# Adds up an order.
def total(lines):
    result = 0
    for line in lines:
        result += line.price * line.quantity
    return result


class Order:
    def __init__(self, lines):
        self.lines = list(lines)

    def total(self):
        """What the whole order costs, every line with its price and quantity."""
        return total(self.lines)
'''

#: The keys that hold times: the only part of an output a cache may change.
TIMES = {"seconds", "parseSeconds", "chunkSeconds", "chunk_seconds", "throughputMBs"}

COMMANDS = {
    "stats": ["stats", "--json", "-q", "-j", "1", "--max-size", "80"],
    "sweep": ["sweep", "--json", "-q", "-j", "1", "--max-size", "60,200"],
    "eval": ["eval", "--json", "-q", "-j", "1", "--max-size", "60,200", "--queries", "docs,calls,types"],
}


@pytest.fixture
def code(tmp_path: Path) -> Path:
    root = tmp_path / "code"
    (root / "shop").mkdir(parents=True)
    (root / "shop" / "orders.py").write_text(CODE)
    (root / "shop" / "prices.py").write_text(
        '"""Prices."""\n\n\ndef discount(price, rate):\n    """The price that remains after a discount of the given rate is taken off."""\n'
        "    return price * (1 - rate)\n\n\ndef tax(price):\n    \"\"\"The price with the tax of twenty percent added on top of it.\"\"\"\n"
        "    return price * 1.2\n")
    (root / "web.ts").write_text("export function main(): number {\n  return 42;\n}\n")
    return root


def untimed(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: untimed(item) for key, item in value.items() if key not in TIMES}
    if isinstance(value, list):
        return [untimed(item) for item in value]
    return value


def entries(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.entry")) if folder.exists() else []


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_the_output_is_the_same_with_and_without_the_cache(cli, code: Path, tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch, command: str) -> None:
    folder = tmp_path / "cache"
    monkeypatch.setenv("CHUNK_EXPLORER_CACHE", str(folder))
    argv = [*COMMANDS[command], code]
    without = cli(*argv, "--no-cache")
    assert without.code == 0, without.err
    assert entries(folder) == []
    missed = cli(*argv)
    stored = entries(folder)
    assert len(stored) == 3
    answered = cli(*argv)
    assert (missed.code, answered.code) == (0, 0)
    assert untimed(answered.json()) == untimed(missed.json()) == untimed(without.json())
    assert entries(folder) == stored
    if command == "eval":
        assert answered.json()["queries"] == 3
    if command == "stats":  # a file's own times come back as they were measured: it was not chunked again
        assert [f["seconds"] for f in answered.json()["files"]] == [f["seconds"] for f in missed.json()["files"]]
    if command == "sweep":  # the table has no times: the same text
        table = [arg for arg in argv if arg != "--json"]
        assert cli(*table).out == cli(*table, "--no-cache").out


def test_an_edited_file_is_measured_again(cli, code: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CHUNK_EXPLORER_CACHE", str(tmp_path / "cache"))
    argv = [*COMMANDS["stats"], code]
    before = cli(*argv).json()
    orders = code / "shop" / "orders.py"
    orders.write_text(CODE + "\n\ndef refund(order):\n    return -order.total()\n")
    after = cli(*argv).json()
    assert untimed(after) == untimed(cli(*argv, "--no-cache").json())
    assert untimed(after) != untimed(before)


def test_off_and_no_cache_keep_nothing(cli, code: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "xdg"
    monkeypatch.setenv("XDG_CACHE_HOME", str(home))
    for command in sorted(COMMANDS):
        assert cli(*COMMANDS[command], code, "--no-cache").code == 0
    assert not (home / "chunk-explorer" / "results").exists()
    monkeypatch.setenv("CHUNK_EXPLORER_CACHE", "off")
    for command in sorted(COMMANDS):
        assert cli(*COMMANDS[command], code).code == 0
    assert not (home / "chunk-explorer" / "results").exists()
    monkeypatch.delenv("CHUNK_EXPLORER_CACHE")
    assert cli(*COMMANDS["stats"], code).code == 0
    assert len(entries(home / "chunk-explorer" / "results")) == 3  # the default place, when on


def test_a_cap_that_is_not_a_number_is_a_usage_error(cli, code: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CAP_VARIABLE, "big")
    run = cli(*COMMANDS["stats"], code)
    assert run.code == 2 and run.out == ""
    assert f"{CAP_VARIABLE}='big'" in run.err and "whole number of megabytes" in run.err
    assert cli(*COMMANDS["stats"], code, "--no-cache").code == 0  # not read when the cache is not used
    assert os.environ[CAP_VARIABLE] == "big"


def test_a_folder_others_can_write_into_is_said_and_left_alone(cli, code: Path, tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "cache"
    (folder / "results").mkdir(parents=True)
    (folder / "results").chmod(0o777)
    monkeypatch.setenv("CHUNK_EXPLORER_CACHE", str(folder))
    run = cli(*COMMANDS["stats"], code)
    assert run.code == 0
    assert "warning: results are not kept in" in run.err and "others can write into it" in run.err
    assert entries(folder) == []
    assert untimed(run.json()) == untimed(cli(*COMMANDS["stats"], code, "--no-cache").json())
