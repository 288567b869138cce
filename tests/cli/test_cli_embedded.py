"""Notebooks and files with embedded code from the command line: walked, chunked by their
regions, a broken notebook named while the others are chunked."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

EMBEDDED = Path(__file__).resolve().parents[1] / "fixtures" / "embedded"


def test_notebooks_are_walked_and_a_broken_one_does_not_stop_the_run(cli, tmp_path) -> None:
    shutil.copy(EMBEDDED / "python_notebook_sample.ipynb", tmp_path)
    shutil.copy(EMBEDDED / "VPMenu.vue", tmp_path)
    (tmp_path / "broken.ipynb").write_text('{"nbformat": 4, "cells": [')
    run = cli("chunk", tmp_path, "--format", "jsonl", "--max-size", "60")
    records = [json.loads(line) for line in run.out.splitlines()]
    by_path = {r["path"] for r in records}
    assert by_path == {"python_notebook_sample.ipynb", "VPMenu.vue"}
    assert "broken.ipynb" in run.err and "not valid JSON" in run.err
    notebook = [r for r in records if r["path"] == "python_notebook_sample.ipynb"]
    assert all(r["context"]["cells"] for r in notebook)
    assert not any('"cell_type"' in r["text"] for r in notebook)
    script = [r for r in records if r["path"] == "VPMenu.vue" and r["context"]["language"] == "typescript"]
    assert script and all(r["context"]["regions"][0]["label"] == '<script lang="ts">' for r in script)


def test_stats_measure_cuts_inside_regions(cli, tmp_path) -> None:
    shutil.copy(EMBEDDED / "fastapi-dependencies.md", tmp_path)
    # (at 300 every prose line fits: the cuts left are between statements, blocks and regions)
    doc = cli("stats", tmp_path, "--max-size", "300", "--json").json()
    markdown = doc["summary"]["languages"]["markdown"]
    assert markdown["files"] == 1 and markdown["exactPct"] == 100.0
    assert markdown["cleanPct"] == 100.0


def test_languages_lists_the_containers(cli) -> None:
    run = cli("languages")
    assert "container" in run.out and "fenced code blocks" in run.out and "notebook" in run.out
    rows = cli("languages", ".ipynb", "--json").json()
    assert rows[0]["name"] == "notebook" and "code cells" in rows[0]["contains"]


FUTURE_CELL = {"cell_type": "future_type", "metadata": {}, "source": "a cell of a later format\n"}


def test_a_notebook_of_plots_is_chunked_and_a_cell_of_an_unknown_type_is_left_out_and_named(
        cli, tmp_path, notebook_file) -> None:
    notebook_file(tmp_path / "plots.ipynb")  # 5.6 MB of file, 7 kB of cells
    notebook_file(tmp_path / "future.ipynb", plots=2, plot_bytes=10, extra_cells=(FUTURE_CELL,))
    run = cli("chunk", tmp_path)
    assert run.code == 0, run.err
    files = {record["path"]: record for record in run.json()["files"]}
    assert set(files) == {"plots.ipynb", "future.ipynb"}
    assert "def step_39(x):" in "".join(c["text"] for c in files["plots.ipynb"]["chunks"])
    assert "skipped" not in files["plots.ipynb"]
    assert files["future.ipynb"]["skipped"] == ["cell 1 (unknown cell_type 'future_type')"]
    assert "a later format" not in "".join(c["text"] for c in files["future.ipynb"]["chunks"])
    left_out = "Left parts out of 1 file:\n  future.ipynb: cell 1 (unknown cell_type 'future_type')\n"
    assert left_out in run.err and "larger than" not in run.err
    stats = cli("stats", tmp_path, "--json")
    assert stats.code == 0 and left_out in stats.err
    assert stats.json()["summary"]["languages"]["notebook"]["files"] == 2
