"""Imports and exports: one entity per imported (or exported) name, with its source module.

The queries capture, per imported name, the statement (``@import``) and any of
``@import.name`` (what is imported), ``@import.alias`` (the local name),
``@import.source`` (the module), ``@import.wildcard``, ``@import.default``,
``@import.namespace``, or ``@import.tree`` (a Rust use tree, expanded here).
Conventions, matching code-chunk where it was right:

- Python ``from x import a as b``: name ``b``, imported ``a``, source ``x``
  (never an entity for ``x`` itself); ``import os.path``: name and source ``os.path``.
- Java, Kotlin, Rust, PHP, Scala: name is the last path segment, source the whole
  path (``java.util.List``, ``std::collections::HashMap``).
- Go: each spec of an import block has its own source; the name is the alias or
  the last path segment (``.../v2`` names the segment before it).
- TS/JS: default and namespace imports set ``is_default``/``is_namespace``;
  ``import './x'`` is a side-effect import named by its source.
- Glob imports (``*``, C ``#include``, Ruby ``require``, Go ``.``) set
  ``is_wildcard``; Go ``_`` is a side-effect import.
"""

from __future__ import annotations

import re
from typing import Any

from tree_sitter import Node

from ..text import SourceText
from .entities import Entity
from .signatures import make_signature
from .specs import LanguageSpec

_QUOTES = "\"'`<>"
_VERSION = re.compile(r"v\d+$")


def _text(data: bytes, node: Node) -> str:
    return data[node.start_byte : node.end_byte].decode("utf-8", "replace")


def unquote(text: str) -> str:
    text = text.strip()
    while len(text) >= 2 and text[0] in _QUOTES and text[-1] in _QUOTES:
        text = text[1:-1]
    return text


def last_segment(path: str, separators: tuple[str, ...]) -> str:
    parts = [path]
    for sep in separators:
        parts = [p for part in parts for p in part.split(sep)]
    parts = [p for p in parts if p]
    if not parts:
        return path
    if len(parts) > 1 and _VERSION.fullmatch(parts[-1]):
        return parts[-2]  # Go's major-version suffix: .../yaml/v3 is package yaml
    return parts[-1]


def _name_text(data: bytes, node: Node) -> str:
    """A name or path without its whitespace (``a :: b`` is ``a::b``)."""
    return "".join(_text(data, node).split())


def build_imports(
    rows: list[tuple[Node, dict[str, list[Node]]]], source: SourceText, spec: LanguageSpec
) -> list[Entity]:
    """Import entities from the query rows ``(statement, captures)``, in source order."""
    data = source.data
    by_statement: dict[int, tuple[Node, list[dict[str, list[Node]]]]] = {}
    for statement, caps in rows:
        entry = by_statement.get(statement.id)
        if entry is None:
            by_statement[statement.id] = (statement, [caps])
        else:
            entry[1].append(caps)
    out: list[Entity] = []
    for statement, matches in by_statement.values():
        names: list[dict[str, Any]] = []
        expanded: list[dict[str, Any]] = []
        bare_source: str | None = None
        for caps in matches:
            if "import.tree" in caps:
                expanded.extend(TREE_EXPANDERS[spec.import_tree](caps["import.tree"][0], data))
                continue
            row = _row(caps, data, spec)
            if row is not None:
                row["at"] = _position(caps)
                names.append(row)
            elif "import.source" in caps and bare_source is None:  # names no symbol
                bare_source = unquote(_text(data, caps["import.source"][0]))
        names.sort(key=lambda row: row["at"])  # source order, whatever the pattern order
        globs = {row["source"] for row in names if row.get("wildcard")}
        if globs:  # `using namespace a::b` also matched the plain `using a::b` pattern
            names = [row for row in names if row.get("wildcard") or row["source"] not in globs]
        names += expanded
        if not names and bare_source is None and not expanded:
            bare_source = _guess_source(statement, data)  # generic grammars capture only @import
        if not names and bare_source:
            names.append(_bare(bare_source, spec))
        out.extend(_entities(statement, names, source))
    return out


def _row(caps: dict[str, list[Node]], data: bytes, spec: LanguageSpec) -> dict[str, Any] | None:
    source = unquote(_text(data, caps["import.source"][0])) if "import.source" in caps else None
    alias = _name_text(data, caps["import.alias"][0]) if "import.alias" in caps else None
    if "import.wildcard" in caps:
        base = _name_text(data, caps["import.name"][0]) if "import.name" in caps else None
        return {"name": "*", "source": source or base or "*", "wildcard": True}
    for flag in ("import.default", "import.namespace"):
        if flag in caps:
            return {"name": _name_text(data, caps[flag][0]), "source": source or "", flag[7:]: True}
    if "import.name" in caps:
        full = _name_text(data, caps["import.name"][0])
    elif alias and source:  # Go: alias "path"
        full = source
    else:
        return None
    imported = last_segment(full, spec.path_separators) if spec.import_last_segment else full
    row: dict[str, Any] = {"name": alias or imported, "source": source or full}
    if alias:
        row["imported"] = imported
        if alias == "_":
            row.update(name=imported, side_effect=True)
        elif alias == ".":
            row.update(name="*", wildcard=True)
    return row


def _guess_source(statement: Node, data: bytes) -> str:
    for field in ("source", "path", "module", "name"):
        node = statement.child_by_field_name(field)
        if node is not None:
            return unquote(_name_text(data, node))
    words = " ".join(_text(data, statement).split()).rstrip(";").split(" ", 1)
    text = words[-1] if len(words) > 1 else words[0]
    return unquote(text[:120])


def _position(caps: dict[str, list[Node]]) -> int:
    for key in ("import.alias", "import.name", "import.default", "import.namespace", "import.wildcard"):
        if key in caps:
            return caps[key][0].start_byte
    return 0


def _bare(source: str, spec: LanguageSpec) -> dict[str, Any]:
    if spec.import_bare == "binds":
        return {"name": last_segment(source, spec.path_separators), "source": source}
    if spec.import_bare == "side_effect":
        return {"name": source, "source": source, "side_effect": True}
    return {"name": source, "source": source, "wildcard": True}


def _entities(statement: Node, names: list[dict[str, Any]], source: SourceText) -> list[Entity]:
    start, end = statement.start_byte, statement.end_byte
    signature = make_signature(source.data, start, end)
    first, last = source.line_range(start, end)
    seen: set[tuple[str, str]] = set()
    out = []
    for row in names:
        key = (row["name"], row["source"])
        if key in seen:
            continue
        seen.add(key)
        out.append(
            Entity(
                name=row["name"],
                type="import",
                kind=statement.type,
                start=start,
                end=end,
                signature=signature,
                line_start=first,
                line_end=last,
                source=row["source"],
                imported=row.get("imported"),
                is_default=row.get("default", False),
                is_namespace=row.get("namespace", False),
                is_wildcard=row.get("wildcard", False),
                is_side_effect=row.get("side_effect", False),
            )
        )
    return out


def rust_use_tree(root: Node, data: bytes) -> list[dict[str, Any]]:
    """Expand a Rust ``use`` argument (``a::{b, c::D as E, f::*}``) into names."""
    out: list[dict[str, Any]] = []
    stack: list[tuple[Node, str]] = [(root, "")]
    while stack:
        node, prefix = stack.pop()
        kind = node.type
        if kind == "use_list":
            stack.extend((child, prefix) for child in reversed(node.named_children))
        elif kind == "scoped_use_list":
            path = node.child_by_field_name("path")
            inner = _join(prefix, _name_text(data, path)) if path is not None else prefix
            body = node.child_by_field_name("list")
            if body is not None:
                stack.append((body, inner))
        elif kind == "use_wildcard":
            path = node.named_child(0) if node.named_child_count else None  # `{self, *}`: no path
            base = _join(prefix, _name_text(data, path)) if path is not None else prefix
            out.append({"name": "*", "source": base or "*", "wildcard": True})
        elif kind == "use_as_clause":
            path = node.child_by_field_name("path")
            alias = node.child_by_field_name("alias")
            full = _join(prefix, _name_text(data, path)) if path is not None else prefix
            imported = full.rsplit("::", 1)[-1]
            name = _name_text(data, alias) if alias is not None else imported
            out.append({"name": name, "source": full, "imported": imported, **({"side_effect": True} if name == "_" else {})})
        elif kind in ("identifier", "scoped_identifier", "self", "crate", "super", "metavariable"):
            full = _join(prefix, _name_text(data, node))
            head, _, tail = full.rpartition("::")
            if tail == "self" and head:
                out.append({"name": head.rsplit("::", 1)[-1], "source": head})
            else:
                out.append({"name": tail, "source": full})
    return out


def _join(prefix: str, path: str) -> str:
    return f"{prefix}::{path}" if prefix and path else prefix or path


def scala_import(node: Node, data: bytes) -> list[dict[str, Any]]:
    """Expand a Scala import (``import a.b.{C, D => E, _}``, ``import a.b.c as d``)."""
    path = [_name_text(data, part) for part in node.children_by_field_name("path") if part.is_named]
    out: list[dict[str, Any]] = []
    for i in range(node.named_child_count):
        child = node.named_child(i)
        if child is None:
            continue
        if child.type == "namespace_selectors":
            base = ".".join(path)
            for j in range(child.named_child_count):
                sel = child.named_child(j)
                if sel is None:
                    continue
                if sel.type in ("namespace_wildcard", "wildcard"):
                    out.append({"name": "*", "source": base, "wildcard": True})
                elif sel.type in ("arrow_renamed_identifier", "as_renamed_identifier"):
                    name_node, alias_node = sel.child_by_field_name("name"), sel.child_by_field_name("alias")
                    if name_node is None or alias_node is None:
                        continue
                    imported, alias = _name_text(data, name_node), _name_text(data, alias_node)
                    entry = {"name": alias, "source": f"{base}.{imported}", "imported": imported}
                    out.append({**entry, "side_effect": True} if alias == "_" else entry)
                else:
                    name = _name_text(data, sel)
                    out.append({"name": name, "source": f"{base}.{name}"})
        elif child.type in ("namespace_wildcard", "wildcard"):
            out.append({"name": "*", "source": ".".join(path), "wildcard": True})
        elif child.type in ("as_renamed_identifier", "arrow_renamed_identifier"):
            alias_node = child.child_by_field_name("alias")
            name_node = child.child_by_field_name("name")
            if alias_node is not None and name_node is not None:
                imported = _name_text(data, name_node)
                source = ".".join(path + [imported])
                out.append({"name": _name_text(data, alias_node), "source": source, "imported": imported})
    if not out and path:
        out.append({"name": path[-1], "source": ".".join(path)})
    return out


TREE_EXPANDERS = {"rust": rust_use_tree, "scala": scala_import}


def build_exports(
    rows: list[tuple[Node, dict[str, list[Node]]]], source: SourceText
) -> list[Entity]:
    """Export entities from ``@export`` rows: re-exported names, ``*``, or ``default``."""
    data = source.data
    grouped: dict[int, tuple[Node, list[dict[str, Any]]]] = {}
    for statement, caps in rows:
        src = unquote(_text(data, caps["export.source"][0])) if "export.source" in caps else None
        if "export.name" in caps:
            name = _name_text(data, caps["export.name"][0])
            alias = _name_text(data, caps["export.alias"][0]) if "export.alias" in caps else None
            row: dict[str, Any] = {"name": alias or name, "source": src, "imported": name if alias else None}
        elif "export.all" in caps:
            row = {"name": "*", "source": src, "wildcard": True}
        else:
            row = {"name": "default", "source": src}
        grouped.setdefault(statement.id, (statement, []))[1].append(row)
    out = []
    for statement, names in grouped.values():
        for entity in _entities(statement, [{**r, "source": r["source"] or ""} for r in names], source):
            entity.type = "export"
            entity.is_exported = True
            if not entity.source:
                entity.source = None
            out.append(entity)
    return out
