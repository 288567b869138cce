"""Chunk a directory into LlamaIndex TextNodes with the settings tuned in Chunk Explorer.

    pip install 'chunk-explorer[llamaindex]'
    python examples/llamaindex_nodes.py path/to/repo

The nodes' ids are the chunk ids of ``chunk-explorer chunk``; hand them to any index
(``VectorStoreIndex(nodes)``) or an ``IngestionPipeline(transformations=[parser, ...])``.
"""

from __future__ import annotations

import sys

from llama_index.core.schema import MetadataMode, NodeRelationship

from explorer.integrations.llamaindex import ChunkExplorerNodeParser


def main(path: str) -> None:
    parser = ChunkExplorerNodeParser.from_settings(path)
    nodes = parser.get_nodes_from_documents(parser.documents_from_directory(path))
    for node in nodes[:10]:
        following = node.relationships.get(NodeRelationship.NEXT)
        print(f"{node.node_id}  {node.metadata['path']}:{node.metadata['line_start']}  "
              f"next={following.node_id if following else '-'}")
    if nodes:
        print("--- embedded text of the first node ---")
        print(nodes[0].get_content(MetadataMode.EMBED)[:300])
    print(f"{len(nodes)} nodes")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else ".")
