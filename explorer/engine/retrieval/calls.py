"""Uses of a project's own API: calls of its functions, methods and classes, and
mentions of its types, found in one parsed file.

A coding assistant that completes code using a project's own API retrieves the API's
definition from the code around the cursor (RepoEval's API-level task is the
published form). That gives queries that need no docs: the lines around a use are
the query, the used definition is the target. This module finds both sides in one
parsed file; :func:`~.evaluate.prepare` pairs them across files.

**Call sites.** Every call, ``new`` and method invocation node (the grammars' names
for them: :data:`CALL_TYPES`) names its callee by the last identifier of its callee
expression (``f(x)``, ``obj.f(x)``, ``this.#f()``, ``pkg.F()``, ``new C()`` give
``f``, ``f``, ``#f``, ``F``, ``C``); an import alias is followed to the imported name.
The tree is walked with a cursor, never recursively.

**Type uses.** Every type name node (``type_identifier``: TypeScript, Go, Java, Rust,
C and C++ mark type names so) in an annotation, a signature, an ``extends`` (a
definition's own name is not a use).

Each use knows the innermost definition it sits in (its *scope*), so a caller can keep
one query per scope and used name.

**Definitions.** The file's functions, methods, classes, interfaces, types and enums
(with full structure support), by name.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass

from tree_sitter import Node

from ..structure import FULL_LANGUAGES, FileStructure

#: Nodes that call something, across the grammars with full structure support.
CALL_TYPES = frozenset({
    "call", "call_expression", "new_expression", "method_invocation", "invocation_expression",
    "object_creation_expression", "method_call_expression", "function_call_expression",
    "member_call_expression", "scoped_call_expression",
})
#: Where a call node keeps its callee, in order of preference.
CALLEE_FIELDS = ("function", "constructor", "method", "name", "type")
#: Where a member access keeps the member's name.
MEMBER_FIELDS = ("property", "attribute", "field", "name")
#: Definitions a call can target, and definitions a type use can target.
CALL_TARGETS = frozenset({"function", "method", "class"})
TYPE_TARGETS = frozenset({"interface", "type", "enum", "class"})
#: Nodes that name a type where it is used.
TYPE_NAME_TYPES = frozenset({"type_identifier"})
#: The query sources built from uses, and the definitions each may target.
USE_SOURCES: dict[str, frozenset[str]] = {"calls": CALL_TARGETS, "types": TYPE_TARGETS}
#: Nodes that hold a used type's name in their ``name`` field.
_TYPE_WRAPPERS = frozenset({"generic_type", "nested_type_identifier", "scoped_type_identifier", "qualified_type"})
#: A callee expression is followed at most this deep (``a.b.c.d()``).
_MAX_HOPS = 12


@dataclass(frozen=True, slots=True)
class Use:
    """A use of ``name`` (``source``: ``"calls"`` or ``"types"``): the identifier's bytes in
    the original file, and the start of the innermost definition holding it (-1: none)."""

    source: str
    name: str
    start: int
    end: int
    scope: int = -1


@dataclass(frozen=True, slots=True)
class Definition:
    """A function, method or class a call can target (original bytes, end exclusive)."""

    name: str
    kind: str
    start: int
    end: int


def callee(node: Node) -> Node | None:
    """The identifier a call node names its callee by, or None (a computed callee)."""
    target = None
    for name in CALLEE_FIELDS:
        target = node.child_by_field_name(name)
        if target is not None:
            break
    for _ in range(_MAX_HOPS):
        if target is None or "subscript" in target.type:
            return None
        if target.type.endswith("identifier") or target.type == "constant":
            return target
        member = None
        for name in MEMBER_FIELDS:
            member = target.child_by_field_name(name)
            if member is not None:
                break
        if member is None:
            named = [child for child in target.named_children if "argument" not in child.type]
            member = named[-1] if named else None
        target = member
    return None


def find_uses(root: Node, structure: FileStructure, aliases: dict[str, str] | None = None) -> list[Use]:
    """Every call that names its callee and every type name under ``root``, in source
    order. ``aliases``: a local name -> the name it was imported as (``import {a as b}``:
    ``b`` -> ``a``); ``structure`` gives each use its scope."""
    aliases = aliases or {}
    scopes = sorted((e.start, e.end) for e in structure.entities if e.type in CALL_TARGETS | TYPE_TARGETS)
    found: list[Use] = []
    cursor = root.walk()
    while True:
        node = cursor.node
        if node is not None:
            kind, named = None, None
            if node.type in CALL_TYPES:
                kind, named = "calls", callee(node)
            elif node.type in TYPE_NAME_TYPES and not _names_its_parent(node):
                kind, named = "types", node
            if kind is not None and named is not None and named.text:
                text = named.text.decode("utf-8", "replace")
                found.append(Use(kind, aliases.get(text, text), named.start_byte, named.end_byte,
                                 _scope(scopes, named.start_byte)))
        if cursor.goto_first_child():
            continue
        while not cursor.goto_next_sibling():
            if not cursor.goto_parent():
                return found


def _names_its_parent(node: Node) -> bool:
    """A definition's own name (``interface X``) is not a use of it; the name of a
    generic or qualified type (``X<T>``, ``ns.X``) is."""
    parent = node.parent
    return (parent is not None and parent.type not in _TYPE_WRAPPERS
            and parent.child_by_field_name("name") == node)


def _scope(scopes: list[tuple[int, int]], offset: int) -> int:
    """The start of the innermost range holding ``offset`` (ranges sorted by start and
    nested, so the latest start that holds it is the innermost), or -1."""
    at = bisect_right(scopes, (offset, 1 << 62)) - 1
    while at >= 0:
        start, end = scopes[at]
        if offset < end:
            return start
        at -= 1
    return -1


def definitions(structure: FileStructure) -> list[Definition]:
    """The file's definitions a use can target (none without full structure support)."""
    if structure.language not in FULL_LANGUAGES or structure.level != "full":
        return []
    return [Definition(e.name, e.type, e.start, e.end) for e in structure.entities
            if e.type in CALL_TARGETS | TYPE_TARGETS and e.name]


def import_aliases(structure: FileStructure) -> dict[str, str]:
    """Local names of aliased imports -> the names they import."""
    aliases: dict[str, str] = {}
    for entity in structure.imports:
        local = entity.local_name
        if entity.imported and local and local != entity.imported:
            aliases[local] = entity.imported
    return aliases
