"""LlamaIndex adapter: a ``NodeParser`` whose nodes are Chunk Explorer's chunks.

    from explorer.integrations.llamaindex import ChunkExplorerNodeParser

    parser = ChunkExplorerNodeParser.from_settings("my-repo")      # its .chunk-explorer.toml
    nodes = parser.get_nodes_from_documents(parser.documents_from_directory("my-repo"))

Each ``TextNode`` has the chunk's stable id as ``id_``, the text to embed (the chunk
with its context header) as its text, PREVIOUS/NEXT links to its neighbours in the file
and a SOURCE link to its document. The chunk's metadata (path, language, chunk_id,
file_hash, line_start/line_end, scope, entities, chunk_index, total_chunks, namespace
with one) is kept out of the embedded text (the header already holds the context) and
ids, hashes and positions out of the LLM's text. ``start_char_idx``/``end_char_idx`` are
left out: LlamaIndex means them as where the node's text lies in the document, and a
node's text (header plus code) lies nowhere in it; the lines locate the code.

For an ``IngestionPipeline`` that embeds only the chunks that changed, feed it
:meth:`ChunkExplorerNodeParser.chunk_nodes` (each chunk its own document, so the
docstore compares chunks, not files) and end its transformations with
:class:`ChunkSourceLink` (examples/llamaindex_ingestion.py). Needs ``pip install 'chunk-explorer[llamaindex]'``.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from llama_index.core.bridge.pydantic import Field
from llama_index.core.node_parser import NodeParser
from llama_index.core.schema import BaseNode, Document, NodeRelationship, RelatedNodeInfo, TextNode, TransformComponent

from ..engine.options import ChunkOptions
from ..workspace.paths import display_path
from ..workspace.walk import WalkOptions
from .common import ID_METADATA_KEYS, chunk_text, find_adapter_settings, walk_sources

__all__ = ["ChunkExplorerNodeParser", "ChunkSourceLink"]

#: Chunk metadata an LLM gains nothing from reading.
_NOT_FOR_LLM = ("chunk_id", "file_hash", "chunk_index", "total_chunks")
#: Document metadata keys that name the file, in the order they are looked at.
_PATH_KEYS = ("path", "file_path", "file_name", "filename", "source")


class ChunkExplorerNodeParser(NodeParser):
    """Chunks documents of source code as ``chunk-explorer chunk`` does. A document's path
    (its ``path`` metadata, else ``file_path``/``file_name``/``source`` made relative to
    ``root``) picks the language and goes into the context and the ids."""

    chunk_options: dict[str, Any] = Field(default_factory=dict, description="ChunkOptions fields")
    root: str | None = Field(default=None, description="paths in ids are relative to this directory")

    @classmethod
    def from_options(cls, options: ChunkOptions | None = None, *, root: str | os.PathLike[str] | None = None,
                     namespace: str | None = None, **kwargs: Any) -> ChunkExplorerNodeParser:
        """A parser with these options; ``namespace`` goes into every id (as the CLI's
        ``--namespace``)."""
        options = options or ChunkOptions()
        if namespace is not None:
            options = ChunkOptions.build(options, namespace=namespace)
        return cls(chunk_options=options.to_dict(), root=None if root is None else os.path.abspath(os.fspath(root)),
                   **kwargs)

    @classmethod
    def from_settings(cls, start: str | os.PathLike[str] | None = None, *,
                      settings_path: str | os.PathLike[str] | None = None,
                      root: str | os.PathLike[str] | None = None, namespace: str | None = None,
                      **kwargs: Any) -> ChunkExplorerNodeParser:
        """A parser with the options of the settings file the CLI would read for ``start``
        (default: the current directory), or of ``settings_path``; ``root`` defaults to ``start``."""
        settings = find_adapter_settings(start, settings_path)
        return cls.from_options(settings.options, root=root if root is not None else (start or os.curdir),
                                namespace=namespace, **kwargs)

    @property
    def options(self) -> ChunkOptions:
        return ChunkOptions.build(None, **self.chunk_options)

    def documents_from_directory(self, path: str | os.PathLike[str], walk: WalkOptions | None = None,
                                 *, settings_path: str | os.PathLike[str] | None = None) -> list[Document]:
        """One document per file the CLI's ``chunk PATH`` takes, with ``id_`` its path
        relative to PATH (so re-ingesting updates it), ``NAMESPACE:path`` with a namespace
        (the same file of two repositories is two documents, as its chunks are two ids),
        and ``path`` and ``file_path`` metadata (the path: no machine's folder gets into
        an index)."""
        if walk is None:
            walk = find_adapter_settings(path, settings_path).walk
        namespace = self.options.namespace
        prefix = "" if namespace is None else namespace + ":"
        return [Document(text=source.text, id_=prefix + source.rel,
                         metadata={"path": source.rel, "file_path": source.rel, "language": source.language,
                                   "file_hash": source.file_hash},
                         excluded_embed_metadata_keys=["path", "file_path", "language", "file_hash"],
                         excluded_llm_metadata_keys=["file_path", "file_hash"])
                for source in walk_sources(path, walk)]

    def _parse_nodes(self, nodes: Sequence[BaseNode], show_progress: bool = False, **kwargs: Any) -> list[BaseNode]:
        options = self.options
        parsed: list[BaseNode] = []
        for node in nodes:
            items = chunk_text(self._path_of(node), node.get_content(), options)
            for item in items:
                parsed.append(TextNode(
                    text=item.text,
                    id_=item.id,
                    metadata=dict(item.metadata),
                    excluded_embed_metadata_keys=[*item.metadata, *node.excluded_embed_metadata_keys],
                    excluded_llm_metadata_keys=[*_NOT_FOR_LLM, *node.excluded_llm_metadata_keys],
                    relationships={NodeRelationship.SOURCE: node.as_related_node_info()},
                ))
        return parsed

    def chunk_nodes(self, documents: Sequence[BaseNode]) -> list[TextNode]:
        """The documents' chunks as nodes an ``IngestionPipeline`` with a docstore dedups one
        by one: each node stands alone (no SOURCE: the docstore keys it by its id) and its
        metadata is what follows from the id (path, language, chunk_id, scope, entities,
        namespace), so its hash changes exactly when its id does. Run
        ``pipeline.run(nodes=parser.chunk_nodes(documents))`` with
        ``DocstoreStrategy.UPSERTS_AND_DELETE`` and :class:`ChunkSourceLink` last: unchanged
        chunks are skipped, new ones embedded, and those gone deleted from the docstore and
        the vector store. Lines and
        the file's hash are left out (they change when another part of the file does; the
        chunk id finds them in the CLI's output)."""
        options = self.options
        out = []
        for document in documents:
            for item in chunk_text(self._path_of(document), document.get_content(), options):
                metadata = {key: item.metadata[key] for key in ID_METADATA_KEYS if key in item.metadata}
                out.append(TextNode(
                    text=item.text, id_=item.id, metadata=metadata,
                    excluded_embed_metadata_keys=list(metadata),
                    excluded_llm_metadata_keys=[key for key in _NOT_FOR_LLM if key in metadata],
                ))
        return out

    def _path_of(self, node: BaseNode) -> str:
        for key in _PATH_KEYS:
            value = node.metadata.get(key)
            if isinstance(value, str) and value:
                return value if key == "path" else display_path(value, self.root)
        return ""


class ChunkSourceLink(TransformComponent):
    """The last transformation of a pipeline fed :meth:`ChunkExplorerNodeParser.chunk_nodes`:
    what goes to the vector store is a copy of each node whose SOURCE is the chunk itself,
    so the pipeline's delete of a chunk that is gone (by its ``ref_doc_id``) finds it. The
    docstore keeps the nodes as given: a node that is its own source there would make the
    docstore's delete fail."""

    def __call__(self, nodes: Sequence[BaseNode], **kwargs: Any) -> list[BaseNode]:
        return [node.model_copy(update={"relationships": {
            **node.relationships, NodeRelationship.SOURCE: RelatedNodeInfo(node_id=node.node_id)}})
            for node in nodes]
