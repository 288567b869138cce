"""The export formats, shared by the CLI and the explorer.

JSON, one document::

    {"tool": "chunk-explorer", "version": "0.1.0", "schema": 1,
     "root": "/abs/dir", "options": {...ChunkOptions.to_dict()},
     "files": [
       {"path": "pkg/a.py", "language": "python", "fileHash": "<sha256>",
        "chunks": [{"id": "<chunk id>", **Chunk.to_dict()}, ...]},
       {"path": "pkg/b.py", "language": "python", "error": {"kind": "...", "message": "..."}}
     ],
     "skipped": [{"path": "logo.png", "reason": "binary"}, ...],
     "summary": {...}}

``path`` is POSIX and relative to ``root``. The document is written file by file, so a
whole codebase never has to sit in memory as one object.

JSONL: one chunk per line, ``{"path": ..., "language": ..., "id": ..., "fileHash": ...,
**Chunk.to_dict()}``, for streaming into an indexer; after the chunks, one line per input
left out, ``{"path": ..., "skipped": {"reason": ..., "detail": ...}}`` (the document's
``skipped`` list, line by line: a line without ``id`` is no chunk). Errors go to the
summary on stderr.

Every chunk carries its stable ``id`` and every file its ``fileHash`` (SHA-256 of its
bytes): :mod:`explorer.workspace.ids` gives the formulas.

Both are written as UTF-8 bytes (see :func:`utf8` for names that are not UTF-8).
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import IO, Any

from ..engine.options import ChunkOptions
from ..version import tool_version
from .atomic import OutputError, atomic_writer, check_writable, write_atomic
from .ids import chunk_ids, content_hash, settings_fingerprint

__all__ = [
    "SCHEMA_VERSION", "FORMATS", "OutputError", "atomic_writer", "check_writable", "write_atomic",
    "file_record", "chunk_records", "chunk_lines", "encode_file_record", "encode_jsonl", "JsonDocumentWriter",
    "JsonlWriter", "render_json", "utf8", "json_bytes", "json_header", "TOOL",
]

SCHEMA_VERSION = 1
FORMATS = ("json", "jsonl")
#: The ``tool`` every JSON document names as its writer.
TOOL = "chunk-explorer"

#: A lone surrogate: in a name from the file system, one byte that is not UTF-8
#: (Python decodes such names with ``surrogateescape``: byte 0xE9 becomes U+DCE9).
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def json_header() -> dict[str, str]:
    """The first keys of every JSON document the tool writes (the export, stats, sweep,
    eval): which tool wrote it, and which version."""
    return {"tool": TOOL, "version": tool_version()}


def utf8(json_text: str) -> bytes:
    """JSON text as valid UTF-8, whatever names it holds. A byte of a file name that is
    not UTF-8 becomes the four characters ``\\xNN`` in the JSON string (``caf\\xe9.py``),
    any other lone surrogate ``\\uDXXX``: the output always decodes, and the escape says
    which byte it was. Text without such characters (nearly all) is encoded as is."""
    try:
        return json_text.encode("utf-8")
    except UnicodeEncodeError:
        return _LONE_SURROGATE.sub(_escape_surrogate, json_text).encode("utf-8")


def _escape_surrogate(match: re.Match[str]) -> str:
    code = ord(match.group())
    if 0xDC80 <= code <= 0xDCFF:
        return f"\\\\x{code - 0xDC00:02x}"  # JSON for a backslash, then xNN
    return f"\\\\u{code:04x}"


def json_bytes(value: Any, *, indent: int | None = None, level: int = 0) -> bytes:
    """``value`` as UTF-8 JSON; with ``indent``, nested ``level`` steps deep."""
    text = json.dumps(value, ensure_ascii=False, indent=indent)
    if indent and level:
        text = text.replace("\n", "\n" + " " * (indent * level))
    return utf8(text)


def chunk_records(rel: str, language: str | None, chunks: Sequence[Any], options: ChunkOptions,
                  file_hash: str) -> list[dict[str, Any]]:
    """One JSONL record per chunk: where it comes from, its id, then the chunk itself."""
    ids = chunk_ids(rel, [c.contextualized_text for c in chunks], options)
    return [{"path": rel, "language": language, "id": id_, "fileHash": file_hash, **chunk.to_dict()}
            for id_, chunk in zip(ids, chunks)]


def file_record(rel: str, language: str | None, chunks: Sequence[Any] | None = None,
                error: str | None = None, error_kind: str | None = None,
                *, options: ChunkOptions | None = None, file_hash: str | None = None,
                skipped: Sequence[str] = ()) -> dict[str, Any]:
    """One entry of the document's ``files`` list: chunks (with their ids when the
    ``options`` that made them are given), or the error; ``skipped``: the parts of the file
    left out of its chunks, each with why."""
    record: dict[str, Any] = {"path": rel, "language": language}
    if file_hash is not None:
        record["fileHash"] = file_hash
    if error is not None:
        record["error"] = {"kind": error_kind or "error", "message": error}
    elif options is not None:
        chunks = chunks or ()
        ids = chunk_ids(rel, [c.contextualized_text for c in chunks], options)
        record["chunks"] = [{"id": id_, **c.to_dict()} for id_, c in zip(ids, chunks)]
    else:
        record["chunks"] = [c.to_dict() for c in (chunks or ())]
    if skipped and error is None:
        record["skipped"] = list(skipped)
    return record


def chunk_lines(rel: str, language: str | None, chunks: Sequence[Any], options: ChunkOptions,
                file_hash: str) -> Iterable[bytes]:
    """JSONL lines (UTF-8, with trailing newline) for one file's chunks."""
    for record in chunk_records(rel, language, chunks, options, file_hash):
        yield json_bytes(record) + b"\n"


#: A file record sits two levels deep in the document (``{"files": [record]}``).
RECORD_LEVEL = 2


def encode_file_record(parsed: Any, chunks: Sequence[Any], options: Any, seconds: Any,
                       *, indent: int | None = None) -> tuple[int, bytes]:
    """Batch analyzer: ``(chunk count, the file's JSON record as the document's bytes)``,
    encoded in the worker process, so the parent only concatenates bytes."""
    record = file_record(parsed.path, parsed.language, chunks, options=options,
                         file_hash=content_hash(parsed.source.data), skipped=parsed.skipped)
    return len(chunks), json_bytes(record, indent=indent, level=RECORD_LEVEL)


def encode_jsonl(parsed: Any, chunks: Sequence[Any], options: Any, seconds: Any) -> tuple[int, bytes]:
    """Batch analyzer: ``(chunk count, the file's JSONL lines)`` encoded in the worker."""
    return len(chunks), b"".join(chunk_lines(parsed.path, parsed.language, chunks, options,
                                             content_hash(parsed.source.data)))


class JsonDocumentWriter:
    """Writes the JSON document incrementally to a binary stream: header, one file record
    at a time, footer. ``indent=None`` puts each file record on one line."""

    def __init__(self, out: IO[bytes], options: ChunkOptions | Mapping[str, Any], root: str,
                 *, indent: int | None = None, extra: Mapping[str, Any] | None = None):
        self.out = out
        self.indent = indent
        self._files = 0
        header = {
            **json_header(),
            "schema": SCHEMA_VERSION,
            "root": root,
            "options": options.to_dict() if hasattr(options, "to_dict") else dict(options),
            **({"fingerprint": settings_fingerprint(options)} if isinstance(options, ChunkOptions) else {}),
            **(extra or {}),
        }
        head = json_bytes(header, indent=indent)
        # Reopen the header object so the files list can be streamed into it.
        out.write(head[:-1].rstrip() + b"," + self._nl(1) + b'"files": [')

    def add(self, record: Mapping[str, Any]) -> None:
        self.add_encoded(json_bytes(record, indent=self.indent, level=RECORD_LEVEL))

    def add_encoded(self, data: bytes) -> None:
        """Add a record encoded by :func:`encode_file_record` with this writer's indent."""
        self.out.write((b"," if self._files else b"") + self._nl(2) + data)
        self._files += 1

    def close(self, skipped: Iterable[Mapping[str, Any]] = (), summary: Mapping[str, Any] | None = None) -> None:
        out = self.out
        out.write((self._nl(1) if self._files else b"") + b"]")
        skipped = list(skipped)
        out.write(b"," + self._nl(1) + b'"skipped": [')
        for i, record in enumerate(skipped):
            out.write((b"," if i else b"") + self._nl(2) + json_bytes(record, indent=self.indent, level=2))
        out.write((self._nl(1) if skipped else b"") + b"]")
        if summary is not None:
            out.write(b"," + self._nl(1) + b'"summary": ' + json_bytes(summary, indent=self.indent, level=1))
        out.write(b"\n}\n")

    def _nl(self, level: int) -> bytes:
        return b"\n" + b" " * ((self.indent or 0) * level)


class JsonlWriter:
    def __init__(self, out: IO[bytes]):
        self.out = out
        self.count = 0

    def add(self, rel: str, language: str | None, chunks: Sequence[Any], options: ChunkOptions,
            file_hash: str) -> None:
        for line in chunk_lines(rel, language, chunks, options, file_hash):
            self.out.write(line)
            self.count += 1

    def add_encoded(self, count: int, lines: bytes) -> None:
        """Add lines made by :func:`encode_jsonl`."""
        self.out.write(lines)
        self.count += count

    def add_skipped(self, record: Mapping[str, Any]) -> None:
        """A line naming an input left out (a ``skipped`` entry of the JSON document)."""
        why = {key: value for key, value in record.items() if key != "path"}
        self.out.write(json_bytes({"path": record["path"], "skipped": why}) + b"\n")


def render_json(files: Iterable[Mapping[str, Any]], options: ChunkOptions | Mapping[str, Any], root: str,
                *, skipped: Iterable[Mapping[str, Any]] = (), summary: Mapping[str, Any] | None = None,
                indent: int | None = 2) -> str:
    """The whole document as a string (for small exports such as one file from the explorer)."""
    buffer = io.BytesIO()
    writer = JsonDocumentWriter(buffer, options, root, indent=indent)
    for record in files:
        writer.add(record)
    writer.close(skipped, summary)
    return buffer.getvalue().decode("utf-8")
