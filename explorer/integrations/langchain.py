"""LangChain adapters: a ``TextSplitter`` that chunks as ``chunk-explorer chunk`` does,
and a document loader that walks a directory as the CLI walks it.

    from explorer.integrations.langchain import ChunkExplorerLoader, ChunkExplorerTextSplitter

    splitter = ChunkExplorerTextSplitter.from_settings("my-repo")   # its .chunk-explorer.toml
    documents = splitter.split_documents(ChunkExplorerLoader("my-repo").load())

Each document's ``page_content`` is the text to embed (the chunk with its context
header), its ``id`` the chunk's stable id, and its metadata: path, language, chunk_id,
file_hash, line_start/line_end (1-based), scope, entities, chunk_index, total_chunks
(namespace with one; start_index with ``add_start_index=True``). Keep the ids through
``langchain_core.indexing.index()`` with ``key_encoder=chunk_key`` (docs/indexing.md).
Needs ``pip install 'chunk-explorer[langchain]'``.
"""

from __future__ import annotations

import copy
import os
from collections.abc import Iterable, Iterator
from typing import Any

from langchain_core.document_loaders import BaseLoader
from langchain_core.documents import Document
from langchain_text_splitters import TextSplitter

from ..engine.options import ChunkOptions
from ..workspace.paths import display_path
from ..workspace.walk import WalkOptions
from .common import chunk_text, find_adapter_settings, walk_sources

__all__ = ["ChunkExplorerTextSplitter", "ChunkExplorerLoader", "chunk_key"]


def chunk_key(document: Document) -> str:
    """The ``key_encoder`` that makes ``langchain_core.indexing.index()`` keep the chunk ids:
    a document's key is its chunk id, which changes exactly when its embedded text (or path,
    namespace or settings) does; so ``index()`` skips every chunk already indexed and embeds
    only the new ones."""
    return str(document.metadata["chunk_id"])


class ChunkExplorerTextSplitter(TextSplitter):
    """Splits source files into Chunk Explorer's chunks. A document's path (its
    ``path`` metadata, else ``source`` made relative to ``root``) picks the language and
    goes into the chunk's context and id, as the CLI's path relative to its root does."""

    def __init__(self, options: ChunkOptions | None = None, *, root: str | os.PathLike[str] | None = None,
                 default_path: str = "", add_start_index: bool = False, chunk_size: int | None = None,
                 **overrides: Any) -> None:
        """``overrides`` are ChunkOptions fields (``namespace`` among them). LangChain's own
        keywords: ``chunk_size`` is ``max_size`` (in the options' size unit);
        ``add_start_index`` puts ``start_index`` in each chunk's metadata: where the chunk's
        code starts in the document's text, in code points (the embedded text adds the header)."""
        if chunk_size is not None:
            if "max_size" in overrides:
                raise ValueError("give chunk_size or max_size, not both (chunk_size is max_size)")
            overrides["max_size"] = chunk_size
        self.options = ChunkOptions.build(options, **overrides)
        # LangChain's own size checks see the chunk limit; nothing is merged or stripped.
        super().__init__(chunk_size=self.options.max_size, chunk_overlap=0, strip_whitespace=False,
                         add_start_index=add_start_index)
        self.root = os.path.abspath(os.fspath(root)) if root is not None else None
        self.default_path = default_path

    @classmethod
    def from_settings(cls, start: str | os.PathLike[str] | None = None, *,
                      settings_path: str | os.PathLike[str] | None = None,
                      root: str | os.PathLike[str] | None = None, **overrides: Any) -> ChunkExplorerTextSplitter:
        """A splitter with the options of the settings file the CLI would read for
        ``start`` (default: the current directory), or of ``settings_path``; ``root``
        defaults to ``start``."""
        settings = find_adapter_settings(start, settings_path)
        return cls(settings.options, root=root if root is not None else (start or os.curdir), **overrides)

    def split_text(self, text: str) -> list[str]:
        """The texts to embed, for a text with no path (``default_path`` names it)."""
        return [item.text for item in chunk_text(self.default_path, text, self.options)]

    def create_documents(self, texts: list[str], metadatas: list[dict[Any, Any]] | None = None) -> list[Document]:
        documents = []
        for text, metadata in zip(texts, metadatas or [{}] * len(texts)):
            for item in chunk_text(self._path_of(metadata), text, self.options):
                extra = {"start_index": item.chunk.char_range.start} if self._add_start_index else {}
                documents.append(Document(page_content=item.text, id=item.id,
                                          metadata={**copy.deepcopy(metadata), **item.metadata, **extra}))
        return documents

    def _path_of(self, metadata: dict[Any, Any]) -> str:
        if isinstance(metadata.get("path"), str):
            return str(metadata["path"])
        if isinstance(metadata.get("source"), str):
            return display_path(str(metadata["source"]), self.root)
        return self.default_path


class ChunkExplorerLoader(BaseLoader):
    """One document per file the CLI's ``chunk PATH`` would take (``.gitignore``, default
    excludes, ``[walk]`` settings, the settings file itself left out), in the same order.
    Metadata: ``source`` and ``path`` (the file's path relative to PATH, as in the CLI's
    output: no machine's folder gets into an index), ``language``, ``file_hash``."""

    def __init__(self, path: str | os.PathLike[str], walk: WalkOptions | None = None, *,
                 settings_path: str | os.PathLike[str] | None = None) -> None:
        self.path = os.fspath(path)
        self.walk = walk if walk is not None else find_adapter_settings(self.path, settings_path).walk

    def lazy_load(self) -> Iterator[Document]:
        for source in walk_sources(self.path, self.walk):
            yield Document(page_content=source.text, id=source.rel,
                           metadata={"source": source.rel, "path": source.rel, "language": source.language,
                                     "file_hash": source.file_hash})


def split_directory(path: str | os.PathLike[str], splitter: ChunkExplorerTextSplitter | None = None,
                    walk: WalkOptions | None = None) -> Iterable[Document]:
    """Every chunk of a directory as LangChain documents (the settings file found for
    ``path`` gives the options and walk rules unless given)."""
    splitter = splitter or ChunkExplorerTextSplitter.from_settings(path)
    for document in ChunkExplorerLoader(path, walk).lazy_load():
        yield from splitter.split_documents([document])
