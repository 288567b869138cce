"""The adapters' metadata at its edges, against the real libraries: the lines name the
chunk's first and last line (1-based, inclusive), every documented key is there with the
file's hash the CLI gives, a settings file given by path wins over the one found, and a
file above the default read cap that the walk settings take is loaded whole."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import explorer
from explorer.integrations.common import METADATA_KEYS
from explorer.integrations.langchain import ChunkExplorerLoader, ChunkExplorerTextSplitter
from explorer.integrations.llamaindex import ChunkExplorerNodeParser
from explorer.workspace.walk import WalkOptions

JSON_DECODER = Path(json.__file__).parent / "decoder.py"


def line_of(text: str, offset: int) -> int:
    """The 1-based line holding the code point at ``offset``."""
    return text.count("\n", 0, offset) + 1


def test_lines_are_the_chunks_first_and_last_lines_and_the_keys_are_all_there() -> None:
    source = JSON_DECODER.read_text()
    splitter = ChunkExplorerTextSplitter(max_size=400)
    documents = splitter.create_documents([source], [{"path": "json/decoder.py"}])
    assert len(documents) > 10
    file_hash = hashlib.sha256(JSON_DECODER.read_bytes()).hexdigest()
    chunks = explorer.chunk("json/decoder.py", source, max_size=400)
    assert [d.page_content for d in documents] == [c.contextualized_text for c in chunks]
    for document in documents:
        metadata = document.metadata
        assert set(METADATA_KEYS) <= set(metadata) and metadata["file_hash"] == file_hash
    parser = ChunkExplorerNodeParser.from_options(splitter.options)
    for document, chunk in zip(documents, chunks):
        start, end = chunk.char_range.start, chunk.char_range.end
        assert source[start:end] == chunk.text
        assert document.metadata["line_start"] == line_of(source, start)
        assert document.metadata["line_end"] == line_of(source, end - 1)
    # The last chunk ends on the file's last line.
    assert documents[-1].metadata["line_end"] == source.count("\n")
    from llama_index.core.schema import Document as LlamaDocument

    nodes = parser.get_nodes_from_documents([LlamaDocument(text=source, metadata={"path": "json/decoder.py"})])
    assert [(n.metadata["line_start"], n.metadata["line_end"], n.metadata["file_hash"]) for n in nodes] == [
        (d.metadata["line_start"], d.metadata["line_end"], d.metadata["file_hash"]) for d in documents]


def test_a_settings_file_given_by_path_wins_over_the_one_found(tmp_path) -> None:
    tree = tmp_path / "repo"
    tree.mkdir()
    (tree / ".chunk-explorer.toml").write_text("[chunk]\nmax_size = 400\n")
    other = tmp_path / "other.toml"
    other.write_text("[chunk]\nmax_size = 123\n")
    assert ChunkExplorerTextSplitter.from_settings(tree).options.max_size == 400
    assert ChunkExplorerTextSplitter.from_settings(tree, settings_path=other).options.max_size == 123
    assert ChunkExplorerNodeParser.from_settings(tree, settings_path=other).options.max_size == 123


def test_a_file_above_the_default_read_cap_is_loaded_when_the_walk_takes_it(tmp_path) -> None:
    tree = tmp_path / "repo"
    tree.mkdir()
    line = "VALUE_{:07d} = {:07d}  # a long module of constants\n"
    big = "".join(line.format(i, i) for i in range(100_000))  # about 5 MB, above the 4 MiB cap
    assert len(big) > 4 * 2**20
    (tree / "constants.py").write_text(big)
    (tree / "small.py").write_text("X = 1\n")
    walk = WalkOptions(max_file_size=16 * 2**20)
    documents = ChunkExplorerLoader(tree, walk).load()
    assert [d.metadata["path"] for d in documents] == ["constants.py", "small.py"]
    assert documents[0].page_content == big
    assert [d.metadata["path"] for d in ChunkExplorerNodeParser().documents_from_directory(tree, walk)] == [
        "constants.py", "small.py"]
