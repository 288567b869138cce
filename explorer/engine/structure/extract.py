"""Extracting a file's structure with one tree-sitter query run.

The query for the language (hand-written, or generic) runs once over the tree in
C; Python then only touches the matched nodes: names, signatures, docstrings,
imports. Nothing walks the whole tree in Python, and nothing walks up parents or
sideways through siblings (both are slow in tree-sitter): wrappers come from
``@outer`` captures and doc comments from a sorted comment list.
"""

from __future__ import annotations

from typing import Any

from tree_sitter import Node, QueryCursor

from ..parse import ParsedFile
from .docstrings import CommentIndex, python_docstring
from .entities import Entity, FileStructure
from .imports import build_exports, build_imports
from .scope import ScopeIndex, build_scope_tree
from .signatures import make_signature
from .specs import LanguageSpec, compiled_query, spec_for

#: Per language, per pattern index: (role, detail) where role is one of
#: item/outer/import/export/comment/skip and detail the entity type or wrapper kind.
_ROLES: dict[tuple[str, int], tuple[str, str, str]] = {}

#: Node types that name a thing in most grammars (for the generic extraction).
_NAME_KINDS = ("identifier", "name", "type_identifier", "constant", "word", "simple_identifier")


def empty_structure(language: str | None, level: str = "none") -> FileStructure:
    return FileStructure(language, level, [], [], [], [], scope=ScopeIndex([], []))


def extract_structure(parsed: ParsedFile) -> FileStructure:
    """Entities, imports, exports and the scope tree of a parsed file.

    Files without a tree (line fallback) have an empty structure with level ``"none"``.
    """
    language = parsed.language
    if parsed.tree is None or language is None:
        return empty_structure(language)
    spec = spec_for(language)
    query = compiled_query(language)
    if query is None:
        return empty_structure(language, spec.level)
    collected = _collect(language, QueryCursor(query).matches(parsed.tree.root_node))
    source = parsed.source
    data = source.data
    comments = (
        CommentIndex(source, collected.comments, spec.doc_prefixes)
        if collected.comments and spec.doc == "comments"
        else None
    )
    generic = spec.level == "generic"
    entities: list[Entity] = []
    for _, entity_type, item, caps in collected.items.values():
        if item.id in collected.import_ids:
            continue
        entity = _make_entity(entity_type, item, caps, collected.wrappers, data, spec, generic)
        if entity is None:
            continue
        entity.line_start, entity.line_end = source.line_range(entity.start, entity.end)
        if spec.doc == "python":
            body = caps.get("body")
            if body and entity_type in ("function", "class"):
                entity.docstring = python_docstring(body[0], data)
        elif comments is not None:
            entity.docstring = comments.doc_above(entity.start)
        entities.append(entity)
    imports = build_imports(collected.imports, source, spec)
    exports = build_exports(collected.exports, source)
    everything = entities + imports + exports
    roots = build_scope_tree(everything)
    return FileStructure(
        language,
        spec.level,
        everything,
        imports,
        exports,
        roots,
        scope=ScopeIndex(everything, roots),
    )


class _Collected:
    __slots__ = ("items", "wrappers", "comments", "imports", "exports", "import_ids")

    def __init__(self) -> None:
        self.items: dict[tuple[int, int], tuple[int, str, Node, dict[str, list[Node]]]] = {}
        self.wrappers: dict[int, tuple[Node, str]] = {}
        self.comments: list[tuple[int, int, bool]] = []
        self.imports: list[tuple[Node, dict[str, list[Node]]]] = []
        self.exports: list[tuple[Node, dict[str, list[Node]]]] = []
        self.import_ids: set[int] = set()


def _role(language: str, pattern: int, caps: dict[str, list[Node]]) -> tuple[str, str, str]:
    """Classify a pattern by its captures (the role captures are never optional)."""
    key = (language, pattern)
    role = _ROLES.get(key)
    if role is None:
        role = ("none", "", "")
        for name in caps:
            head, _, tail = name.partition(".")
            if name in ("import", "export", "comment"):
                role = (name, "", name)
                break
            if head in ("item", "outer"):
                role = (head, tail, name)
                break
            if name == "doc.skip":
                role = ("skip", "", name)
                break
        _ROLES[key] = role
    return role


def _collect(language: str, matches: list[tuple[int, dict[str, list[Node]]]]) -> _Collected:
    out = _Collected()
    items = out.items
    for pattern, caps in matches:
        role, detail, capture = _role(language, pattern, caps)
        if role == "item":
            # one node captured by several patterns: the earliest pattern wins,
            # so query files list the specific patterns first
            item = caps[capture][0]
            name = caps.get("name")
            key = (item.id, name[0].start_byte if name else -1)
            known = items.get(key)
            if known is None or pattern < known[0]:
                items[key] = (pattern, detail, item, caps)
        elif role == "comment" or role == "skip":
            node = caps[capture][0]
            out.comments.append((node.start_byte, node.end_byte, role == "comment"))
        elif role == "import":
            node = caps["import"][0]
            out.import_ids.add(node.id)
            out.imports.append((node, caps))
        elif role == "export":
            out.exports.append((caps["export"][0], caps))
        elif role == "outer":
            wrapped = caps.get("wrapped")
            if wrapped:
                out.wrappers[wrapped[0].id] = (caps[capture][0], detail)
    return out


def _make_entity(
    entity_type: str,
    item: Node,
    caps: dict[str, list[Node]],
    wrappers: dict[int, tuple[Node, str]],
    data: bytes,
    spec: LanguageSpec,
    generic: bool,
) -> Entity | None:
    name = _name(item, caps, data, generic)
    if name is None:
        return None
    start, end = item.start_byte, item.end_byte
    sig_start = start
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
    else:
        field = item.child_by_field_name("body") if generic else None
        sig_end = field.start_byte if field is not None else item.end_byte
        if generic and field is None:
            newline = data.find(b"\n", sig_start, sig_end)
            sig_end = newline if newline > 0 else sig_end
    return Entity(
        name=name,
        type=entity_type,
        kind=item.type,
        start=start,
        end=end,
        signature=make_signature(data, sig_start, sig_end) or name,
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
    text = " ".join(data[node.start_byte : node.end_byte].decode("utf-8", "replace").split())
    if text.startswith(":") and len(text) > 1:  # Ruby symbols (attr_reader :name)
        text = text[1:]
    if not text or len(text) > 200:
        return None
    return text
