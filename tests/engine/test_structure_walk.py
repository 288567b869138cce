"""The statement walk (structure/walk.py) finds every match the whole-tree query finds."""

from __future__ import annotations

import pytest
from structure_helpers import STRUCTURE_FIXTURES, parse
from tree_sitter import QueryCursor

from explorer.engine.structure.specs import SPECS, compiled_query, walk_plan
from explorer.engine.structure.walk import root_kind_nodes

#: Code where definitions hide: inside expressions, wrappers, case clauses, #if groups, errors.
TRICKY = {
    "x.js": (
        "(function () { function hidden() {} const f = x => x; })();\n"
        "export default class { m() {} }\nexport const K = 1;\n"
        "module.exports = { a() {}, b: function () { class Inner {} } };\n"
        "switch (k) { case 1: const g = () => 1; }\n"
        "const s = `${(() => { function inTemplate() {} })()}`;\n"
        "const r = require('r');\n"
    ),
    "x.ts": "export type A = B;\ndeclare module 'm' { export function f(): void; }\n"
    "namespace N { interface I { p: string; m(): void } }\nabstract class C { abstract m(): void; x = 1 }\n",
    "x.py": "import os\nif TYPE_CHECKING:\n    from a import b\ntry:\n    import c\nexcept ImportError:\n"
    "    c = None\nclass A:\n    X = 1\n    @property\n    def p(self):\n        def inner(): pass\n"
    "match x:\n    case 1:\n        def in_case(): pass\n",
    "x.go": "package p\nimport (\n\t\"fmt\"\n\tx \"os\"\n)\nconst (\n\tA = 1\n\tB = 2\n)\ntype T int\n"
    "type S struct { a int }\ntype I interface { M() }\n"
    "func f() { type L int; switch { case true: type M struct{} }; go func() { type N int }() }\n",
    "x.rs": "use a::{b, c as d};\nmod m;\nfn f() { const C: i32 = 1; fn g() {} let c = || { struct In; }; }\n"
    "impl T for S { type X = i32; fn m(&self) {} }\n",
    "X.java": "package p;\nimport a.B;\nenum E { A, B; void f() {} static final int K = 1; }\n"
    "class C { Runnable r = new Runnable() { public void run() {} }; interface I { int X = 1; void m(); } }\n",
    "x.c": "#include <a.h>\n#ifdef X\n#define Y 1\nint f(void);\n#else\ntypedef int t;\n#endif\n"
    "struct s { int a; } v;\ntypedef struct { int b; } u;\nvoid g() { typedef int local; struct in { int c; }; }\n",
    "x.cpp": "namespace n { template <class T> using V = T; class C { void m(); int f() { return 1; } }; }\n"
    "extern \"C\" { int h(); }\nusing namespace std;\nauto l = [] { struct Q { int z; }; };\n",
}


def _key(match):
    pattern, caps = match
    return pattern, tuple(sorted((name, tuple(n.id for n in nodes)) for name, nodes in caps.items()))


def _check(code: str, path: str) -> None:
    parsed = parse(code, path)
    language = parsed.language
    plan = walk_plan(language)
    assert plan is not None, f"{language} has walk data"
    query = compiled_query(language)
    root = parsed.tree.root_node
    # sets: the whole-tree cursor sometimes reports one match twice
    whole = set(map(_key, QueryCursor(query).matches(root)))
    cursor = QueryCursor(query)
    cursor.set_max_start_depth(0)
    walked = {_key(m) for node in root_kind_nodes(root, parsed.source.data, plan) for m in cursor.matches(node)}
    assert walked == whole


@pytest.mark.parametrize("path", sorted(TRICKY))
def test_walk_finds_what_the_whole_tree_query_finds(path):
    _check(TRICKY[path], path)


@pytest.mark.parametrize(
    "name",
    ["user_service.py", "user_service.ts", "widgets.tsx", "calculator.jsx", "repository.go", "store.rs",
     "UserService.java", "buffer.c", "shapes.cpp"],
)
def test_walk_matches_the_whole_tree_query_on_fixtures(name):
    _check((STRUCTURE_FIXTURES / name).read_text(encoding="utf-8"), name)


def test_languages_with_walk_data():
    walked = {language for language in SPECS if walk_plan(language) is not None}
    assert {"python", "javascript", "typescript", "tsx", "go", "rust", "java", "c", "cpp"} <= walked
    assert walk_plan("kotlin") is None  # no walk data: the query runs over the whole tree


@pytest.mark.parametrize("code", [
    "if (a) var v = function () {};\n",
    "if (a) {} else var v = function () {};\n",
    "for (;;) var v = () => { return 1 };\n",
    "while (a) var v = function () {};\n",
    "outer: var v = function () {};\n",
])
def test_a_braceless_body_holding_a_function_valued_variable(code):
    # The function's block is owned by the function expression, not a statement:
    # the declaration is found as a statement of the braceless body.
    _check(code, "braceless.js")


def test_deep_nesting_walks_without_recursion():
    code = "function f(){" * 10_000 + "}" * 10_000
    _check(code, "deep.js")


@pytest.mark.parametrize("code, path", [
    ("function f(a) {\n" + "if (a) {\n" * 12 + "g(a);\n" + "}\n" * 12 + "}\n", "ifs.js"),
    ("function f() " + "{ " * 12 + "const k = () => 1;" + " }" * 12, "blocks.js"),
    ("void f(void) " + "{ " * 12 + "struct s { int a; } v;" + " }" * 12, "blocks.c"),
    ("fn f() " + "{ " * 12 + "fn g() {}" + " }" * 12, "blocks.rs"),
])
def test_each_node_is_found_once_in_nested_blocks(code, path):
    # A block listed as a statement used to search its own opener again and be walked
    # twice: twice per level, so 2**depth times at the bottom.
    parsed = parse(code, path)
    nodes = root_kind_nodes(parsed.tree.root_node, parsed.source.data, walk_plan(parsed.language))
    assert len({n.id for n in nodes}) == len(nodes)
    _check(code, path)


@pytest.mark.parametrize("code, path", [
    ("function f(a) {\n" + "if (a) {\n" * 3000 + "g(a);\n" + "}\n" * 3000 + "}\n", "ifs.js"),
    ("void f(void) " + "{ " * 3000 + "int x;" + " }" * 3000, "blocks.c"),
])
def test_deeply_nested_blocks_walk_in_linear_time(code, path):
    parsed = parse(code, path)
    nodes = root_kind_nodes(parsed.tree.root_node, parsed.source.data, walk_plan(parsed.language))
    assert len(nodes) < 10  # the function and the statement at the bottom, once each
