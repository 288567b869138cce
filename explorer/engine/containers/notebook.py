"""Jupyter notebooks (nbformat 4) read as a document of their cells' sources.

The JSON is read with the standard library. What is chunked is the *document*: every
cell's source in order, as a person reads it (not JSON escapes), each followed by a line
break when its source lacks one. Outputs and attachments are left out (their count and
size are reported), so a notebook of several megabytes of plots chunks like its code. A cell
of a type nbformat 4 does not define (a later format's) is skipped and named in ``skipped``.
"""

from __future__ import annotations

import codecs
import json
from dataclasses import dataclass
from typing import Any


class NotebookError(ValueError):
    """A notebook that cannot be read: not JSON, not nbformat 4, or malformed cells."""

    def __init__(self, path: str | None, reason: str):
        self.path = path
        self.reason = reason
        where = f"{path}: " if path else ""
        super().__init__(f"{where}not a readable notebook ({reason})")


@dataclass(frozen=True, slots=True)
class NotebookCell:
    """One cell: its index in the notebook, kind (``code``, ``markdown``, ``raw``) and source."""

    index: int
    kind: str
    source: str


@dataclass(frozen=True, slots=True)
class Notebook:
    language: str | None  # the kernel's language, as the metadata names it
    cells: tuple[NotebookCell, ...]
    outputs: int  # outputs left out
    output_bytes: int  # their size in the JSON, roughly
    #: Cells left out, each ``cell N (why)``: a cell_type this reader does not know.
    skipped: tuple[str, ...] = ()

    def document(self) -> tuple[str, list[tuple[int, int, bool]]]:
        """The text chunked, and for each cell ``(start, end, newline_added)`` in code points:
        ``[start, end)`` is exactly the cell's source; a line break is added after a
        source that does not end with one, so the next cell starts on a new line."""
        parts: list[str] = []
        spans: list[tuple[int, int, bool]] = []
        at = 0
        for cell in self.cells:
            source = cell.source
            added = bool(source) and not source.endswith(("\n", "\r"))
            parts.append(source + "\n" if added else source)
            spans.append((at, at + len(source), added))
            at += len(source) + added
        return "".join(parts), spans


def read_notebook(data: bytes, path: str | None = None) -> Notebook:
    """Read a notebook's JSON (``data`` is UTF-8), or raise :class:`NotebookError` saying why."""
    if data.startswith(codecs.BOM_UTF8):  # written by some Windows editors; JSON itself has none
        data = data[len(codecs.BOM_UTF8) :]
    try:
        doc = json.loads(data)
    except json.JSONDecodeError as exc:
        raise NotebookError(path, f"not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}") from None
    except (UnicodeDecodeError, RecursionError) as exc:
        raise NotebookError(path, f"not valid JSON: {type(exc).__name__}") from None
    if not isinstance(doc, dict) or ("cells" not in doc and "nbformat" not in doc):
        raise NotebookError(path, "no cells: not a Jupyter notebook")
    version = doc.get("nbformat")
    if version != 4:
        raise NotebookError(path, f"nbformat {version!r}: only nbformat 4 is read (jupyter nbconvert --to notebook upgrades it)")
    cells_json = doc["cells"]
    if not isinstance(cells_json, list):
        raise NotebookError(path, "'cells' is not a list")
    cells: list[NotebookCell] = []
    skipped: list[str] = []
    outputs = output_bytes = 0
    for index, cell in enumerate(cells_json):
        if not isinstance(cell, dict):
            raise NotebookError(path, f"cell {index} is not an object")
        kind = cell.get("cell_type")
        if kind is None:
            raise NotebookError(path, f"cell {index} has no cell_type")
        if not isinstance(kind, str):
            raise NotebookError(path, f"cell {index}: cell_type {kind!r} is not a string")
        if kind not in ("code", "markdown", "raw"):
            # nbformat's rule for a type it does not know (one a later version added): the
            # notebook stays readable, the cell is left out
            skipped.append(f"cell {index} (unknown cell_type {kind!r})")
            continue
        cells.append(NotebookCell(index, kind, _source(cell.get("source", ""), path, index)))
        found = cell.get("outputs")
        if isinstance(found, list) and found:
            outputs += len(found)
            output_bytes += len(json.dumps(found))
    return Notebook(_language(doc.get("metadata")), tuple(cells), outputs, output_bytes, tuple(skipped))


def _source(value: Any, path: str | None, index: int) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(line, str) for line in value):
        return "".join(value)
    raise NotebookError(path, f"cell {index}: source is neither a string nor a list of strings")


def _language(metadata: Any) -> str | None:
    if not isinstance(metadata, dict):
        return None
    for key, field in (("kernelspec", "language"), ("language_info", "name")):
        section = metadata.get(key)
        if isinstance(section, dict) and isinstance(section.get(field), str):
            return str(section[field])
    return None
