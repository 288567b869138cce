"""Stable chunk ids and content hashes: what lets an index follow a codebase.

A chunk's id is derived only from what it is, so the same file, content and settings
give the same id on any machine and in any run, and any change to what is embedded
changes it::

    fingerprint = sha256(canonical JSON of every ChunkOptions field)[:16]
    id = sha256("chunk-explorer-id/1" NUL fingerprint NUL path NUL embedded text
                [NUL n])[:32]                                   (hex digits)

``path`` is the file's POSIX path relative to the root of the run (UTF-8; a name byte
that is not UTF-8 stays that byte), ``embedded text`` is the chunk's
``contextualized_text`` (the text an index embeds: the chunk with its context header and
overlap), and ``n`` is added only to the second, third... chunk of one file whose
embedded text is identical to an earlier one's (``n`` = 1, 2, ...), so ids stay unique.
The canonical JSON has sorted keys and no spaces, so an option added in a later version
is covered automatically (and changes the fingerprint once).

A file's content hash is the SHA-256 of its bytes, in hex.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Iterable
from typing import Any

from ..engine.options import ChunkOptions

__all__ = ["ID_VERSION", "settings_fingerprint", "fingerprint_of", "content_hash", "chunk_id", "chunk_ids"]

ID_VERSION = "chunk-explorer-id/1"
_ID_PREFIX = ID_VERSION.encode("ascii") + b"\0"


@functools.lru_cache(maxsize=64)
def settings_fingerprint(options: ChunkOptions) -> str:
    """16 hex digits naming every chunking option (all fields of ChunkOptions)."""
    return fingerprint_of(options.to_dict())


def fingerprint_of(values: dict[str, Any]) -> str:
    """The fingerprint of option values (every field, as ``ChunkOptions.to_dict`` gives them)."""
    canonical = json.dumps(values, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(canonical.encode("ascii")).hexdigest()[:16]


def content_hash(data: bytes) -> str:
    """A file's content hash: SHA-256 of its bytes, hex."""
    return hashlib.sha256(data).hexdigest()


def _utf8(text: str) -> bytes:
    # File names may hold bytes that are not UTF-8 (decoded with surrogateescape) and
    # text may hold lone surrogates: both are encoded back to the bytes they came from.
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogateescape") if _escapable(text) else text.encode("utf-8", "surrogatepass")


def _escapable(text: str) -> bool:
    try:
        text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        return False
    return True


def chunk_id(fingerprint: str, path: str, embedded_text: str, occurrence: int = 0) -> str:
    """The id of one chunk (see the module docstring for the formula)."""
    digest = hashlib.sha256(_ID_PREFIX)
    digest.update(fingerprint.encode("ascii") + b"\0")
    digest.update(_utf8(path) + b"\0")
    digest.update(_utf8(embedded_text))
    if occurrence:
        digest.update(b"\0%d" % occurrence)
    return digest.hexdigest()[:32]


def chunk_ids(path: str, embedded_texts: Iterable[str], options: ChunkOptions | str) -> list[str]:
    """The ids of a file's chunks, in order (``options`` or its fingerprint)."""
    fingerprint = options if isinstance(options, str) else settings_fingerprint(options)
    seen: dict[str, int] = {}
    ids = []
    for text in embedded_texts:
        occurrence = seen.get(text, 0)
        seen[text] = occurrence + 1
        ids.append(chunk_id(fingerprint, path, text, occurrence))
    return ids
