"""The examples of docs/indexing.md run as written."""

from __future__ import annotations

import importlib.util
import json
import shutil
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
JSON_PACKAGE = Path(json.__file__).parent


def load(name: str):
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def tree(tmp_path) -> Path:
    return Path(shutil.copytree(JSON_PACKAGE, tmp_path / "json", ignore=shutil.ignore_patterns("__pycache__")))


def test_incremental_example_follows_an_edit(tree, tmp_path, capsys) -> None:
    example = load("incremental_index")
    index = tmp_path / "index.json"
    assert example.main(str(tree), str(index)) == 0
    first = json.loads(index.read_text())
    with open(tree / "tool.py", "a") as handle:
        handle.write("\n# one more line\n")
    assert example.main(str(tree), str(index)) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-1].startswith("2 upserts, 1 delete;")  # tool.py: two chunks, the last one changed
    second = json.loads(index.read_text())
    assert len(second) == len(first) and set(second) != set(first)


def test_langchain_example(tree, capsys) -> None:
    pytest.importorskip("langchain_text_splitters")
    load("langchain_split").main(str(tree))
    assert capsys.readouterr().out.splitlines()[-1].endswith("documents (max_size 1500 nws)")


def test_llamaindex_example(tree, capsys) -> None:
    pytest.importorskip("llama_index.core")
    load("llamaindex_nodes").main(str(tree))
    assert capsys.readouterr().out.splitlines()[-1].endswith(" nodes")
