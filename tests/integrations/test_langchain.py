"""The LangChain adapters against the real library: the CLI's texts, ids and files."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("langchain_text_splitters")

from langchain_core.documents import Document
from langchain_text_splitters import TextSplitter

import explorer
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
    assert first.metadata["source"] == record["path"]  # relative: no machine's folder in the index
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


NON_ASCII = ('"""Grüße: a module whose text is not ASCII (é, 漢字, 🙂)."""\n\n\n'
             + "".join(f'class Outer{i}:\n    """Ünïcode {i} 漢字."""\n\n    class Inner:\n'
                       f'        def method(self):\n' + "".join(f'            x{k} = "ß{k}🙂"\n' for k in range(12))
                       + "            return x0\n\n\n" for i in range(3)))


def test_add_start_index_gives_code_point_offsets_of_the_chunks_code() -> None:
    splitter = ChunkExplorerTextSplitter(chunk_size=60, add_start_index=True)
    assert splitter.options.max_size == 60
    documents = splitter.create_documents([NON_ASCII], [{"path": "pkg/greet.py"}])
    chunks = explorer.chunk("pkg/greet.py", NON_ASCII, max_size=60)
    assert [d.page_content for d in documents] == [c.contextualized_text for c in chunks] and len(chunks) > 5
    for document, chunk in zip(documents, chunks):
        start = document.metadata["start_index"]
        assert NON_ASCII[start:start + len(chunk.text)] == chunk.text
        assert document.page_content.endswith(chunk.text)
    # Past the first non-ASCII character, code points and bytes differ: the offsets are code points.
    assert any(d.metadata["start_index"] != c.byte_range.start for d, c in zip(documents, chunks))
    assert "start_index" not in ChunkExplorerTextSplitter(max_size=60).create_documents([NON_ASCII])[0].metadata
    with pytest.raises(ValueError, match="chunk_size or max_size"):
        ChunkExplorerTextSplitter(chunk_size=60, max_size=70)


def test_scope_metadata_is_outermost_first() -> None:
    splitter = ChunkExplorerTextSplitter(max_size=60)
    documents = splitter.create_documents([NON_ASCII], [{"path": "pkg/greet.py"}])
    scopes = {d.metadata["scope"] for d in documents}
    assert "Outer1 > Inner > method" in scopes
    assert not any(s.startswith(("method", "Inner")) for s in scopes)


def test_namespace_gives_the_clis_ids(tuned_tree, capsys) -> None:
    from explorer.cli.main import main

    assert main(["chunk", str(tuned_tree), "--format", "jsonl", "-q", "-j", "1", "--namespace", "repo-a"]) == 0
    expected = [r["id"] for r in map(json.loads, capsys.readouterr().out.splitlines()) if "id" in r]
    documents = ChunkExplorerLoader(tuned_tree).load()
    named = ChunkExplorerTextSplitter.from_settings(tuned_tree, namespace="repo-a").split_documents(documents)
    assert [d.id for d in named] == expected
    assert {d.metadata["namespace"] for d in named} == {"repo-a"}
    other = ChunkExplorerTextSplitter.from_settings(tuned_tree, namespace="repo-b").split_documents(documents)
    plain = ChunkExplorerTextSplitter.from_settings(tuned_tree).split_documents(documents)
    assert not {d.id for d in other} & set(expected) and not {d.id for d in plain} & set(expected)
    assert "namespace" not in plain[0].metadata
