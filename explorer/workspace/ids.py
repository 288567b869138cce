"""Stable chunk ids and content hashes: what lets an index follow a codebase.

A chunk's id is derived only from what it is, so the same file, content and settings
give the same id on any machine and in any run, and any change to what is embedded
changes it::

    fingerprint = sha256(canonical JSON of every ChunkOptions field)[:16]   (namespace
                  only when one is given)
    id = sha256(F("chunk-explorer-id/2") F(fingerprint) F(namespace) F(path) F(n)
                F(embedded text))[:32]                          (hex digits)

where ``F(v)`` is a field: the byte length of ``v`` in ASCII decimal, ``:``, then the
bytes of ``v``. Every field says where it ends, so no two different inputs give the same
bytes (a text holding NUL or digits cannot pass for another chunk's occurrence number).
``namespace`` is the run's namespace (a repository's name, so one index can hold many
repositories), empty when none is given. ``path`` is the file's POSIX path relative to
the root of the run, as its bytes (UTF-8; a name byte that is not UTF-8 stays that byte,
as ``os.fsencode`` gives it). ``embedded text`` is the chunk's ``contextualized_text``
(the text an index embeds: the chunk with its context header and overlap), and ``n`` is
the number of earlier chunks of the same file with the same embedded text (``0`` for the
first, then ``1``, ``2``, ...), so ids stay unique. A string no file name decodes to (one
with lone surrogates that are not escaped bytes) is written ``~`` then its field with
each surrogate as UTF-8 would code it, so it cannot equal any name's bytes. The canonical
JSON has sorted keys and no spaces, so an option added in a later version is covered
automatically (and changes the fingerprint once).

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

ID_VERSION = "chunk-explorer-id/2"
#: Options left out of the fingerprint when unset: ids without a namespace stay those of
#: before namespaces existed. Set, a namespace is in it, so a state written under another
#: namespace is seen as other settings (every id changed).
_ONLY_WHEN_SET = ("namespace",)


@functools.lru_cache(maxsize=64)
def settings_fingerprint(options: ChunkOptions) -> str:
    """16 hex digits naming every chunking option (all fields of ChunkOptions; the
    namespace only when set)."""
    return fingerprint_of(options.to_dict())


def fingerprint_of(values: dict[str, Any]) -> str:
    """The fingerprint of option values (every field, as ``ChunkOptions.to_dict`` gives them;
    an unset namespace left out)."""
    values = {name: value for name, value in values.items() if not (name in _ONLY_WHEN_SET and value is None)}
    canonical = json.dumps(values, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(canonical.encode("ascii")).hexdigest()[:16]


def content_hash(data: bytes) -> str:
    """A file's content hash: SHA-256 of its bytes, hex."""
    return hashlib.sha256(data).hexdigest()


def _field(value: bytes) -> bytes:
    return b"%d:" % len(value) + value


def _text_field(text: str) -> bytes:
    """``text`` as a field: its UTF-8 bytes, with a file name's escaped bytes (Python decodes
    a name's non-UTF-8 bytes as surrogates U+DC80-U+DCFF) back as those bytes; a string that
    no bytes decode to is marked ``~`` and coded with its surrogates, so two different
    strings never give the same field."""
    try:
        return _field(text.encode("utf-8"))
    except UnicodeEncodeError:
        pass
    try:
        raw = text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        raw = None
    if raw is not None and raw.decode("utf-8", "surrogateescape") == text:
        return _field(raw)
    return b"~" + _field(text.encode("utf-8", "surrogatepass"))


_ID_PREFIX = _field(ID_VERSION.encode("ascii"))


def chunk_id(fingerprint: str, path: str, embedded_text: str, occurrence: int = 0, namespace: str | None = None) -> str:
    """The id of one chunk (see the module docstring for the formula)."""
    digest = hashlib.sha256(_ID_PREFIX)
    digest.update(_field(fingerprint.encode("ascii")))
    digest.update(_text_field(namespace or ""))
    digest.update(_text_field(path))
    digest.update(_field(b"%d" % occurrence))
    digest.update(_text_field(embedded_text))
    return digest.hexdigest()[:32]


def chunk_ids(path: str, embedded_texts: Iterable[str], options: ChunkOptions | str,
              namespace: str | None = None) -> list[str]:
    """The ids of a file's chunks, in order (``options`` or its fingerprint; the namespace
    is ``options.namespace`` unless given)."""
    if isinstance(options, str):
        fingerprint = options
    else:
        fingerprint = settings_fingerprint(options)
        namespace = namespace if namespace is not None else options.namespace
    seen: dict[str, int] = {}
    ids = []
    for text in embedded_texts:
        occurrence = seen.get(text, 0)
        seen[text] = occurrence + 1
        ids.append(chunk_id(fingerprint, path, text, occurrence, namespace))
    return ids
