"""Module-level docs: what documents a file, or a module, from inside it.

* Rust inner doc comments (``//!`` lines, ``/*! */`` blocks) at the top of a file
  document the crate or module the file is; at the top of a ``mod name { ... }``
  body, that module. They are never the doc of the item after them.
* A Go package comment (the comment directly above ``package name``) documents the
  package: it is the package entity's docstring, and so the file's.
* A Python module docstring (a string as the module's first statement).

The file's doc is :attr:`FileStructure.docstring`; a Rust module's inner doc is added
to its entity's docstring, after the outer (``///``) doc if it has one.
"""

from __future__ import annotations

from tree_sitter import Node

from .docstrings import comment_doc, python_docstring
from .entities import Entity

#: How an inner doc comment starts (``//!`` or ``/*!``).
_INNER_DOC_OPENERS = (b"//!", b"/*!")
#: Rust nodes that may stand among a body's leading inner docs.
_RUST_COMMENTS = ("line_comment", "block_comment")
_RUST_INNER_ATTRIBUTE = "inner_attribute_item"


def rust_inner_doc(container: Node, data: bytes) -> str | None:
    """The inner doc comments among the first children of a Rust ``source_file`` or
    ``declaration_list`` (other comments and ``#![...]`` attributes may sit between
    them; the first item ends them), cleaned as a doc comment."""
    texts: list[str] = []
    for i in range(container.named_child_count):
        child = container.named_child(i)
        if child is None:
            break
        if child.type in _RUST_COMMENTS:
            if data.startswith(_INNER_DOC_OPENERS, child.start_byte):
                texts.append(data[child.start_byte : child.end_byte].decode("utf-8", "replace").rstrip("\r\n"))
            continue
        if child.type != _RUST_INNER_ATTRIBUTE:
            break
    return comment_doc(texts) if texts else None


def with_inner_doc(entity: Entity, body: Node, data: bytes) -> None:
    """Add a Rust module's inner doc (``mod m { //! ... }``) to its docstring."""
    inner = rust_inner_doc(body, data)
    if inner:
        entity.docstring = f"{entity.docstring}\n\n{inner}" if entity.docstring else inner


def file_docstring(language: str, root: Node, data: bytes, entities: list[Entity]) -> str | None:
    """The doc of the file (the module, crate or package it is), where the language has one."""
    if language == "rust":
        return rust_inner_doc(root, data)
    if language == "python":
        return python_docstring(root, data)
    if language == "go":
        package = next((e for e in entities if e.kind == "package_clause"), None)
        return package.docstring if package is not None else None
    return None
