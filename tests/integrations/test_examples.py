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


def _edit_one_line(tree: Path) -> None:
    """Change one line inside one function of decoder.py (no line added or removed)."""
    path = tree / "decoder.py"
    text = path.read_text()
    line = "        raise JSONDecodeError(\"Extra data\", s, end)\n"
    assert text.count(line) == 1
    path.write_text(text.replace(line, line.replace("Extra data", "Extra data after the document")))


def test_llamaindex_ingestion_example_embeds_only_the_edited_chunk(tree, capsys) -> None:
    pytest.importorskip("llama_index.core")
    from llama_index.core import MockEmbedding
    from llama_index.core.bridge.pydantic import PrivateAttr

    class Counting(MockEmbedding):
        _texts: list[str] = PrivateAttr(default_factory=list)

        def _get_text_embeddings(self, texts: list[str]) -> list[list[float]]:
            self._texts += texts
            return super()._get_text_embeddings(texts)

    example = load("llamaindex_ingestion")
    embedding = Counting(embed_dim=8)
    pipeline = example.make_pipeline(embedding)
    first = example.sync(pipeline, str(tree))
    assert first == len(embedding._texts) > 20
    assert example.sync(pipeline, str(tree)) == 0  # nothing changed: nothing embedded
    _edit_one_line(tree)
    embedding._texts.clear()
    assert example.sync(pipeline, str(tree)) == 1
    assert len(embedding._texts) == 1 and "Extra data after the document" in embedding._texts[0]
    # The stores hold exactly the chunks of the tree now: the edited chunk's old id is gone.
    from explorer.integrations.llamaindex import ChunkExplorerNodeParser
    parser = ChunkExplorerNodeParser.from_settings(tree)
    now = {node.node_id for node in parser.chunk_nodes(parser.documents_from_directory(tree))}
    assert set(pipeline.docstore.docs) == now
    assert set(pipeline.vector_store.data.embedding_dict) == now
    example.main(str(tree))
    assert capsys.readouterr().out.splitlines()[-1] == "again, nothing changed: 0 chunks embedded"


def test_langchain_index_example_embeds_only_the_edited_chunk(tree, capsys) -> None:
    pytest.importorskip("langchain_core")
    from langchain_core.embeddings import DeterministicFakeEmbedding

    class Counting(DeterministicFakeEmbedding):
        texts: list[str] = []

        def embed_documents(self, texts: list[str]) -> list[list[float]]:
            self.texts.extend(texts)
            return super().embed_documents(texts)

    example = load("langchain_index")
    embedding = Counting(size=8, texts=[])
    records, store = example.make_stores(embedding)
    first = example.sync(records, store, str(tree))
    assert first["num_added"] == len(embedding.texts) > 20 and first["num_deleted"] == 0
    from explorer.integrations.langchain import ChunkExplorerLoader, ChunkExplorerTextSplitter
    splitter = ChunkExplorerTextSplitter.from_settings(tree)
    before = {d.id for d in splitter.split_documents(ChunkExplorerLoader(tree).load())}
    assert set(store.store) == before  # index() kept the chunk ids
    _edit_one_line(tree)
    embedding.texts.clear()
    second = example.sync(records, store, str(tree))
    assert (second["num_added"], second["num_deleted"], second["num_skipped"]) == (1, 1, first["num_added"] - 1)
    assert len(embedding.texts) == 1 and "Extra data after the document" in embedding.texts[0]
    after = {d.id for d in splitter.split_documents(ChunkExplorerLoader(tree).load())}
    assert set(store.store) == after and len(after - before) == 1
    example.main(str(tree))
    assert capsys.readouterr().out.splitlines()[-1].startswith("again, nothing changed: {'num_added': 0,")
