"""The export formats, shared by the CLI and the explorer.

JSON, one document::

    {"tool": "chunk-explorer", "version": "0.1.0", "schema": 1,
     "root": "/abs/dir", "options": {...ChunkOptions.to_dict()},
     "files": [
       {"path": "pkg/a.py", "language": "python", "chunks": [Chunk.to_dict(), ...]},
       {"path": "pkg/b.py", "language": "python", "error": {"kind": "...", "message": "..."}}
     ],
     "skipped": [{"path": "logo.png", "reason": "binary"}, ...],
     "summary": {...}}

``path`` is POSIX and relative to ``root``. The document is written file by file, so a
whole codebase never has to sit in memory as one object.

JSONL: one chunk per line, ``{"path": ..., "language": ..., **Chunk.to_dict()}``, for
streaming into an indexer. Errors and skipped files go to the summary, not the stream.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TextIO

from ..engine.options import ChunkOptions
from .atomic import OutputError, atomic_writer, check_writable, write_atomic

__all__ = [
    "SCHEMA_VERSION", "FORMATS", "OutputError", "atomic_writer", "check_writable", "write_atomic",
    "file_record", "chunk_lines", "encode_file_record", "encode_jsonl", "JsonDocumentWriter",
    "JsonlWriter", "render_json", "tool_version",
]

SCHEMA_VERSION = 1
FORMATS = ("json", "jsonl")


def tool_version() -> str:
    try:
        from importlib.metadata import version

        return version("chunk-explorer")
    except Exception:  # not installed (running from a source tree)
        return "0+unknown"


def file_record(rel: str, language: str | None, chunks: Sequence[Any] | None = None,
                error: str | None = None, error_kind: str | None = None) -> dict[str, Any]:
    """One entry of the document's ``files`` list: chunks, or the error."""
    record: dict[str, Any] = {"path": rel, "language": language}
    if error is not None:
        record["error"] = {"kind": error_kind or "error", "message": error}
    else:
        record["chunks"] = [c.to_dict() for c in (chunks or ())]
    return record


def chunk_lines(rel: str, language: str | None, chunks: Iterable[Any]) -> Iterable[str]:
    """JSONL lines (with trailing newline) for one file's chunks."""
    for chunk in chunks:
        yield json.dumps({"path": rel, "language": language, **chunk.to_dict()}, ensure_ascii=False) + "\n"


def encode_file_record(parsed: Any, chunks: Sequence[Any], options: Any, seconds: Any,
                       *, indent: int | None = None) -> tuple[int, str]:
    """Batch analyzer: ``(chunk count, the file's JSON record)`` encoded in the worker
    process, so the parent only writes strings (it would otherwise be the bottleneck)."""
    record = file_record(parsed.path, parsed.language, chunks)
    return len(chunks), json.dumps(record, ensure_ascii=False, indent=indent)


def encode_jsonl(parsed: Any, chunks: Sequence[Any], options: Any, seconds: Any) -> tuple[int, str]:
    """Batch analyzer: ``(chunk count, the file's JSONL lines)`` encoded in the worker."""
    return len(chunks), "".join(chunk_lines(parsed.path, parsed.language, chunks))


class JsonDocumentWriter:
    """Writes the JSON document incrementally: header, one file record at a time, footer.
    ``indent=None`` puts each file record on one line (compact, still line-oriented)."""

    def __init__(self, out: TextIO, options: ChunkOptions | Mapping[str, Any], root: str,
                 *, indent: int | None = None, extra: Mapping[str, Any] | None = None):
        self.out = out
        self.indent = indent
        self._files = 0
        header = {
            "tool": "chunk-explorer",
            "version": tool_version(),
            "schema": SCHEMA_VERSION,
            "root": root,
            "options": options.to_dict() if hasattr(options, "to_dict") else dict(options),
            **(extra or {}),
        }
        head = self._dumps(header)
        # Reopen the header object so the files list can be streamed into it.
        out.write(head[:-1].rstrip() + "," + self._nl(1) + '"files": [')

    def add(self, record: Mapping[str, Any]) -> None:
        self.add_encoded(json.dumps(record, ensure_ascii=False, indent=self.indent))

    def add_encoded(self, text: str) -> None:
        """Add a record already encoded with ``json.dumps(record, indent=self.indent)``."""
        self.out.write(("," if self._files else "") + self._nl(2) + self._reindent(text, 2))
        self._files += 1

    def close(self, skipped: Iterable[Mapping[str, Any]] = (), summary: Mapping[str, Any] | None = None) -> None:
        self.out.write((self._nl(1) if self._files else "") + "]")
        skipped = list(skipped)
        self.out.write("," + self._nl(1) + '"skipped": [')
        for i, record in enumerate(skipped):
            self.out.write(("," if i else "") + self._nl(2) + self._dumps(record, level=2))
        self.out.write((self._nl(1) if skipped else "") + "]")
        if summary is not None:
            self.out.write("," + self._nl(1) + '"summary": ' + self._dumps(summary, level=1))
        self.out.write("\n}\n")

    def _nl(self, level: int) -> str:
        return "\n" + " " * ((self.indent or 0) * level)

    def _dumps(self, value: Any, level: int = 0) -> str:
        return self._reindent(json.dumps(value, ensure_ascii=False, indent=self.indent), level)

    def _reindent(self, text: str, level: int) -> str:
        if self.indent and level:
            text = text.replace("\n", "\n" + " " * (self.indent * level))
        return text


class JsonlWriter:
    def __init__(self, out: TextIO):
        self.out = out
        self.count = 0

    def add(self, rel: str, language: str | None, chunks: Iterable[Any]) -> None:
        for line in chunk_lines(rel, language, chunks):
            self.out.write(line)
            self.count += 1

    def add_encoded(self, count: int, lines: str) -> None:
        """Add lines made by :func:`encode_jsonl`."""
        self.out.write(lines)
        self.count += count


def render_json(files: Iterable[Mapping[str, Any]], options: ChunkOptions | Mapping[str, Any], root: str,
                *, skipped: Iterable[Mapping[str, Any]] = (), summary: Mapping[str, Any] | None = None,
                indent: int | None = 2) -> str:
    """The whole document as a string (for small exports such as one file from the explorer)."""
    buffer = io.StringIO()
    writer = JsonDocumentWriter(buffer, options, root, indent=indent)
    for record in files:
        writer.add(record)
    writer.close(skipped, summary)
    return buffer.getvalue()
