"""``Entity.doc_range``: where a docstring or doc comment sits, in bytes (for masking docs)."""

from __future__ import annotations

from explorer.engine.api import parse
from explorer.engine.options import ChunkOptions
from explorer.engine.structure import extract_structure


def _docs(name: str, source: str) -> dict[str, str]:
    data = source.encode()
    structure = extract_structure(parse(name, data, ChunkOptions()))
    return {e.name: data[e.doc_range.start : e.doc_range.end].decode()
            for e in structure.entities if e.doc_range is not None}


def test_python_docstring_statement():
    source = 'class A:\r\n    r"""Café docs."""\r\n    def f(self):\r\n        \'\'\'One.\r\n        Two.\'\'\'\r\n        return 1\r\n'
    assert _docs("a.py", source) == {"A": 'r"""Café docs."""', "f": "'''One.\r\n        Two.'''"}


def test_a_string_that_is_not_a_docstring_has_no_range():
    assert _docs("a.py", 'def f():\n    x = 1\n    """not a docstring"""\n') == {}
    assert _docs("a.py", 'def f():\n    b"bytes are not docs"\n') == {}


def test_comment_docs_are_whole_lines():
    go = "package p\n\n// Sum adds\n// the numbers.\nfunc Sum(a, b int) int { return a + b }\n"
    assert _docs("p.go", go) == {"Sum": "// Sum adds\n// the numbers.\n"}
    js = "const x = 1;\n\n  /**\n   * Adds é.\n   */\n  function add(a) { return a; }\n"
    assert _docs("a.js", js) == {"add": "  /**\n   * Adds é.\n   */\n"}


def test_rust_attributes_between_doc_and_item_stay_out():
    rust = "/// Makes one.\n#[inline]\npub fn make() -> u8 { 1 }\n"
    assert _docs("a.rs", rust) == {"make": "/// Makes one.\n"}


def test_a_block_doc_on_the_item_line():
    java = "class A {\n    /** Counts. */ int count() { return 0; }\n}\n"
    assert _docs("A.java", java) == {"count": "/** Counts. */"}
