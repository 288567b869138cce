"""Entity extraction: code-chunk's asserted behaviours (study section 3, tests 46-91),
adapted to our API, and the right behaviour where the study shows a bug (section 5.1)."""

from __future__ import annotations

import inspect

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from structure_helpers import extract, names, one, parse

from explorer.engine.kinds import entity_type
from explorer.engine.languages import GRAMMARS, UNSAFE_GRAMMARS
from explorer.engine.structure import ENTITY_TYPES, FULL_LANGUAGES, extract_structure, structure_level
from explorer.engine.structure.docstrings import comment_doc, is_doc_comment, python_string_doc, trim
from explorer.engine.structure.specs import compiled_query

TS_CALCULATOR = """class Calculator {
  add(a: number, b: number): number {
    return a + b
  }

  subtract(a: number, b: number): number {
    return a - b
  }
}"""


def kinds(structure, skip=("import", "export")):
    return [(e.name, e.type) for e in structure.entities if e.type not in skip]


# -- queries (46-50) ------------------------------------------------------------------------
def test_queries_are_compiled_once_per_language():
    assert compiled_query("typescript") is compiled_query("typescript")
    for language in FULL_LANGUAGES:
        assert compiled_query(language) is not None


def test_every_grammar_gets_structure_without_errors():
    """Full languages use their queries, every other grammar the generic one."""
    sample = "function f(x) { return x }\nclass A:\n    def g(self):\n        pass\n"
    for language in GRAMMARS:
        if language in UNSAFE_GRAMMARS:
            continue
        parsed = parse(sample, None, language)
        structure = extract_structure(parsed)
        if parsed.tree is None:  # the sample is gibberish to this grammar: line fallback
            assert structure.level == "none" and structure.entities == []
            continue
        assert structure.level == structure_level(language)
        assert structure.level == ("full" if language in FULL_LANGUAGES else "generic")
        for entity in structure.entities:
            assert entity.type in ENTITY_TYPES and entity.name


def test_generic_languages_find_named_definitions():
    lua = extract(
        "local json = require('json')\n-- Adds two numbers.\nlocal function add(a, b)\n  return a + b\nend\n", "m.lua"
    )
    assert lua.level == "generic"
    add = one(lua, "add", "function")
    assert add.signature == "local function add(a, b)"
    assert add.docstring == "Adds two numbers."
    bash = extract("# Greets someone.\ngreet() {\n  echo hi\n}\n", "x.sh")
    assert one(bash, "greet", "function").docstring == "Greets someone."


def test_generic_classification_of_node_kinds():
    assert entity_type("function_definition") == "function"
    assert entity_type("class_declaration") == "class"
    assert entity_type("struct_item") == "type"
    assert entity_type("module_definition") == "module"
    assert entity_type("import_statement") == "import"
    assert entity_type("preproc_include") == "import"
    assert entity_type("call_expression") is None
    assert entity_type("function_call") is None
    assert entity_type("type_parameter_declaration") is None
    assert entity_type("storage_class_specifier") is None


# -- single entities (51-58) ------------------------------------------------------------------
def test_typescript_function():
    code = "function greet(name: string): string {\n  return `Hello, ${name}!`\n}"
    structure = extract(code, "greet.ts")
    (greet,) = structure.entities
    assert (greet.name, greet.type, greet.signature) == ("greet", "function", "function greet(name: string): string")
    assert greet.docstring is None and greet.parent is None
    assert (greet.start, greet.end) == (0, len(code)) and (greet.line_start, greet.line_end) == (0, 2)
    assert code.encode()[greet.start : greet.end].decode() == code  # 77


def test_typescript_class_and_methods():
    structure = extract(TS_CALCULATOR, "calc.ts")
    assert kinds(structure) == [("Calculator", "class"), ("add", "method"), ("subtract", "method")]
    calc = one(structure, "Calculator")
    assert calc.signature == "class Calculator" and (calc.line_start, calc.line_end) == (0, 8)
    assert one(structure, "add").signature == "add(a: number, b: number): number"
    assert one(structure, "subtract").signature == "subtract(a: number, b: number): number"
    assert all(e.parent is calc for e in calc.children) and names(calc.children) == ["add", "subtract"]


def test_typescript_interface_with_its_fields():
    structure = extract("interface User {\n  id: string\n  name: string\n}", "u.ts")
    user = one(structure, "User", "interface")
    assert user.signature == "interface User" and (user.line_start, user.line_end) == (0, 3)
    assert [(e.name, e.type, e.parent) for e in structure.entities[1:]] == [
        ("id", "field", user),
        ("name", "field", user),
    ]


def test_python_function_with_docstring():
    structure = extract('def greet(name):\n    """Say hello to someone."""\n    return f"Hello, {name}!"\n', "g.py")
    (greet,) = structure.entities
    assert greet.signature == "def greet(name)" and greet.docstring == "Say hello to someone."
    assert (greet.line_start, greet.line_end) == (0, 2)


def test_python_methods_are_methods():
    """code-chunk types Python methods as `function` (with a parent); they are methods."""
    code = 'class Calculator:\n    """A simple calculator."""\n\n    def add(self, a, b):\n        return a + b\n'
    structure = extract(code, "c.py")
    calc, add = structure.entities
    assert (calc.signature, calc.docstring) == ("class Calculator", "A simple calculator.")
    assert (add.name, add.type, add.parent) == ("add", "method", calc)


def test_rust_function_signature():
    (add,) = extract("fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n", "a.rs").entities
    assert add.signature == "fn add(a: i32, b: i32) -> i32"


def test_go_package_clause_is_a_module_not_an_import():
    structure = extract("package main\n\nfunc add(a, b int) int {\n\treturn a + b\n}\n", "a.go")
    assert structure.imports == []
    assert kinds(structure) == [("main", "module"), ("add", "function")]
    add = one(structure, "add")
    assert (add.signature, add.docstring, add.parent) == ("func add(a, b int) int", None, None)


def test_java_class_and_method():
    code = "public class Calculator {\n    public int add(int a, int b) {\n        return a + b;\n    }\n}\n"
    structure = extract(code, "Calculator.java")
    assert kinds(structure) == [("Calculator", "class"), ("add", "method")]
    assert one(structure, "add").parent is one(structure, "Calculator")


def test_java_constructors_are_methods_and_records_classes():
    code = "public record Point(int x, int y) {\n    public Point {\n    }\n}\nclass Box {\n    Box(int size) {}\n}\n"
    structure = extract(code, "P.java")
    assert kinds(structure) == [("Point", "class"), ("Point", "method"), ("Box", "class"), ("Box", "method")]


# -- nesting (59-61, 39) -------------------------------------------------------------------------
def test_nested_parents():
    structure = extract("class Outer {\n  inner() {\n    function nestedFn() {}\n  }\n}\n", "o.ts")
    outer, inner, nested = structure.entities
    assert inner.parent is outer and nested.parent is inner
    assert nested.ancestors() == [inner, outer] and inner.ancestors() == [outer]


def test_nested_functions_are_all_functions():
    code = (
        "function outer() {\n  function inner1() {\n    function inner2() {\n"
        "      function inner3() {}\n    }\n  }\n}\n"
    )
    structure = extract(code, "n.js")
    assert kinds(structure) == [(n, "function") for n in ("outer", "inner1", "inner2", "inner3")]
    assert [e.depth for e in structure.entities] == [0, 1, 2, 3]


def test_deep_nesting_needs_no_recursion():
    depth = 3000
    code = "".join(f"function level{i}() {{\n" for i in range(depth)) + "}\n" * depth
    structure = extract(code, "deep.js")
    assert len(structure.entities) == depth
    deepest = structure.entities[-1]
    assert deepest.name == f"level{depth - 1}" and deepest.depth == depth - 1
    assert len(deepest.ancestors()) == depth - 1


def test_many_flat_functions():
    """16,000 functions: the scope tree is built in one sorted pass (code-chunk was quadratic)."""
    count = 16000
    code = "".join(f"def f{i}(x):\n    return x\n" for i in range(count))
    structure = extract(code, "flat.py")
    assert len(structure.roots) == count and all(e.parent is None for e in structure.entities)
    middle = structure.entities[count // 2]
    assert structure.scope.scope_at(middle.start + 5) is middle


def test_arrow_functions_and_function_expressions_are_functions():
    code = (
        "const fn = function () { return 1 }\nconst arrow = (x) => x * 2\n"
        "let later = async () => {}\nconst value = 42\n"
    )
    structure = extract(code, "a.js")
    assert kinds(structure) == [("fn", "function"), ("arrow", "function"), ("later", "function"), ("value", "constant")]
    assert one(structure, "arrow").signature == "const arrow = (x)"


def test_typescript_namespaces_are_modules():
    structure = extract("namespace Shapes {\n  export function area() { return 1 }\n}\n", "s.ts")
    shapes = one(structure, "Shapes", "module")
    assert one(structure, "area").parent is shapes


def test_rust_impl_trait_for_type_is_named_after_the_type():
    code = (
        "struct Store<T> { items: Vec<T> }\n"
        "impl<T> Display for Store<T> {\n    fn fmt(&self) {}\n}\n"
        'mod inner { const LIMIT: u8 = 3; static NAME: &str = "x"; }\n'
    )
    structure = extract(code, "s.rs")
    impl = one(structure, "Store", "class")
    assert impl.signature == "impl<T> Display for Store<T>"
    assert one(structure, "fmt").parent is impl
    assert one(structure, "LIMIT", "constant").parent is one(structure, "inner", "module")
    assert one(structure, "NAME", "constant").signature == "static NAME: &str"


def test_go_const_var_and_type():
    code = (
        "package p\n\nconst (\n\tA = 1\n\tB = 2\n)\n\nvar Default = New()\n\n"
        "type Point struct {\n\tX, Y int\n}\n\ntype Reader interface {\n\tRead() error\n}\n"
    )
    structure = extract(code, "p.go")
    assert kinds(structure) == [
        ("p", "module"),
        ("A", "constant"),
        ("B", "constant"),
        ("Default", "variable"),
        ("Point", "type"),
        ("X", "field"),
        ("Y", "field"),
        ("Reader", "interface"),
        ("Read", "method"),
    ]
    assert one(structure, "Point").signature == "type Point struct"
    assert one(structure, "Default").signature == "var Default"


# -- signatures (64, 70-73) -------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("code", "path", "name", "signature"),
    [
        (
            "function greet(name: string): string { return name }",
            "a.ts",
            "greet",
            "function greet(name: string): string",
        ),
        ("def greet(name):\n    return name\n", "a.py", "greet", "def greet(name)"),
        ("function identity<T>(arg: T): T { return arg }", "a.ts", "identity", "function identity<T>(arg: T): T"),
        (
            "function compare(a: number, b: number): boolean { return a < b }",
            "a.ts",
            "compare",
            "function compare(a: number, b: number): boolean",
        ),
        (
            "class Calculator extends Base implements ICalc {}",
            "a.ts",
            "Calculator",
            "class Calculator extends Base implements ICalc",
        ),
        (
            "function multiLine(\n  param1: string,\n  param2: number,\n  param3: boolean\n): void {}",
            "a.ts",
            "multiLine",
            "function multiLine( param1: string, param2: number, param3: boolean ): void",
        ),
        (
            "async function fetchData(): Promise<string> { return '' }",
            "a.ts",
            "fetchData",
            "async function fetchData(): Promise<string>",
        ),
        ("type G<T = string> = T[]", "a.ts", "G", "type G<T = string>"),  # code-chunk cut at the first `=`
        (
            "def f(x=(1, 2), *, y: dict = {}) -> None:  # note\n    pass\n",
            "a.py",
            "f",
            "def f(x=(1, 2), *, y: dict = {}) -> None",
        ),
        ("class Service {\n  @Override public void run() {}\n}", "S.java", "run", "@Override public void run()"),
    ],
)
def test_signatures(code, path, name, signature):
    assert one(extract(code, path), name).signature == signature


def test_generators_and_exports():
    code = (
        "async function* generateData() { yield 1 }\nfunction* myGenerator() { yield 2 }\n"
        "export function publicFn() {}\nexport default function defaultFn() {}\n"
    )
    structure = extract(code, "g.ts")
    assert kinds(structure) == [
        ("generateData", "function"),
        ("myGenerator", "function"),
        ("publicFn", "function"),
        ("defaultFn", "function"),
    ]
    assert "async" in one(structure, "generateData").signature
    assert [e.is_exported for e in structure.entities] == [False, False, True, True]
    assert structure.exports == []  # an exported declaration is not duplicated as an export


def test_empty_and_comment_only_files_have_no_entities():
    assert extract("", "e.ts").entities == []
    assert extract("// just a comment\n/* and another */\n", "c.ts").entities == []


# -- docstrings (66-68) -----------------------------------------------------------------------------
def test_jsdoc():
    code = "/**\n * Greet someone by name.\n * @param name The name to greet\n */\nfunction greet(name) {}\n"
    assert one(extract(code, "a.js"), "greet").docstring == "Greet someone by name.\n@param name The name to greet"


def test_jsdoc_is_found_through_export_and_needs_adjacency():
    code = (
        "/** Exported. */\nexport function a() {}\n\n/** Not adjacent. */\n\nfunction b() {}\n"
        "// a line comment\n/* a block comment */\n/** JSDoc comment */\nfunction documented() {}\n"
    )
    structure = extract(code, "a.ts")
    assert one(structure, "a").docstring == "Exported."
    assert one(structure, "b").docstring is None
    assert one(structure, "documented").docstring == "JSDoc comment"


def test_python_multiline_docstring_is_dedented_per_pep_257():
    code = (
        'def greet(name):\n    """Greet someone.\n\n    Args:\n        name: The person to greet\n    """\n'
        "    return name\n"
    )
    doc = one(extract(code, "a.py"), "greet").docstring
    assert doc == "Greet someone.\n\nArgs:\n    name: The person to greet"


def test_python_docstring_quote_styles():
    def doc(body):
        return one(extract(f"def f():\n    {body}\n    pass\n", "a.py"), "f").docstring

    assert doc('"""Triple."""') == "Triple."
    assert doc("'''Single triple.'''") == "Single triple."
    assert doc('r"""Raw."""') == "Raw."
    assert doc("'single quoted'") == "single quoted"  # code-chunk missed these
    assert doc('"double quoted"') == "double quoted"
    assert doc('b"""bytes"""') is None and doc('f"""{1}"""') is None
    assert doc("# a comment\n    x = 1") is None
    assert doc("# a comment\n    '''After a comment.'''") == "After a comment."


def test_rust_docs_through_attributes_and_block_docs():
    code = (
        "/// First line.\n/// Second line.\n#[derive(Debug)]\n#[allow(dead_code)]\npub struct A;\n\n"
        "/** Block doc. */\nfn b() {}\n\n//! Inner doc of the module, not of c.\nfn c() {}\n\n"
        "// plain comment\nfn d() {}\n"
    )
    structure = extract(code, "a.rs")
    assert one(structure, "A").docstring == "First line.\nSecond line."
    assert one(structure, "b").docstring == "Block doc."
    assert one(structure, "c").docstring is None
    assert one(structure, "d").docstring is None


def test_go_docs_need_adjacency():
    code = (
        "// Copyright 2024 Someone.\n\n// Package p does things.\npackage p\n\n"
        "// Add returns the sum of a and b.\nfunc Add(a, b int) int { return a + b }\n\n"
        "func Sub(a, b int) int { return a - b } // trailing\nfunc Mul(a, b int) int { return a * b }\n"
    )
    structure = extract(code, "p.go")
    assert one(structure, "p").docstring == "Package p does things."
    assert one(structure, "Add").docstring == "Add returns the sum of a and b."
    assert one(structure, "Mul").docstring is None  # the comment above trails Sub's line


def test_javadoc():
    code = (
        "class M {\n    /**\n     * Adds two numbers.\n     * @param a the first\n     * @param b the second\n"
        "     * @return The sum\n     */\n    int add(int a, int b) { return a + b; }\n\n"
        "    /* not a doc */\n    int sub(int a, int b) { return a - b; }\n}\n"
    )
    structure = extract(code, "M.java")
    doc = one(structure, "add").docstring
    assert doc == "Adds two numbers.\n@param a the first\n@param b the second\n@return The sum"
    assert one(structure, "sub").docstring is None


def test_is_doc_comment():
    assert is_doc_comment("/** x */", ("/**",)) and not is_doc_comment("/* x */", ("/**",))
    assert not is_doc_comment("// x", ("/**",))
    assert not is_doc_comment("/*** banner ***/", ("/**",)) and not is_doc_comment("/**/", ("/**",))
    assert is_doc_comment("/// x", ("///", "/**")) and not is_doc_comment("//// x", ("///", "/**"))
    assert not is_doc_comment("//! x", ("///", "/**")) and not is_doc_comment("// x", ("///",))
    assert is_doc_comment("// x", ())  # Go, C: any comment
    assert python_string_doc('"""x"""') == "x" and python_string_doc("r'''x'''") == "x"
    assert python_string_doc("b'x'") is None


def test_comment_cleanup():
    assert comment_doc(["/**\n * This is a description.\n * @param name The name\n */"]) == (
        "This is a description.\n@param name The name"
    )
    assert comment_doc(["/// First line.", "/// Second line."]) == "First line.\nSecond line."
    assert comment_doc(["// First line.", "// Second line."]) == "First line.\nSecond line."
    assert comment_doc(["#   indented", "#     more"]) == "indented\n  more"
    assert trim("\n    Summary.\n\n        Detail.\n    ") == "Summary.\n\n    Detail."
    assert trim("   ") is None


def test_comment_cleanup_keeps_what_follows_the_markers():
    # only stars and bangs go with a block opener: a letter right after it is text
    assert comment_doc(["/*Xylophone notes */"]) == "Xylophone notes"
    assert comment_doc(["/**!Bang */"]) == "Bang"
    # trailing blanks go from every line; a blank-only line neither sets nor escapes the indent
    assert trim("Summary.  \n     body   \n  \n     more\n") == "Summary.\nbody\n\nmore"
    assert trim("Top\r\n\t  tabbed\r\n    x") == "Top\n      tabbed\nx"


# -- imports (75-76, 89-90) ---------------------------------------------------------------------------
def import_pairs(code, path):
    return [(e.name, e.source) for e in extract(code, path).imports]


def test_typescript_imports():
    code = (
        "import { a, b as c } from 'my-module'\nimport React from 'react'\nimport * as path from 'path'\n"
        "import type { Option } from 'effect/Option'\nimport './side-effect'\n"
    )
    structure = extract(code, "i.ts")
    assert [(e.name, e.source, e.imported) for e in structure.imports] == [
        ("a", "my-module", None),
        ("c", "my-module", "b"),
        ("React", "react", None),
        ("path", "path", None),
        ("Option", "effect/Option", None),
        ("./side-effect", "./side-effect", None),
    ]
    flags = [(e.is_default, e.is_namespace, e.is_side_effect) for e in structure.imports]
    assert flags == [(False, False, False)] * 2 + [
        (True, False, False),
        (False, True, False),
        (False, False, False),
        (False, False, True),
    ]
    assert structure.imports[2].import_entry().to_dict() == {"name": "React", "source": "react", "isDefault": True}
    assert structure.imports[3].import_entry().to_dict() == {"name": "path", "source": "path", "isNamespace": True}


def test_import_counts():
    assert import_pairs("import {foo} from 'bar'", "a.ts") == [("foo", "bar")]
    assert import_pairs("import { foo, bar, baz } from './m'", "a.ts") == [
        ("foo", "./m"),
        ("bar", "./m"),
        ("baz", "./m"),
    ]
    assert import_pairs("import {a} from 'x'\nimport {b, c} from 'y'\nimport d from 'z'\n", "a.ts") == [
        ("a", "x"),
        ("b", "y"),
        ("c", "y"),
        ("d", "z"),
    ]
    assert import_pairs("import { Effect } from 'effect'\nimport { Option } from 'effect/Option'", "a.ts") == [
        ("Effect", "effect"),
        ("Option", "effect/Option"),
    ]
    assert import_pairs("import React from 'react'\nconst fs = require('fs')\nconst x = load('y')", "a.js") == [
        ("React", "react"),
        ("fs", "fs"),
    ]


def test_python_from_import_imports_names_from_the_module():
    """code-chunk also listed the module (`typing`) as an imported name."""
    code = (
        "from typing import List, Dict as D\nimport os\nimport os.path\nimport sys as system\n"
        "from collections import *\nfrom . import sibling\n"
    )
    assert import_pairs(code, "a.py") == [
        ("List", "typing"),
        ("D", "typing"),
        ("os", "os"),
        ("os.path", "os.path"),
        ("system", "sys"),
        ("*", "collections"),
        ("sibling", "."),
    ]
    assert [e.local_name for e in extract(code, "a.py").imports] == ["List", "D", "os", "os", "system", None, "sibling"]


def test_import_sources_in_other_languages():
    assert import_pairs("use std::collections::HashMap;", "a.rs") == [("HashMap", "std::collections::HashMap")]
    assert import_pairs("use std::cmp::Ordering::{self, *};\nuse a::{b::{C, D as E}, f};", "a.rs") == [
        ("Ordering", "std::cmp::Ordering"),
        ("*", "std::cmp::Ordering"),
        ("C", "a::b::C"),
        ("E", "a::b::D"),
        ("f", "a::f"),
    ]
    assert import_pairs('package p\n\nimport (\n\t"fmt"\n\tm "math"\n\t_ "x/driver"\n)\n', "a.go") == [
        ("fmt", "fmt"),
        ("m", "math"),
        ("driver", "x/driver"),
    ]  # each spec its own source
    assert import_pairs("import java.util.List;\nimport java.util.*;", "A.java") == [
        ("List", "java.util.List"),
        ("*", "java.util"),
    ]


# -- ranges and order (78-84, 88, 91) -------------------------------------------------------------------
def test_line_ranges_of_members():
    structure = extract("class Foo {\n  bar() {}\n  baz() {}\n}", "f.ts")
    assert [(e.line_start, e.line_end) for e in structure.entities] == [(0, 3), (1, 1), (2, 2)]
    a, b = extract("function a() {}\nfunction b() {}", "a.ts").entities
    assert a.start == 0 and a.end <= b.start and b.end == len("function a() {}\nfunction b() {}")
    assert (a.line_start, a.line_end, b.line_start, b.line_end) == (0, 0, 1, 1)


def test_types_enums_and_rust_structs():
    (user_id,) = extract("type UserId = string", "t.ts").entities
    assert (user_id.type, user_id.start, user_id.end, user_id.line_end) == ("type", 0, 20, 0)
    structure = extract("enum Status {\n  Active,\n  Inactive,\n}", "e.ts")
    status = one(structure, "Status")
    assert (status.type, status.signature, status.line_end) == ("enum", "enum Status", 3)
    rust = extract("struct Point { x: f64 }\nenum Direction { Up, Down }\n", "a.rs")
    assert one(rust, "Point").type == "type" and one(rust, "Direction").type == "enum"


def test_entity_is_complete_and_in_source_order():
    (test,) = extract("function test() {}", "t.ts").entities
    assert (test.name, test.type, test.signature, test.docstring, test.parent) == (
        "test",
        "function",
        "function test()",
        None,
        None,
    )
    assert test.byte_range.to_dict() == {"start": 0, "end": 18} and test.line_range.to_dict() == {"start": 0, "end": 0}
    assert test.kind == "function_declaration"
    code = "import { x } from 'y'\ninterface I { a: string }\nclass C { m() {} }\nfunction f() {}\nenum E { A }\n"
    structure = extract(code, "o.ts")
    assert names(structure.entities) == ["x", "I", "a", "C", "m", "f", "E"]


def test_python_module_counts():
    """code-chunk: 2 imports (typing and Optional); the module is not an imported name."""
    code = (
        "from typing import Optional\n\nclass Service:\n    def __init__(self):\n        pass\n\n"
        "    @staticmethod\n    def build():\n        pass\n\n    @classmethod\n    def load(cls):\n        pass\n\n"
        "@decorator\ndef decorated_func():\n    pass\n"
    )
    structure = extract(code, "s.py")
    assert [(e.name, e.source) for e in structure.imports] == [("Optional", "typing")]
    assert kinds(structure) == [
        ("Service", "class"),
        ("__init__", "method"),
        ("build", "method"),
        ("load", "method"),
        ("decorated_func", "function"),
    ]
    assert all(one(structure, n).parent is one(structure, "Service") for n in ("__init__", "build", "load"))
    assert one(structure, "decorated_func").signature == "def decorated_func()"


def test_syntax_errors_still_give_structure():
    structure = extract("function ok() { return 1 }\nfunction broken( {\n", "b.ts")
    assert "ok" in names(structure.entities)


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet="ab \n\t", max_size=60))
def test_trim_agrees_with_inspect_cleandoc(text):
    expected = "\n".join(line.rstrip() for line in inspect.cleandoc(text).split("\n")).strip("\n")
    assert trim(text) == (expected or None)
