"""The LlamaIndex adapter against the real library: TextNodes with the CLI's ids and
texts, linked to their neighbours and documents, context kept out of the embedding."""

from __future__ import annotations

import pytest

pytest.importorskip("llama_index.core")

from llama_index.core.node_parser import NodeParser
from llama_index.core.schema import Document, MetadataMode, NodeRelationship, TextNode

from explorer.engine.options import ChunkOptions
from explorer.integrations.llamaindex import ChunkExplorerNodeParser


def test_nodes_have_the_clis_ids_texts_and_relationships(tuned_tree, cli_records) -> None:
    expected = cli_records(tuned_tree)
    parser = ChunkExplorerNodeParser.from_settings(tuned_tree)
    assert isinstance(parser, NodeParser)
    assert parser.options == ChunkOptions(max_size=400, overlap_lines=1)
    documents = parser.documents_from_directory(tuned_tree)
    nodes = parser.get_nodes_from_documents(documents)
    assert all(isinstance(n, TextNode) for n in nodes)
    assert [(n.node_id, n.get_content()) for n in nodes] == [(r["id"], r["contextualizedText"]) for r in expected]

    by_file: dict[str, list] = {}
    for node in nodes:
        by_file.setdefault(node.metadata["path"], []).append(node)
    for path, file_nodes in by_file.items():
        for i, node in enumerate(file_nodes):
            assert node.relationships[NodeRelationship.SOURCE].node_id == path
            previous = node.relationships.get(NodeRelationship.PREVIOUS)
            following = node.relationships.get(NodeRelationship.NEXT)
            assert (previous.node_id if previous else None) == (file_nodes[i - 1].node_id if i else None)
            assert (following.node_id if following else None) == \
                (file_nodes[i + 1].node_id if i + 1 < len(file_nodes) else None)
    node = nodes[1]
    # the header is in the text already: the metadata stays out of what is embedded
    assert node.get_content(MetadataMode.EMBED) == node.text
    llm = node.get_content(MetadataMode.LLM)
    assert f"path: {node.metadata['path']}" in llm and node.metadata["chunk_id"] not in llm


def test_documents_from_another_reader_are_named_by_their_path(tuned_tree) -> None:
    parser = ChunkExplorerNodeParser.from_options(ChunkOptions(max_size=80), root=tuned_tree)
    path = tuned_tree / "samples" / "inventory.rs"
    document = Document(text=path.read_text(), metadata={"file_path": str(path), "file_name": "inventory.rs"})
    nodes = parser.get_nodes_from_documents([document])
    assert nodes and all(n.metadata["path"] == "samples/inventory.rs" for n in nodes)
    assert nodes[0].metadata["language"] == "rust"
    again = parser.get_nodes_from_documents([Document(text=path.read_text(), metadata={"path": "samples/inventory.rs"})])
    assert [n.node_id for n in again] == [n.node_id for n in nodes]
    # A node's text (header and code) lies nowhere in the document: no char offsets claim it does.
    assert all(n.start_char_idx is None and n.end_char_idx is None for n in nodes)


def test_documents_and_nodes_carry_paths_relative_to_the_root(tuned_tree) -> None:
    parser = ChunkExplorerNodeParser.from_settings(tuned_tree)
    documents = parser.documents_from_directory(tuned_tree)
    assert documents and all(d.metadata["file_path"] == d.metadata["path"] == d.id_ for d in documents)
    assert not any(str(tuned_tree) in str(n.metadata) for n in parser.get_nodes_from_documents(documents))


def test_namespace_gives_the_clis_ids(tuned_tree, capsys) -> None:
    import json

    from explorer.cli.main import main

    assert main(["chunk", str(tuned_tree), "--format", "jsonl", "-q", "-j", "1", "--namespace", "repo-a"]) == 0
    expected = [r["id"] for r in map(json.loads, capsys.readouterr().out.splitlines()) if "id" in r]
    parser = ChunkExplorerNodeParser.from_settings(tuned_tree, namespace="repo-a")
    documents = parser.documents_from_directory(tuned_tree)
    assert [n.node_id for n in parser.get_nodes_from_documents(documents)] == expected
    assert [n.node_id for n in parser.chunk_nodes(documents)] == expected
    other = ChunkExplorerNodeParser.from_settings(tuned_tree, namespace="repo-b").get_nodes_from_documents(documents)
    assert not {n.node_id for n in other} & set(expected)


def test_with_a_namespace_the_same_file_of_two_repositories_is_two_documents(tuned_tree, tmp_path) -> None:
    import shutil

    from llama_index.core.storage.docstore import SimpleDocumentStore

    other_tree = tmp_path / "elsewhere"
    shutil.copytree(tuned_tree, other_tree)
    docstore = SimpleDocumentStore()
    nodes = []
    for tree, namespace in ((tuned_tree, "app"), (other_tree, "lib")):
        parser = ChunkExplorerNodeParser.from_settings(tree, namespace=namespace)
        documents = parser.documents_from_directory(tree)
        assert all(d.id_ == f"{namespace}:{d.metadata['path']}" for d in documents)
        docstore.add_documents(documents)
        nodes += parser.get_nodes_from_documents(documents)
    paths = {d.metadata["path"] for d in ChunkExplorerNodeParser.from_settings(tuned_tree).documents_from_directory(
        tuned_tree)}
    assert len(docstore.docs) == 2 * len(paths)  # neither repository's file replaced the other's
    assert {n.relationships[NodeRelationship.SOURCE].node_id for n in nodes} == set(docstore.docs)
