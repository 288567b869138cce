"""Uses at their edges: the scope of a use after a nested definition and outside every
definition, a computed callee, a generic call's type arguments; the recommendation's record
of every setting against the best."""

from __future__ import annotations

from explorer.engine.api import parse
from explorer.engine.options import ChunkOptions
from explorer.engine.retrieval.calls import find_uses
from explorer.engine.retrieval.recommend import recommend
from explorer.engine.structure import extract_structure

from .test_recommend import _hits, _result


def uses(name: str, source: bytes) -> list[tuple[str, str, int]]:
    parsed = parse(name, source, ChunkOptions())
    return [(u.source, u.name, u.scope) for u in find_uses(parsed.tree.root_node, extract_structure(parsed))]


NESTED = b"""def outer():
    def inner():
        first()
    second()


def later():
    third()


fourth()
"""


def test_a_use_belongs_to_the_innermost_definition_holding_it_or_to_none():
    outer, inner, later = NESTED.index(b"def outer"), NESTED.index(b"def inner"), NESTED.index(b"def later")
    assert uses("m.py", NESTED) == [("calls", "first", inner), ("calls", "second", outer),
                                    ("calls", "third", later), ("calls", "fourth", -1)]


def test_a_computed_callee_names_nothing():
    assert uses("m.py", b"handlers[key]()\nhandlers[0](x)\n") == []
    assert uses("m.ts", b"handlers[key]();\nobj.items[i]();\nobj.items[i].run();\n") == [("calls", "run", -1)]


def test_a_generic_call_names_its_function_not_its_type_arguments():
    source = b"fn main() {\n    let c = build::<Config>(x);\n}\n"
    assert uses("m.rs", source) == [("calls", "build", 0), ("types", "Config", 0)]


def test_the_record_gives_every_setting_against_the_best():
    result = _result([_hits(200), _hits(196, offset=2), _hits(90)], [900, 400, 100])
    advice = recommend(result, "top5")
    record = advice.to_dict(result)["against_best"]
    assert advice.to_dict(result)["best"] == 0 and sorted(record) == ["1", "2"]  # the best itself left out
    assert record["1"]["separated"] is False and record["2"]["separated"] is True
    assert record["1"] == {**advice.against_best[1].to_dict(), "separated": False}
