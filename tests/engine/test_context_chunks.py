"""Context through ``explorer.chunk`` (code-chunk study section 3: tests 4, 16-28,
39-45, 111-117), and the context's invariants checked against a brute-force
reading of the file's structure."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from structure_helpers import STRUCTURE_FIXTURES, parse

import explorer
from explorer.engine.context import MAX_SCOPE, make_context_builder
from explorer.engine.options import ChunkOptions
from explorer.engine.structure import extract_structure
from explorer.engine.structure.entities import NON_SCOPE_TYPES

FIXTURES = sorted(p.name for p in STRUCTURE_FIXTURES.iterdir())


def all_entities(chunks):
    return [e for c in chunks for e in c.context["entities"]]


# -- code-chunk's chunk-level checks -------------------------------------------------------------
def test_single_function_chunk():
    code = "function greet(name: string): string {\n  return `Hello, ${name}!`\n}"
    (chunk,) = explorer.chunk("test.ts", code)
    ctx = chunk.context
    assert (ctx["filepath"], ctx["language"]) == ("test.ts", "typescript")
    assert [(e["name"], e["type"], e["isPartial"]) for e in ctx["entities"]] == [("greet", "function", False)]
    assert ctx["entities"][0]["lineRange"] == {"start": 0, "end": 2}
    assert ctx["scope"] == [] and ctx["siblings"] == [] and ctx["imports"] == []
    assert chunk.contextualized_text == "// test.ts\n// Defines: function greet(name: string): string\n\n" + code


def test_class_entities_docstrings_and_partial_classes():
    methods = "\n".join(
        f"  /** Adds {i} numbers together. */\n  add{i}(a: number, b: number): number {{\n"
        f"    const total = a + b + {i}\n    return total * {i}\n  }}\n" for i in range(6))
    code = f"class LargeClass {{\n{methods}}}\n"
    chunks = explorer.chunk("large.ts", code, max_size=150)
    assert len(chunks) > 1
    found = all_entities(chunks)
    # Each chunk lies inside the class, the last too (the class ends before the final newline).
    assert not any(e["name"] == "LargeClass" for e in found)
    assert {e["name"] for e in found if e["type"] == "method"} == {f"add{i}" for i in range(6)}
    assert all(e["docstring"] == f"Adds {e['name'][3:]} numbers together." for e in found if e["type"] == "method")
    inner = [c for c in chunks if c.context["scope"]]
    assert len(inner) == len(chunks) and all(c.context["scope"][-1] == {"name": "LargeClass", "type": "class",
                                                      "signature": "class LargeClass"} for c in inner)


def test_nested_scopes_and_names():
    code = ("class Level1 {\n  level2Method() {\n    function level3() {\n"
            + "".join(f"      const v{i} = compute({i}, 'some longer argument text here')\n" for i in range(8))
            + "    }\n  }\n}\n")
    chunks = explorer.chunk("nested.ts", code, max_size=120)
    assert len(chunks) > 2
    names = {e["name"] for e in all_entities(chunks)} | {s["name"] for c in chunks for s in c.context["scope"]}
    assert {"Level1", "level2Method", "level3"} <= names
    deepest = max(chunks, key=lambda c: len(c.context["scope"]))
    assert [s["name"] for s in deepest.context["scope"]] == ["level3", "level2Method", "Level1"]
    assert [s["type"] for s in deepest.context["scope"]] == ["function", "method", "class"]


def test_siblings_through_chunk():
    code = "".join(f"function {name}() {{ return '{name}' }}\n" for name in ("a", "b", "c", "d", "e"))
    for detail in ("names", "signatures"):
        chunks = explorer.chunk("s.ts", code, max_size=30, sibling_detail=detail)
        assert len(chunks) == 5
        for chunk in chunks:
            for position in ("before", "after"):
                distances = [s["distance"] for s in chunk.context["siblings"] if s["position"] == position]
                assert distances == list(range(1, len(distances) + 1))
            assert all(("signature" in s) == (detail == "signatures") for s in chunk.context["siblings"])
        second = chunks[1].context["siblings"]
        assert {"name": "a", "type": "function", "position": "before", "distance": 1}.items() <= second[0].items()
    assert all(c.context["siblings"] == [] for c in explorer.chunk("s.ts", code, max_size=30, sibling_detail="none"))


def test_filter_imports_through_chunk():
    code = ("import { used } from './used'\nimport { unused } from './unused'\n"
            "import { Database } from './db'\n\n"
            "function queryDb(db: Database) {\n  return used(db)\n}\n")
    (kept,) = explorer.chunk("f.ts", code, filter_imports=False)
    assert [i["name"] for i in kept.context["imports"]] == ["used", "unused", "Database"]
    chunks = explorer.chunk("f.ts", code, filter_imports=True, max_size=60)
    last = chunks[-1]
    assert [i["name"] for i in last.context["imports"]] == ["used", "Database"]


def test_import_infos():
    code = "import {foo} from './utils/foo'\nimport {bar} from '@scope/bar'\n\nexport const x = foo(bar)\n"
    (chunk,) = explorer.chunk("i.ts", code)
    assert chunk.context["imports"] == [{"name": "foo", "source": "./utils/foo"},
                                        {"name": "bar", "source": "@scope/bar"}]


def test_empty_functions_and_jsdoc_after_other_comments():
    code = ("function empty() {}\nfunction alsoEmpty() {\n}\n// line\n/* block */\n"
            "/** JSDoc comment */\nfunction documented() { return 1 }\n")
    (chunk,) = explorer.chunk("e.ts", code)
    by_name = {e["name"]: e for e in chunk.context["entities"]}
    assert {"empty", "alsoEmpty", "documented"} <= set(by_name)
    assert by_name["documented"]["docstring"] == "JSDoc comment"


def test_context_modes_through_chunk():
    code = "import { A } from './a'\n\nexport class Thing {\n  run() { return new A() }\n}\n"
    (none,) = explorer.chunk("t.ts", code, context_mode="none")
    assert none.context == {"scope": [], "entities": [], "siblings": [], "imports": []}
    assert none.contextualized_text == none.text
    (full,) = explorer.chunk("t.ts", code)
    assert full.context["entities"] and full.context["imports"]
    (minimal,) = explorer.chunk("t.ts", code, context_mode="minimal")
    assert minimal.contextualized_text == "// t.ts\n\n" + minimal.text
    assert len({none.contextualized_text, minimal.contextualized_text, full.contextualized_text}) == 3


def test_overlap_only_with_context():
    code = "".join(f"def f{i}(x):\n    return x + {i}\n\n" for i in range(6))
    none = explorer.chunk("o.py", code, max_size=40, overlap_lines=2, context_mode="none")
    assert all(c.contextualized_text == c.text and c.overlap_text == "" for c in none)
    full = explorer.chunk("o.py", code, max_size=40, overlap_lines=2)
    second = full[1]
    assert second.overlap_text
    assert f"\n# ...\n{second.overlap_text.rstrip()}\n# ---\n{second.text}" in second.contextualized_text


def test_parse_error_in_every_chunk():
    code = "".join(f"function f{i}() {{ return {i} }}\n" for i in range(5)) + "function broken( {\n"
    chunks = explorer.chunk("b.ts", code, max_size=40)
    assert all(c.context["parseError"]["recoverable"] for c in chunks)


def test_chunk_json_is_serialisable_with_context():
    for chunk in explorer.chunk("u.ts", (STRUCTURE_FIXTURES / "user_service.ts").read_text(), max_size=200):
        data = json.loads(json.dumps(chunk.to_dict()))
        assert list(data["context"])[:6] == ["filepath", "language", "scope", "entities", "siblings", "imports"]


# -- integration files (111-117) --------------------------------------------------------------------
@pytest.mark.parametrize(
    ("filename", "expected"),
    [
        ("user_service.ts", {"UserService": "class", "getUser": "method", "deleteUser": "method",
                             "User": "interface", "formatUser": "function"}),
        ("calculator.jsx", {"Calculator": "class", "add": "method", "subtract": "method", "reset": "method",
                            "Display": "function", "App": "function"}),
        ("user_service.py", {"User": "class", "UserService": "class", "__init__": "method",
                             "get_user": "method", "create_default_user": "function"}),
        ("store.rs", {"Store": "class", "new": "method", "get": "method", "set": "method",
                      "create_store_with": "function", "Lookup": "enum"}),
        ("repository.go", {"User": "type", "UserRepository": "interface", "SQLUserRepository": "type",
                           "NewSQLUserRepository": "function", "GetByID": "method", "GetAll": "method"}),
        ("UserService.java", {"UserService": "class", "findById": "method", "findAll": "method",
                              "save": "method", "deleteById": "method", "UserRepository": "interface",
                              "OrderStatus": "enum", "getDescription": "method"}),
    ],
)
def test_integration_files(filename, expected):
    code = (STRUCTURE_FIXTURES / filename).read_text()
    chunks = explorer.chunk(f"services/{filename}", code, max_size=500, sibling_detail="signatures",
                            filter_imports=True)
    assert 1 < len(chunks) <= 12
    assert all(c.context["filepath"] == f"services/{filename}" for c in chunks)
    seen = {(e["name"], e["type"]) for e in all_entities(chunks)}
    seen |= {(s["name"], s["type"]) for c in chunks for s in c.context["scope"]}
    assert set(expected.items()) <= seen
    assert any(c.context["imports"] for c in chunks)


# -- invariants against the structure ------------------------------------------------------------------
def content_end(data: bytes, start: int, end: int) -> int:
    """The end of ``[start, end)`` without its trailing blanks, which belong to no entity."""
    return start + len(data[start:end].rstrip(b" \t\n\r\x0b\x0c"))


def brute_force(structure, start, end, data=b""):
    """What the context must say about [start, end), computed the slow, obvious way (the
    range's trailing blanks left out)."""
    end = content_end(data, start, end) if data else end
    scope = [e for e in structure.entities
             if e.type not in NON_SCOPE_TYPES and e.start <= start and end <= e.end
             and (e.start, e.end) != (start, end)]
    scope.sort(key=lambda e: e.end - e.start)
    ids = {id(e) for e in scope}
    inside = [(e.name, e.end > end or e.start < start) for e in structure.entities
              if e.start < end and e.end > start and id(e) not in ids]
    return [e.name for e in scope][:MAX_SCOPE], inside


@pytest.mark.parametrize("filename", FIXTURES)
def test_chunk_contexts_match_the_structure(filename):
    code = (STRUCTURE_FIXTURES / filename).read_text()
    parsed = parse(code, filename)
    structure = extract_structure(parsed)
    for max_size in (60, 250):
        for chunk in explorer.chunk(filename, code, max_size=max_size, max_siblings=2):
            start, end = chunk.byte_range.start, chunk.byte_range.end
            scope, inside = brute_force(structure, start, end, parsed.source.data)
            ctx = chunk.context
            assert [s["name"] for s in ctx["scope"]] == scope
            assert [(e["name"], e["isPartial"]) for e in ctx["entities"]] == inside
            for sibling in ctx["siblings"]:
                assert sibling["distance"] >= 1
            header = chunk.contextualized_text[: len(chunk.contextualized_text) - len(chunk.text)]
            assert chunk.contextualized_text.endswith(chunk.text) and header.count("\n") >= 2


@settings(max_examples=60, deadline=None)
@given(filename=st.sampled_from(FIXTURES), a=st.floats(0, 1), b=st.floats(0, 1))
def test_any_range_matches_the_structure(filename, a, b):
    code = (STRUCTURE_FIXTURES / filename).read_text()
    data = code.encode()
    parsed = parse(code, filename)
    structure = extract_structure(parsed)
    start, end = sorted((int(a * len(data)), int(b * len(data))))
    if start == end:
        return
    ctx = make_context_builder(parsed, ChunkOptions(max_siblings=50), filename, structure).context_for(start, end)
    end = content_end(data, start, end)
    scope, inside = brute_force(structure, start, end)
    assert [s["name"] for s in ctx["scope"]] == scope
    assert [(e["name"], e["isPartial"]) for e in ctx["entities"]] == inside
    parent = structure.scope.enclosing(start, end)[:1]
    members = parent[0].children if parent else structure.roots
    expected = {(m.name, "before" if m.end <= start else "after") for m in members if m.end <= start or m.start >= end}
    assert {(s["name"], s["position"]) for s in ctx["siblings"]} == expected
