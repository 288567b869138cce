"""Extracting a file's structure with the language's tree-sitter query.

The query (hand-written, or generic) runs in C on the nodes where its patterns
can start, found by a walk over statement containers (:mod:`.walk`), or over the
whole tree for languages without walk data; Python then only touches the
matched nodes: names, signatures, docstrings, imports. Nothing walks up parents
or sideways through siblings (both are slow in tree-sitter): wrappers come from
``@outer`` captures and doc comments from reading the lines above an entity.
"""

from __future__ import annotations

import gc
import re
import weakref
from bisect import bisect_right
from functools import cache
from typing import Any

from tree_sitter import Node, Query, QueryCursor

from ..model import Range
from ..parse import ParsedFile, Region
from .docstrings import DocFinder, python_docstring_node
from .entities import Entity, FileStructure, ScopeLookup
from .imports import build_exports, build_imports
from .module_docs import file_docstring, with_inner_doc
from .scope import ScopeIndex, build_scope_tree
from .signatures import make_signature
from .specs import LanguageSpec, compiled_query, spec_for, walk_plan
from .specs.comments import comment_syntax
from .walk import root_kind_nodes

#: Node types that name a thing in most grammars (for the generic extraction).
_NAME_KINDS = ("identifier", "name", "type_identifier", "constant", "word", "simple_identifier")

_ITEM, _OUTER, _IMPORT, _EXPORT, _NONE = range(5)


def empty_structure(language: str | None, level: str = "none") -> FileStructure:
    return FileStructure(language, level, [], [], [], [], scope=ScopeIndex([], []))


def extract_structure(parsed: ParsedFile) -> FileStructure:
    """Entities, imports, exports and the scope tree of a parsed file.

    Files without a tree (line fallback) have an empty structure with level ``"none"``.
    """
    language = parsed.language
    if parsed.regions:
        return _regions_structure(parsed)
    if parsed.tree is None or language is None:
        return empty_structure(language)
    enabled = gc.isenabled()
    gc.disable()  # many short-lived objects and no cycles: cyclic GC passes would only cost
    try:
        return _extract(parsed, language, parsed.tree.root_node)
    finally:
        if enabled:
            gc.enable()


class RegionScopes:
    """The scope look-ups of a container file (those of :class:`ScopeIndex` the explorer
    uses), answered by each region's own index: entities of different regions never nest,
    and each keeps its position in its region's index."""

    __slots__ = ("regions", "starts")

    def __init__(self, regions: list[tuple[int, FileStructure]]):
        self.regions = regions
        self.starts = [start for start, _ in regions]

    def _touched(self, start: int, end: int) -> list[ScopeLookup]:
        first = max(0, bisect_right(self.starts, start) - 1)
        last = max(first, bisect_right(self.starts, max(start, end - 1)) - 1)
        return [part.scope for _, part in self.regions[first : last + 1]]

    def scope_at(self, offset: int) -> Entity | None:
        k = bisect_right(self.starts, offset) - 1
        return self.regions[k][1].scope.scope_at(offset) if k >= 0 else None

    def enclosing(self, start: int, end: int, limit: int | None = None) -> list[Entity]:
        return self.around(start, end, limit)[0]

    def around(self, start: int, end: int, limit: int | None = None) -> tuple[list[Entity], list[Entity]]:
        """As :meth:`ScopeIndex.around`: an entity lies in one region, so only a range inside
        one region has a scope."""
        scope: list[Entity] = []
        partial: list[Entity] = []
        for index in self._touched(start, end):
            found = index.around(start, end, limit)
            scope += found[0]
            partial += found[1]
        return scope, partial

    def starting_in(self, start: int, end: int) -> list[tuple[Entity, bool]]:
        return [found for index in self._touched(start, end) for found in index.starting_in(start, end)]

    def entities_in_range(self, start: int, end: int) -> list[tuple[Entity, bool]]:
        return [found for index in self._touched(start, end) for found in index.entities_in_range(start, end)]

    def siblings(self, parent: Entity | None, start: int, end: int, limit: int) -> list[tuple[Entity, str, int]]:
        """As :meth:`ScopeIndex.siblings`, in the region where the range starts (entities
        of two regions are never siblings)."""
        k = bisect_right(self.starts, start) - 1
        return self.regions[k][1].scope.siblings(parent, start, end, limit) if k >= 0 else []


#: Each region's structure, kept while the region lives (its file's chunks ask for it often).
_REGION_STRUCTURES: weakref.WeakKeyDictionary[Region, FileStructure] = weakref.WeakKeyDictionary()


def region_structure(region: Region) -> FileStructure:
    """The structure of a container file's region, extracted once."""
    found = _REGION_STRUCTURES.get(region)
    if found is None:
        found = _REGION_STRUCTURES[region] = extract_structure(region.parsed)
    return found


def _regions_structure(parsed: ParsedFile) -> FileStructure:
    """A container file's structure: every region's, each extracted in its own language
    (kept for its chunks' contexts: :func:`region_structure`), listed together."""
    parts: list[tuple[int, FileStructure]] = []
    for region in parsed.regions:
        parts.append((region.start, region_structure(region)))
    structures = [part for _, part in parts]
    levels = {part.level for part in structures if part.level != "none"}
    level = "full" if "full" in levels else "generic" if levels else "none"
    return FileStructure(
        parsed.language, level,
        [e for part in structures for e in part.entities], [e for part in structures for e in part.imports],
        [e for part in structures for e in part.exports], [e for part in structures for e in part.roots],
        scope=RegionScopes(parts), docstring=next((p.docstring for p in structures if p.docstring), None),
    )


def _extract(parsed: ParsedFile, language: str, root: Node) -> FileStructure:
    spec = spec_for(language)
    query = compiled_query(language)
    if query is None:
        return empty_structure(language, spec.level)
    source = parsed.source
    data = source.data
    line_starts = source.line_starts  # the same lines as SourceText.line_range, inlined
    items, wrappers, import_rows, export_rows = _collect(language, spec, _matches(language, query, root, data), data)
    import_ids = {statement.id for statement, _ in import_rows}
    finder = (
        DocFinder(source, comment_syntax(language), spec.doc_prefixes, spec.doc_skip)
        if spec.doc == "comments"
        else None
    )
    constant_names = _regex(spec.constant_names)
    generic = spec.level == "generic"
    entities: list[Entity] = []
    for _, entity_type, item, caps in items.values():
        if item.id in import_ids:
            continue
        entity = _make_entity(entity_type, item, caps, wrappers, data, generic)
        if entity is None:
            continue
        if entity_type == "constant" and constant_names and not constant_names.fullmatch(entity.name):
            continue
        entity.line_start = first = bisect_right(line_starts, entity.start) - 1
        entity.line_end = max(first, bisect_right(line_starts, entity.end - 1) - 1)
        if finder is not None:
            found = finder.doc_range_above(entity.start, first)
            if found is not None and found[0] is not None:
                entity.docstring, entity.doc_range = found[0], Range(found[1], found[2])
            if entity_type == "module" and language == "rust" and caps.get("body"):
                with_inner_doc(entity, caps["body"][0], data)
        elif spec.doc == "python" and entity_type in ("function", "class"):
            body = caps.get("body")
            found = python_docstring_node(body[0], data) if body else None
            if found is not None and found[0] is not None:
                entity.docstring, entity.doc_range = found[0], Range(found[1], found[2])
        entities.append(entity)
    imports = build_imports(import_rows, source, spec)
    exports = build_exports(export_rows, source)
    everything = entities + imports + exports
    roots = build_scope_tree(everything)
    return FileStructure(
        language, spec.level, everything, imports, exports, roots, scope=ScopeIndex(everything, roots),
        docstring=file_docstring(language, root, data, entities),
    )


def _matches(language: str, query: Query, root: Node, data: bytes) -> list[tuple[int, dict[str, list[Node]]]]:
    """The query's matches: run on each node a pattern can start at, or on the whole tree."""
    plan = walk_plan(language)
    if plan is None:
        return QueryCursor(query).matches(root)
    cursor = QueryCursor(query)
    cursor.set_max_start_depth(0)  # patterns start at the given node only
    matches: list[tuple[int, dict[str, list[Node]]]] = []
    for node in root_kind_nodes(root, data, plan):
        matches += cursor.matches(node)
    return matches


@cache
def _regex(pattern: str | None) -> re.Pattern[str] | None:
    return re.compile(pattern) if pattern else None


#: Per language, per pattern index: (role, detail, capture name), computed from
#: the first match of the pattern (role captures are never optional).
_ROLES: dict[str, dict[int, tuple[int, str, str]]] = {}


def _role(caps: dict[str, list[Node]]) -> tuple[int, str, str]:
    for name in caps:
        if name == "import":
            return (_IMPORT, "", name)
        if name == "export":
            return (_EXPORT, "", name)
        head, _, tail = name.partition(".")
        if head == "item":
            return (_ITEM, tail, name)
        if head == "outer":
            return (_OUTER, tail, name)
    return (_NONE, "", "")


def _collect(
    language: str, spec: LanguageSpec, matches: list[tuple[int, dict[str, list[Node]]]], data: bytes
) -> tuple[dict, dict, list, list]:
    roles = _ROLES.setdefault(language, {})
    items: dict[tuple[int, int], tuple[int, str, Node, dict[str, list[Node]]]] = {}
    wrappers: dict[int, tuple[Node, str]] = {}
    imports: list[tuple[Node, dict[str, list[Node]]]] = []
    exports: list[tuple[Node, dict[str, list[Node]]]] = []
    for pattern, caps in matches:
        role = roles.get(pattern)
        if role is None:
            role = roles[pattern] = _role(caps)
        kind, detail, capture = role
        call = caps.get("call")
        if call and data[call[0].start_byte : call[0].end_byte].decode("utf-8", "replace") not in spec.calls:
            continue
        if kind == _ITEM:
            # one node captured by several patterns: the earliest pattern wins,
            # so query files list the specific patterns first
            item = caps[capture][0]
            name = caps.get("name")
            key = (item.id, name[0].start_byte if name else -1)
            known = items.get(key)
            if known is None or pattern < known[0]:
                items[key] = (pattern, detail, item, caps)
        elif kind == _IMPORT:
            imports.append((caps[capture][0], caps))
        elif kind == _EXPORT:
            exports.append((caps[capture][0], caps))
        elif kind == _OUTER:
            wrapped = caps.get("wrapped")
            if wrapped:
                wrappers[wrapped[0].id] = (caps[capture][0], detail)
    return items, wrappers, imports, exports


def _make_entity(
    entity_type: str,
    item: Node,
    caps: dict[str, list[Node]],
    wrappers: dict[int, tuple[Node, str]],
    data: bytes,
    generic: bool,
) -> Entity | None:
    name = _name(item, caps, data, generic)
    if name is None:
        return None
    start = sig_start = item.start_byte
    end = item.end_byte
    exported = False
    node = item
    for _ in range(8):  # wrappers nest a few levels at most (export > decorators > template)
        wrapper = wrappers.get(node.id)
        if wrapper is None:
            break
        node, how = wrapper
        start, end = min(start, node.start_byte), max(end, node.end_byte)
        if how == "export":
            exported = True
        elif how == "decl":
            sig_start = node.start_byte
    body = caps.get("sig.end") or caps.get("body")
    if body:
        sig_end = body[0].start_byte
    elif generic:
        field = item.child_by_field_name("body")
        if field is not None:
            sig_end = field.start_byte
        else:
            newline = data.find(b"\n", sig_start, item.end_byte)
            sig_end = newline if newline > 0 else item.end_byte
    else:
        sig_end = item.end_byte
    return Entity(
        name,
        entity_type,
        item.type,
        start,
        end,
        make_signature(data, sig_start, sig_end) or name,
        is_exported=exported,
    )


def _guess_name(item: Node) -> Node | None:
    """A name for a node of an unknown grammar: an identifier-like child among the
    first few, else down the ``declarator`` chain (C-like grammars)."""
    node: Node | None = item
    for _ in range(4):
        if node is None:
            return None
        for i in range(min(4, node.named_child_count)):
            child = node.named_child(i)
            if child is not None and (child.type in _NAME_KINDS or child.type.endswith("identifier")):
                return child
        node = node.child_by_field_name("declarator")
    return None


def _name(item: Node, caps: dict[str, Any], data: bytes, generic: bool) -> str | None:
    found = caps.get("name")
    node = found[0] if found else item.child_by_field_name("name")
    if node is None and generic:
        node = _guess_name(item)
    if node is None:
        return None
    raw = data[node.start_byte : node.end_byte]
    if len(raw) > 200:
        return None
    text = raw.decode("utf-8", "replace")
    if not text.isidentifier():
        text = " ".join(text.split())
        if text.startswith(":") and len(text) > 1:  # Ruby symbols (attr_reader :name)
            text = text[1:]
    return text or None
