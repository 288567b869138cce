"""The LangChain adapters against the real library: the CLI's texts, ids and files."""

from __future__ import annotations

import pytest

pytest.importorskip("langchain_text_splitters")

from langchain_core.documents import Document
from langchain_text_splitters import TextSplitter

from explorer.engine.options import ChunkOptions
from explorer.integrations.langchain import (
    ChunkExplorerLoader,
    ChunkExplorerTextSplitter,
    split_directory,
)
from explorer.workspace.ids import chunk_ids


def test_loader_and_splitter_give_the_clis_texts_and_ids(tuned_tree, cli_records, monkeypatch) -> None:
    expected = cli_records(tuned_tree)
    splitter = ChunkExplorerTextSplitter.from_settings(tuned_tree)
    assert isinstance(splitter, TextSplitter)
    assert splitter.options == ChunkOptions(max_size=400, overlap_lines=1)
    documents = ChunkExplorerLoader(tuned_tree).load()
    paths = [d.metadata["path"] for d in documents]
    assert "json/tool.py" not in paths and "samples/inventory.go" not in paths  # .gitignore and [walk]
    assert ".chunk-explorer.toml" not in paths
    chunks = splitter.split_documents(documents)
    assert [(c.id, c.page_content) for c in chunks] == [(r["id"], r["contextualizedText"]) for r in expected]
    first = chunks[0]
    record = expected[0]
    assert first.metadata["chunk_id"] == record["id"] and first.metadata["path"] == record["path"]
    assert first.metadata["language"] == record["language"] and first.metadata["file_hash"] == record["fileHash"]
    assert first.metadata["line_start"] == record["lineRange"]["start"] + 1
    assert first.metadata["entities"] == ", ".join(e["name"] for e in record["context"]["entities"])
    assert first.metadata["source"] == str(tuned_tree / record["path"])
    # the same from the helper, with the settings found from the directory
    assert [d.id for d in split_directory(tuned_tree)] == [r["id"] for r in expected]


def test_create_documents_and_split_text(tuned_tree) -> None:
    splitter = ChunkExplorerTextSplitter(max_size=60, root=tuned_tree)
    source = (tuned_tree / "json" / "scanner.py").read_text()
    by_path = splitter.create_documents([source], [{"path": "json/scanner.py", "owner": "me"}])
    by_source = splitter.create_documents([source], [{"source": str(tuned_tree / "json" / "scanner.py")}])
    assert [d.id for d in by_path] == [d.id for d in by_source]
    assert by_path[0].metadata["owner"] == "me" and by_path[0].metadata["language"] == "python"
    texts = [d.page_content for d in by_path]
    assert [d.id for d in by_path] == chunk_ids("json/scanner.py", texts, ChunkOptions(max_size=60))
    assert len(by_path) > 3
    assert all(isinstance(d, Document) for d in by_path)
    named = ChunkExplorerTextSplitter(max_size=60, default_path="json/scanner.py")
    assert named.split_text(source) == texts
    scope = [d.metadata["scope"] for d in by_path]
    assert "py_make_scanner" in scope or any(s.endswith("_scan_once") for s in scope)
