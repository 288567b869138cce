"""What a file is made of: entities (definitions, imports, exports) and the file's structure.

An :class:`Entity` is one named thing in the source: a function, method, class,
interface, type, enum, module (module, namespace or package), constant,
variable, field, import or export. Ranges are UTF-8 byte offsets, end exclusive,
and cover the whole definition *including* its wrappers (decorators, an
``export`` keyword, a ``template<...>`` line), so an entity range is a tree node's
range and entity ranges nest like the tree does. Lines are 0-based and inclusive,
computed as :meth:`SourceText.line_range` does, so they agree with chunk line ranges.

Types across languages: structs, unions, type aliases and delegates are ``type``;
Rust ``impl`` blocks (named after the implementing type), Kotlin and Scala
objects, Java and C# records and Swift extensions are ``class``; traits,
protocols and annotation types are ``interface``; namespaces, packages, Rust
``mod`` and Ruby ``module`` are ``module``; constructors are ``method``; a
``function`` directly inside a class, interface, enum or type is a ``method``.
Constants are module-level ``const``/``static``/``final`` (and Python
UPPER_CASE) names; fields are class and struct members, properties included.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from ..model import ImportEntry, Range

#: Every entity type.
ENTITY_TYPES: tuple[str, ...] = (
    "method",
    "function",
    "class",
    "interface",
    "enum",
    "type",
    "module",
    "constant",
    "variable",
    "field",
    "import",
    "export",
)

#: Types that are never scope parents, siblings or "defines": they live in ``imports``.
NON_SCOPE_TYPES = frozenset({"import", "export"})

#: A function directly inside one of these becomes a method.
METHOD_PARENT_TYPES = frozenset({"class", "interface", "enum", "type"})


@dataclass(eq=False, slots=True)
class Entity:
    """One definition, import or export of a file.

    ``parent`` is the innermost entity whose range strictly contains this one
    (so a method knows its class and a nested function its function);
    ``children`` are in source order. Imports and exports carry ``source`` (the
    module) and, for aliased imports, ``imported`` (the name before ``as``).
    """

    name: str
    type: str
    kind: str
    start: int
    end: int
    signature: str
    docstring: str | None = None
    line_start: int = 0
    line_end: int = 0
    parent: Entity | None = None
    children: list[Entity] = field(default_factory=list)
    source: str | None = None
    imported: str | None = None
    is_exported: bool = False
    is_default: bool = False
    is_namespace: bool = False
    #: A glob import (``*``, ``#include``, ``require``): what it brings in is unknown.
    is_wildcard: bool = False
    #: Imported for its side effects only (``import './x'``, Go ``_``): binds no name.
    is_side_effect: bool = False
    depth: int = 0
    #: Position in the file's sorted entity list (set with the scope index).
    index: int = -1
    #: Where ``docstring`` sits in the source (UTF-8 bytes, end exclusive): a Python
    #: docstring's statement, or a doc comment's whole lines (for masking it out).
    doc_range: Range | None = None

    @property
    def byte_range(self) -> Range:
        return Range(self.start, self.end)

    @property
    def line_range(self) -> Range:
        return Range(self.line_start, self.line_end)

    @property
    def local_name(self) -> str | None:
        """The identifier code uses to refer to an import (``os`` for ``import os.path``)."""
        if self.is_side_effect or self.is_wildcard:
            return None
        return self.name.split(".", 1)[0] if self.type == "import" else self.name

    def ancestors(self) -> list[Entity]:
        """Enclosing entities, innermost first."""
        chain = []
        node = self.parent
        while node is not None:
            chain.append(node)
            node = node.parent
        return chain

    def contains(self, start: int, end: int) -> bool:
        return self.start <= start and end <= self.end

    def import_entry(self) -> ImportEntry:
        """What a chunk's context says of this import (its wire form: ``{name, source[,
        isDefault][, isNamespace]}``, flags only when true)."""
        return ImportEntry(self.name, self.source or "", self.is_default, self.is_namespace)

    def __repr__(self) -> str:
        parent = f" in {self.parent.name}" if self.parent else ""
        return f"<{self.type} {self.name!r} {self.start}-{self.end}{parent}>"


class ScopeLookup(Protocol):
    """The scope look-ups of a file's structure (:class:`~.scope.ScopeIndex`, or a container
    file's regions' together): see :class:`~.scope.ScopeIndex` for what each answers."""

    def scope_at(self, offset: int) -> Entity | None: ...

    def enclosing(self, start: int, end: int, limit: int | None = None) -> list[Entity]: ...

    def around(self, start: int, end: int, limit: int | None = None) -> tuple[list[Entity], list[Entity]]: ...

    def entities_in_range(self, start: int, end: int) -> list[tuple[Entity, bool]]: ...

    def starting_in(self, start: int, end: int) -> list[tuple[Entity, bool]]: ...

    def siblings(self, parent: Entity | None, start: int, end: int, limit: int) -> list[tuple[Entity, str, int]]: ...


@dataclass(eq=False, slots=True)
class FileStructure:
    """Everything extracted from one file.

    ``entities`` holds every entity sorted by start (outer before inner when
    they start together); ``imports`` and ``exports`` are the import and export
    entities in source order; ``roots`` are the top-level scope entities.
    ``level`` is ``"full"`` (hand-written per-language queries) or ``"generic"``
    (definitions recognised by node kind), or ``"none"`` when there was no tree.
    ``docstring`` documents the file itself (see :mod:`.module_docs`).
    """

    language: str | None
    level: str
    entities: list[Entity]
    imports: list[Entity]
    exports: list[Entity]
    roots: list[Entity]
    scope: ScopeLookup
    docstring: str | None = None

    def by_name(self, name: str) -> list[Entity]:
        return [e for e in self.entities if e.name == name]
