"""Embed only the chunks that changed, with a LlamaIndex ``IngestionPipeline``.

    pip install 'chunk-explorer[llamaindex]'
    python examples/llamaindex_ingestion.py path/to/repo

Each chunk goes to the pipeline as its own document (``parser.chunk_nodes``), with the
chunk id as its id: the docstore skips the chunks it already has, the embedding model
sees only new ones, and chunks that are gone are deleted from the docstore and the
vector store (``ChunkSourceLink`` names each stored chunk its own source for that). The
embedding model here is a stand-in (``MockEmbedding``): put yours in its place, and
persist the pipeline (``pipeline.persist``) and the vector store between runs.
"""

from __future__ import annotations

import sys

from llama_index.core import MockEmbedding
from llama_index.core.ingestion import DocstoreStrategy, IngestionPipeline
from llama_index.core.storage.docstore import SimpleDocumentStore
from llama_index.core.vector_stores import SimpleVectorStore

from explorer.integrations.llamaindex import ChunkExplorerNodeParser, ChunkSourceLink


def make_pipeline(embedding: MockEmbedding | None = None) -> IngestionPipeline:
    """A pipeline that embeds and stores chunks, deduplicated by chunk id."""
    return IngestionPipeline(
        # ChunkSourceLink last: the vector store can then delete a chunk by its id.
        transformations=[embedding or MockEmbedding(embed_dim=8), ChunkSourceLink()],
        docstore=SimpleDocumentStore(),
        vector_store=SimpleVectorStore(),
        docstore_strategy=DocstoreStrategy.UPSERTS_AND_DELETE,
    )


def sync(pipeline: IngestionPipeline, path: str) -> int:
    """Bring the pipeline's stores in step with the directory; returns how many chunks were
    embedded (the new ones)."""
    parser = ChunkExplorerNodeParser.from_settings(path)
    nodes = parser.chunk_nodes(parser.documents_from_directory(path))
    return len(pipeline.run(nodes=nodes))


def main(path: str) -> None:
    pipeline = make_pipeline()
    print(f"first run: {sync(pipeline, path)} chunks embedded")
    print(f"again, nothing changed: {sync(pipeline, path)} chunks embedded")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else ".")
