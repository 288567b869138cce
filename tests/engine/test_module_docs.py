"""Module-level docs: Rust inner doc comments, Go package comments, Python
module docstrings document the file or module, never the next item."""

from __future__ import annotations

from explorer.engine.api import parse
from explorer.engine.options import ChunkOptions
from explorer.engine.structure import extract_structure
from explorer.engine.structure.docstrings import comment_doc


def structure(path: str, code: str):
    return extract_structure(parse(path, code, ChunkOptions()))


RUST = """// Copyright notice, not a doc.
//! The crate: does things.
//! Second line.
#![allow(dead_code)]
/*! More crate docs,
 * in a block. */

/// The outer doc of m.
mod m {
    //! The inner doc of m.

    /// f's own doc.
    fn f() {}
}

//! Stray inner doc after an item: not the crate's, not g's.
fn g() {}
"""


def test_rust_inner_docs_document_the_crate_and_the_module():
    found = structure("lib.rs", RUST)
    assert found.docstring == "The crate: does things.\nSecond line.\nMore crate docs,\nin a block."
    by_name = {e.name: e for e in found.entities}
    assert by_name["m"].docstring == "The outer doc of m.\n\nThe inner doc of m."
    assert by_name["f"].docstring == "f's own doc."
    assert by_name["g"].docstring is None


def test_a_rust_inner_doc_is_not_the_next_items_doc():
    found = structure("lib.rs", "//! Crate doc.\nfn first() {}\n")
    assert found.docstring == "Crate doc."
    assert found.entities[0].name == "first" and found.entities[0].docstring is None


def test_go_package_comment_documents_the_package_and_file():
    found = structure("x.go", "// Package x does things.\n// Really.\npackage x\n\n// F is f.\nfunc F() {}\n")
    assert found.docstring == "Package x does things.\nReally."
    package = next(e for e in found.entities if e.type == "module")
    assert package.name == "x" and package.docstring == found.docstring
    # A comment set apart by a blank line (a licence) is not the package's doc.
    assert structure("x.go", "// Licence.\n\npackage x\n").docstring is None


def test_python_module_docstring():
    code = '#!/usr/bin/env python\n"""Module doc.\n\n    More.\n"""\nimport os\n\n\ndef f():\n    """F."""\n'
    found = structure("a.py", code)
    assert found.docstring == "Module doc.\n\nMore."
    assert next(e for e in found.entities if e.name == "f").docstring == "F."
    assert structure("a.py", "import os\n'not a docstring'\n").docstring is None


def test_files_without_module_docs():
    assert structure("a.rs", "/// Only an outer doc.\nfn f() {}\n").docstring is None
    assert structure("a.ts", "/** File? No: f's. */\nfunction f() {}\n").docstring is None


def test_a_block_doc_on_its_opening_line_keeps_no_leading_space():
    assert comment_doc(["/** Greet someone.\n * @param name who */"]) == "Greet someone.\n@param name who"
    assert comment_doc(["/*! Crate.\n * docs */"]) == "Crate.\ndocs"
