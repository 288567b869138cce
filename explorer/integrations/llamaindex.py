"""LlamaIndex adapter: a ``NodeParser`` whose nodes are Chunk Explorer's chunks.

    from explorer.integrations.llamaindex import ChunkExplorerNodeParser

    parser = ChunkExplorerNodeParser.from_settings("my-repo")      # its .chunk-explorer.toml
    nodes = parser.get_nodes_from_documents(parser.documents_from_directory("my-repo"))

Each ``TextNode`` has the chunk's stable id as ``id_``, the text to embed (the chunk
with its context header) as its text, PREVIOUS/NEXT links to its neighbours in the file
and a SOURCE link to its document. The chunk's metadata (path, language, chunk_id,
file_hash, line_start/line_end, scope, entities, chunk_index, total_chunks) is kept out
of the embedded text (the header already holds the context) and ids, hashes and
positions out of the LLM's text. Needs ``pip install 'chunk-explorer[llamaindex]'``.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from llama_index.core.bridge.pydantic import Field
from llama_index.core.node_parser import NodeParser
from llama_index.core.schema import BaseNode, Document, NodeRelationship, TextNode

from ..engine.options import ChunkOptions
from ..workspace.paths import display_path
from ..workspace.walk import WalkOptions
from .common import METADATA_KEYS, chunk_text, find_adapter_settings, walk_sources

__all__ = ["ChunkExplorerNodeParser"]

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
                     **kwargs: Any) -> ChunkExplorerNodeParser:
        options = options or ChunkOptions()
        return cls(chunk_options=options.to_dict(), root=None if root is None else os.path.abspath(os.fspath(root)),
                   **kwargs)

    @classmethod
    def from_settings(cls, start: str | os.PathLike[str] | None = None, *,
                      settings_path: str | os.PathLike[str] | None = None,
                      root: str | os.PathLike[str] | None = None, **kwargs: Any) -> ChunkExplorerNodeParser:
        """A parser with the options of the settings file the CLI would read for ``start``
        (default: the current directory), or of ``settings_path``; ``root`` defaults to ``start``."""
        settings = find_adapter_settings(start, settings_path)
        return cls.from_options(settings.options, root=root if root is not None else (start or os.curdir), **kwargs)

    @property
    def options(self) -> ChunkOptions:
        return ChunkOptions.build(None, **self.chunk_options)

    def documents_from_directory(self, path: str | os.PathLike[str], walk: WalkOptions | None = None,
                                 *, settings_path: str | os.PathLike[str] | None = None) -> list[Document]:
        """One document per file the CLI's ``chunk PATH`` takes, with ``id_`` its path
        relative to PATH (so re-ingesting updates it) and ``path`` metadata (the same)."""
        if walk is None:
            walk = find_adapter_settings(path, settings_path).walk
        return [Document(text=source.text, id_=source.rel,
                         metadata={"path": source.rel, "file_path": source.path, "language": source.language,
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
                chunk = item.chunk
                parsed.append(TextNode(
                    text=item.text,
                    id_=item.id,
                    metadata=dict(item.metadata),
                    excluded_embed_metadata_keys=[*METADATA_KEYS, *node.excluded_embed_metadata_keys],
                    excluded_llm_metadata_keys=[*_NOT_FOR_LLM, *node.excluded_llm_metadata_keys],
                    start_char_idx=chunk.char_range.start,
                    end_char_idx=chunk.char_range.end,
                    relationships={NodeRelationship.SOURCE: node.as_related_node_info()},
                ))
        return parsed

    def _path_of(self, node: BaseNode) -> str:
        for key in _PATH_KEYS:
            value = node.metadata.get(key)
            if isinstance(value, str) and value:
                return value if key == "path" else display_path(value, self.root)
        return ""
