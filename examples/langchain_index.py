"""Embed only the chunks that changed, with LangChain's ``index()`` and a record manager.

    pip install 'chunk-explorer[langchain]'
    python examples/langchain_index.py path/to/repo

``key_encoder=chunk_key`` keeps the chunk ids as the index's keys, so ``index()`` skips
the chunks the record manager already has, embeds only the new ones and, with
``cleanup="scoped_full"``, deletes the chunks of the files it was given that are gone.
The embedding model here is a stand-in (``DeterministicFakeEmbedding``) and the stores
live in memory: put yours in their place (a ``SQLRecordManager`` keeps the records
between runs).
"""

from __future__ import annotations

import sys
from typing import Any

from langchain_core.embeddings import DeterministicFakeEmbedding, Embeddings
from langchain_core.indexing import InMemoryRecordManager, index
from langchain_core.vectorstores import InMemoryVectorStore

from explorer.integrations.langchain import ChunkExplorerLoader, ChunkExplorerTextSplitter, chunk_key


def make_stores(embedding: Embeddings | None = None) -> tuple[InMemoryRecordManager, InMemoryVectorStore]:
    records = InMemoryRecordManager(namespace="chunk-explorer")
    records.create_schema()
    return records, InMemoryVectorStore(embedding or DeterministicFakeEmbedding(size=8))


def sync(records: InMemoryRecordManager, store: InMemoryVectorStore, path: str) -> dict[str, Any]:
    """Bring the store in step with the directory; returns index()'s counts
    (num_added: the chunks embedded)."""
    splitter = ChunkExplorerTextSplitter.from_settings(path)
    documents = splitter.split_documents(ChunkExplorerLoader(path).load())
    return dict(index(documents, records, store, cleanup="scoped_full", source_id_key="path", key_encoder=chunk_key))


def main(path: str) -> None:
    records, store = make_stores()
    print(f"first run: {sync(records, store, path)}")
    print(f"again, nothing changed: {sync(records, store, path)}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else ".")
