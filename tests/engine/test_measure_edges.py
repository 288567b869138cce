"""The measures at their edges, read through what a user gets (the JSON of ``stats`` and
``sweep``, the labels of a comparison): a dangling opener's record names the token, two
split doc comments count two, every summary key is there with its value, and two settings
that differ in one field are told apart by that field."""

from __future__ import annotations

import json

from explorer.engine.api import iter_chunks
from explorer.engine.chunker import Span
from explorer.engine.measure.per_setting import setting_label, varied_fields
from explorer.engine.measure.problems import find_problems
from explorer.engine.measure.quality import measure_file, summarize
from explorer.engine.options import ChunkOptions
from explorer.engine.parse import parse_source
from explorer.engine.text import SourceText

TABLE = "import os\n\nTABLE = {\n    'a': 1,\n}\n\n\ndef f():\n    return TABLE\n"


def tiling(code: str, *needles: str) -> list[tuple[int, int]]:
    """Chunks that tile ``code``, cut just before each needle (ASCII sources)."""
    edges = [0, *(code.index(n) for n in needles), len(code.encode())]
    return list(zip(edges, edges[1:]))


def test_a_dangling_or_closing_problem_names_its_token_in_the_record() -> None:
    parsed = parse_source(SourceText(TABLE), "x.py")
    options = ChunkOptions(max_size=1000, context_mode="none")
    spans = [Span(a, b, None, None) for a, b in tiling(TABLE, "{\n", "}\n")]
    chunks = list(iter_chunks(parsed, options, spans=spans, total=len(spans)))
    records = json.loads(json.dumps(find_problems(parsed, chunks, options).to_dict()))["list"]
    tokens = {(r["kind"], r.get("token")) for r in records if r["kind"] in ("dangling", "closer")}
    assert ("dangling", "=") in tokens and ("closer", "}") in tokens
    # A problem with no token (a tiny chunk) has no token key.
    assert all("token" not in r for r in records if r["kind"] not in ("dangling", "closer"))


DOCS = ("x = 1\n\n# Adds one.\ndef f(a):\n    return a + 1\n\n\n"
        "# Adds two.\ndef g(a):\n    return a + 2\n\n\n# Adds three.\ndef h(a):\n    return a + 3\n")


def test_every_doc_comment_cut_off_its_definition_counts() -> None:
    parsed = parse_source(SourceText(DOCS), "x.py")
    two = measure_file(parsed, tiling(DOCS, "def f", "def g"))
    assert (two.doc_fit, two.doc_split) == (3, 2)
    three = measure_file(parsed, tiling(DOCS, "def f", "def g", "def h"))
    assert (three.doc_fit, three.doc_split) == (3, 3)
    assert three.to_dict()["definitions"]["docSplit"] == 3


def test_file_and_summary_records_carry_every_measure_under_its_name() -> None:
    parsed = parse_source(SourceText(TABLE), "x.py")
    metrics = measure_file(parsed, tiling(TABLE, "TABLE =", "def f"), max_size=1000)
    record = json.loads(json.dumps(metrics.to_dict()))
    assert record["nwsCovered"] == metrics.nws_covered == metrics.nws > 0  # the chunks tile the file
    overall = summarize([metrics]).overall
    data = json.loads(json.dumps(summarize([metrics]).to_dict()))["overall"]
    assert data["definitions"] == {"top": overall.top_fit, "any": overall.any_fit, "withDoc": overall.doc_fit}
    assert overall.top_fit >= 1
    for kind in ("stmt", "sibling", "token", "inner"):
        expected = overall.cut_pct(kind)
        assert data[f"{kind}Pct"] == (None if expected is None else round(expected, 3)), kind
    # A cut between two arguments is a sibling cut: the key holds a real share.
    call = "x = compute(first,\n            second)\n"
    sibling = summarize([measure_file(parse_source(SourceText(call), "x.py"), tiling(call, "second"))]).to_dict()
    assert sibling["overall"]["siblingPct"] == 100.0


def test_two_settings_that_differ_in_one_field_are_named_by_it() -> None:
    two = [ChunkOptions(max_size=500), ChunkOptions(max_size=500, overlap_lines=2)]
    assert varied_fields(two) == ["overlap_lines"]
    assert [setting_label(s, varied_fields(two), i) for i, s in enumerate(two)] == [
        "overlap_lines=0", "overlap_lines=2"]
    same = [ChunkOptions(max_size=500), ChunkOptions(max_size=500)]
    assert varied_fields(same) == [] and setting_label(same[1], [], 1) == "setting 2"
