"""Helpers shared by the structure and context tests."""

from __future__ import annotations

from pathlib import Path

from explorer.engine.parse import ParsedFile, parse_source
from explorer.engine.structure import Entity, FileStructure, extract_structure
from explorer.engine.text import SourceText

STRUCTURE_FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "structure"


def parse(code: str, path: str, language: str | None = None) -> ParsedFile:
    return parse_source(SourceText(code), path, language)


def extract(code: str, path: str, language: str | None = None) -> FileStructure:
    return extract_structure(parse(code, path, language))


def fixture(name: str) -> tuple[str, FileStructure]:
    code = (STRUCTURE_FIXTURES / name).read_text(encoding="utf-8")
    return code, extract(code, name)


_ANY = object()


def one(structure: FileStructure, name: str, type: str | None = None, parent=_ANY) -> Entity:
    """The single entity called ``name`` (of ``type``, inside ``parent``: a name or
    ``None`` for top level), failing clearly otherwise."""
    found = [
        e
        for e in structure.entities
        if e.name == name
        and (type is None or e.type == type)
        and (parent is _ANY or (e.parent.name if e.parent else None) == parent)
    ]
    assert len(found) == 1, f"expected one {type or 'entity'} {name!r}, found {found}"
    return found[0]


def names(entities) -> list[str]:
    return [e.name for e in entities]


def span_of(code: str, snippet: str) -> tuple[int, int]:
    """Byte range of the first occurrence of ``snippet`` in ``code``."""
    data = code.encode("utf-8")
    at = data.index(snippet.encode("utf-8"))
    return at, at + len(snippet.encode("utf-8"))
