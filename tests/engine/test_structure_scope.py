"""The scope tree and its range look-ups (code-chunk study section 3, tests 97-110).

Where code-chunk takes the chunk's start as its scope (study 5.1 #14), ours is
the entities containing the whole range; those tests assert the fixed behaviour.
"""

from __future__ import annotations

from structure_helpers import extract, names, one, span_of

from explorer.engine.structure import Entity, build_scope_tree
from explorer.engine.structure.scope import ScopeIndex

BIG_CLASS = """class BigClass {
  method1() {
    return 1
  }
  method2() {
    return 2
  }
  method3() {
    return 3
  }
}
"""


def entity(name, start, end, type="function"):
    return Entity(name=name, type=type, kind="test", start=start, end=end, signature=name)


def test_contains_is_inclusive_on_both_ends():
    outer = entity("outer", 10, 20)
    assert outer.contains(10, 20) and outer.contains(10, 15) and outer.contains(15, 20)
    assert outer.contains(12, 12) and outer.contains(10, 10) and outer.contains(20, 20)
    assert not outer.contains(5, 15) and not outer.contains(15, 25) and not outer.contains(30, 40)
    assert not outer.contains(25, 25)


def test_tree_of_a_single_function_and_of_a_class():
    (greet,) = build_scope_tree([entity("greet", 0, 10)])
    assert greet.parent is None and greet.children == []
    structure = extract(BIG_CLASS, "big.ts")
    (big,) = structure.roots
    assert names(big.children) == ["method1", "method2", "method3"]
    assert all(big.start <= m.start and m.end <= big.end and m.parent is big for m in big.children)
    assert [e.depth for e in structure.entities] == [0, 1, 1, 1]


def test_build_sorts_and_nests_in_one_pass():
    a, b, c, d = entity("a", 0, 100, "class"), entity("b", 10, 40), entity("c", 20, 30), entity("d", 50, 60)
    roots = build_scope_tree([d, c, b, a])
    assert roots == [a] and a.children == [b, d] and b.children == [c]
    assert c.ancestors() == [b, a] and c.type == "function" and b.type == "method"  # b is in a class


def test_equal_ranges_are_siblings():
    first, second = entity("first", 0, 10), entity("second", 0, 10)
    assert build_scope_tree([first, second]) == [first, second]
    assert first.parent is None and second.parent is None


def test_imports_and_exports_are_not_scopes():
    code = "import { Effect } from 'effect'\nimport { Option } from 'effect/Option'\nfunction test() {}\n"
    structure = extract(code, "t.ts")
    assert [(e.name, e.source) for e in structure.imports] == [("Effect", "effect"), ("Option", "effect/Option")]
    assert names(structure.roots) == ["test"]
    structure = extract("export function publicFn() {}\nexport default function main() {}\n"
                        "export { helper } from './h'\n", "e.ts")
    assert names(structure.roots) == ["publicFn", "main"] and names(structure.exports) == ["helper"]


def test_import_inside_a_function_knows_its_function():
    structure = extract("def f():\n    import os\n    return os\n", "f.py")
    (imported,) = structure.imports
    assert imported.parent is one(structure, "f") and one(structure, "f").children == []


def test_scope_at():
    structure = extract(BIG_CLASS, "big.ts")
    scope = structure.scope
    big, m1, m2, m3 = structure.entities
    assert scope.scope_at((m2.start + m2.end) // 2) is m2
    assert scope.scope_at(m1.start) is m1 and scope.scope_at(m3.start) is m3
    assert scope.scope_at(big.start + 1) is big
    assert scope.scope_at(10_000) is None and scope.scope_at(-1) is None
    assert ScopeIndex([], []).scope_at(0) is None


def test_scope_chain_is_what_contains_the_whole_range():
    structure = extract(BIG_CLASS, "big.ts")
    big, m1, m2, m3 = structure.entities
    scope = structure.scope
    # a chunk that is exactly method2: the class is its scope, not method2 itself
    assert scope.enclosing(m2.start, m2.end) == [big]
    # inside method2's body
    inner = span_of(BIG_CLASS, "return 2")
    assert scope.enclosing(*inner) == [m2, big]
    # the tail of method1 and all of method2: code-chunk said [method1, BigClass] (chunk start only)
    assert scope.enclosing(m1.start + 5, m2.end) == [big]
    # the whole class, or more: nothing contains it
    assert scope.enclosing(big.start, big.end) == [] and scope.enclosing(0, len(BIG_CLASS)) == []
    # a range starting with the class and ending inside it
    assert scope.enclosing(big.start, m1.end) == [big]


def test_around_gives_scope_and_entities_cut_at_the_start():
    structure = extract(BIG_CLASS, "big.ts")
    big, m1, m2, m3 = structure.entities
    scope, partial = structure.scope.around(m1.start + 5, m2.end)
    assert scope == [big] and partial == [m1]
    scope, partial = structure.scope.around(m2.start, m2.end)
    assert scope == [big] and partial == []


def test_scope_chain_is_capped_for_pathological_nesting():
    depth = 200
    code = "".join(f"function f{i}() {{\n" for i in range(depth)) + "x()\n" + "}\n" * depth
    structure = extract(code, "deep.js")
    start, end = span_of(code, "x()")
    chain = structure.scope.enclosing(start, end, limit=64)
    assert len(chain) == 64 and chain[0].name == f"f{depth - 1}" and chain[-1].name == f"f{depth - 64}"
    assert len(structure.scope.enclosing(start, end)) == depth


def test_ancestor_chain():
    code = "class Level1 {\n  level2Method() {\n    function level3() {}\n  }\n}\n"
    structure = extract(code, "l.ts")
    level1, level2, level3 = structure.entities
    assert level1.ancestors() == [] and level2.ancestors() == [level1]
    assert level3.ancestors() == [level2, level1]
    assert level2.parent is level1 and level3.depth == 2


def test_entities_in_range():
    structure = extract("function foo() {}\nfunction bar() {}\nfunction baz() {}\n", "f.ts")
    foo, bar, baz = structure.entities
    assert structure.scope.entities_in_range(bar.start, bar.end) == [(bar, False)]
    structure = extract(BIG_CLASS, "big.ts")
    big, m1, m2, m3 = structure.entities
    assert structure.scope.entities_in_range(m2.start, m2.end) == [(big, True), (m2, False)]
    assert structure.scope.entities_in_range(m1.start, m1.start + 5) == [(big, True), (m1, True)]
    assert structure.scope.entities_in_range(len(BIG_CLASS), len(BIG_CLASS) + 10) == []


def test_siblings_before_and_after_with_distance():
    code = "".join(f"function f{i}() {{}}\n" for i in range(9))
    structure = extract(code, "s.ts")
    f = structure.entities
    found = structure.scope.siblings(None, f[4].start, f[4].end, 3)
    assert [(e.name, position, distance) for e, position, distance in found] == [
        ("f3", "before", 1), ("f5", "after", 1), ("f2", "before", 2), ("f6", "after", 2),
        ("f1", "before", 3), ("f7", "after", 3)]
    found = structure.scope.siblings(None, f[0].start, f[1].end, 2)  # a range holding two siblings
    assert [(e.name, p, d) for e, p, d in found] == [("f2", "after", 1), ("f3", "after", 2)]
    assert structure.scope.siblings(None, f[4].start, f[4].end, 0) == []


def test_siblings_of_members_are_the_other_members():
    structure = extract(BIG_CLASS, "big.ts")
    big, m1, m2, m3 = structure.entities
    found = structure.scope.siblings(big, m2.start, m2.end, 3)
    assert [(e.name, p, d) for e, p, d in found] == [("method1", "before", 1), ("method3", "after", 1)]


def test_entities_sharing_one_range_are_all_found():
    """Names of one import, or two functions of one `const` declaration, share a range."""
    code = "import { a, b, c } from './m'\nconst f = () => { work() }, g = () => { rest() }\n"
    structure = extract(code, "t.ts")
    start, end = span_of(code, "b, c")
    assert [(e.name, partial) for e, partial in structure.scope.entities_in_range(start, end)] == [
        ("a", True), ("b", True), ("c", True)]
    scope, partial = structure.scope.around(start, end)
    assert scope == [] and [e.name for e in partial] == ["a", "b", "c"]
    start, end = span_of(code, "work()")
    assert names(structure.scope.enclosing(start, end)) == ["f", "g"]
