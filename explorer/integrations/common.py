"""What both framework adapters share: settings found as the CLI finds them, files
walked as the CLI walks them, and one chunked file with the metadata each chunk carries.

No framework is imported here."""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ..engine.api import chunk_parsed, parse
from ..engine.files import DEFAULT_MAX_BYTES, read_regular_file
from ..engine.model import Chunk
from ..engine.options import ChunkOptions
from ..engine.text import BinaryContentError, decode_source
from ..workspace.ids import chunk_ids, content_hash
from ..workspace.settings import Settings, load_settings, settings_notice
from ..workspace.walk import WalkOptions, common_root, plan

logger = logging.getLogger("explorer.integrations")

#: Metadata keys the adapters put on every chunk (and ``namespace`` when the options have one).
METADATA_KEYS = ("path", "language", "chunk_id", "file_hash", "line_start", "line_end", "scope", "entities",
                 "chunk_index", "total_chunks")
#: The keys that follow from a chunk's id alone (its path, namespace and embedded text): what
#: a store may compare to tell whether a chunk changed. The others (the file's hash, the lines,
#: the position in the file) also change when another part of the file does.
ID_METADATA_KEYS = ("path", "language", "chunk_id", "scope", "entities", "namespace")


def find_adapter_settings(start: str | os.PathLike[str] | None = None, settings_path: str | os.PathLike[str] | None = None,
                          ) -> Settings:
    """The settings an adapter uses: ``settings_path``, else the nearest
    ``.chunk-explorer.toml`` from ``start`` (default: the current directory) upwards, as
    the CLI finds it. Which file was read is logged (``explorer.integrations``, INFO)."""
    start = os.fspath(start) if start is not None else os.curdir
    settings = load_settings(start, settings_path)
    logger.info("%s", settings_notice(settings, start))
    return settings


@dataclass(frozen=True, slots=True)
class SourceFile:
    """A file as the CLI would chunk it: ``rel`` is its path relative to the root."""

    path: str
    rel: str
    language: str | None
    text: str
    file_hash: str


def walk_sources(path: str | os.PathLike[str], walk: WalkOptions | None = None) -> Iterator[SourceFile]:
    """The text files the CLI's ``chunk PATH`` takes, in its order, decoded; files that
    are binary, not UTF-8 or unreadable are left out (logged), as the CLI skips them.
    ``path`` is where the file was read, ``rel`` its path relative to PATH."""
    root = common_root([path])
    files_plan = plan([os.fspath(path)], walk, root=root)
    for walked in files_plan.files:
        try:
            data = read_regular_file(walked.path, max(DEFAULT_MAX_BYTES, walked.size))
            text = decode_source(data, walked.rel)
        except (OSError, BinaryContentError) as exc:
            logger.warning("skipped %s: %s", walked.rel, exc)
            continue
        yield SourceFile(walked.path, walked.rel, walked.language, text, content_hash(data))


@dataclass(frozen=True, slots=True)
class ChunkedText:
    """One chunk with its id and its metadata for a framework."""

    id: str
    chunk: Chunk
    metadata: dict[str, Any]

    @property
    def text(self) -> str:
        """The text to embed: the chunk with its context header (``contextualizedText``)."""
        return self.chunk.contextualized_text


def chunk_text(rel: str, text: str, options: ChunkOptions) -> list[ChunkedText]:
    """The file's chunks exactly as the CLI makes them for the same path and settings,
    with ids and flat metadata (strings and numbers: any vector store takes them)."""
    parsed = parse(rel or None, text, options)
    chunks = chunk_parsed(parsed, options)
    file_hash = content_hash(parsed.source.data)
    ids = chunk_ids(rel, [c.contextualized_text for c in chunks], options)
    return [ChunkedText(id_, chunk, chunk_metadata(rel, parsed.language, chunk, id_, file_hash, options.namespace))
            for id_, chunk in zip(ids, chunks)]


def chunk_metadata(rel: str, language: str | None, chunk: Chunk, id_: str, file_hash: str,
                   namespace: str | None = None) -> dict[str, Any]:
    """Lines are 1-based and inclusive here, as editors show them (the JSON's
    ``lineRange`` is 0-based); the scope is ``Outer > Inner``, the entities are names
    joined by ", "."""
    context = chunk.context
    metadata = {
        "path": rel,
        "language": language,
        "chunk_id": id_,
        "file_hash": file_hash,
        "line_start": chunk.line_range.start + 1,
        "line_end": chunk.line_range.end + 1,
        "scope": " > ".join(s.name for s in reversed(context.scope)),  # outermost first
        "entities": ", ".join(e.name for e in context.entities),
        "chunk_index": chunk.index,
        "total_chunks": chunk.total_chunks,
    }
    if namespace is not None:
        metadata["namespace"] = namespace
    return metadata
