"""The chunk quality measures on small hand-made chunkings.

Chunk lists are built by hand (byte ranges), so these tests do not depend on the
chunker's choices.
"""

from __future__ import annotations

import json

import pytest

from explorer.engine.kinds import definition_kinds
from explorer.engine.measure.quality import (
    classify_cut,
    cut_offsets,
    definition_spans,
    measure_file,
    percentile,
    summarize,
)
from explorer.engine.model import Chunk, Range
from explorer.engine.options import ChunkOptions
from explorer.engine.parse import parse_source
from explorer.engine.text import SourceText


def parse(code: str, path: str = "x.py"):
    return parse_source(SourceText(code), path)


def at(code: str, needle: str, shift: int = 0) -> int:
    """Byte offset of ``needle`` (ASCII test sources) plus ``shift``."""
    assert code.count(needle) == 1, needle
    return code.index(needle) + shift


def tiling(code: str, *cuts: int) -> list[tuple[int, int]]:
    """Chunks that tile the source, cut at the given byte offsets."""
    edges = [0, *cuts, len(code.encode())]
    return [(a, b) for a, b in zip(edges, edges[1:])]


def kind_at(code: str, offset: int, path: str = "x.py") -> str:
    parsed = parse(code, path)
    return classify_cut(parsed.source, parsed.root, offset).kind


PY = "import os\n\n\ndef f(alpha, beta):\n    x = compute(first,\n                second)\n    return x\n"
JS = "function g(a, b) {\n  foo(a,\n      b);\n  return b;\n}\n"


# -- cut classification ------------------------------------------------------------------
def test_cut_inside_an_identifier_is_token():
    assert kind_at(PY, at(PY, "alpha, beta", 2)) == "token"


def test_cut_inside_a_comment_or_string_is_token():
    code = "# a long comment here\nx = 'some string'\n"
    assert kind_at(code, at(code, "comment")) == "token"
    assert kind_at(code, at(code, "string")) == "token"


def test_cut_between_two_statements_is_stmt():
    assert kind_at(PY, at(PY, "def f")) == "stmt"  # module level
    assert kind_at(PY, at(PY, "return x")) == "stmt"  # inside a block
    assert kind_at(JS, at(JS, "return b"), "x.js") == "stmt"  # statement_block


def test_cut_between_two_arguments_is_sibling():
    assert kind_at(PY, at(PY, "second)")) == "sibling"
    assert kind_at(JS, at(JS, "b);"), "x.js") == "sibling"


def test_cut_between_signature_and_body_is_sibling():
    assert kind_at(PY, at(PY, "x = compute")) == "sibling"  # parameters | block


def test_cuts_next_to_brackets_and_keywords_are_inner():
    assert kind_at(JS, at(JS, "foo("), "x.js") == "inner"  # right after `{`
    assert kind_at(JS, at(JS, "}\n"), "x.js") == "inner"  # before `}`
    assert kind_at(PY, at(PY, "f(alpha")) == "inner"  # between `def` and its name


def test_cut_between_decorator_and_def_is_sibling():
    code = "@cache\ndef f():\n    return 1\n"
    assert kind_at(code, at(code, "def")) == "sibling"


def test_cut_offsets_skip_whitespace_drop_edges_and_dedupe():
    code = "  a = 1\n\n  b = 2\n  \n"
    data = code.encode()
    b = at(code, "b")
    # chunk 1 ends after "a = 1\n", chunk 2 starts at the blank line: one cut, at `b`
    spans = [(0, at(code, "\n\n") + 1), (at(code, "\n\n") + 1, len(data))]
    assert cut_offsets(data, spans) == [b]
    # a cut at the first non-whitespace character and at the trailing whitespace is a file edge
    assert cut_offsets(data, [(0, 2), (2, len(data) - 3), (len(data) - 3, len(data))]) == []


def test_midline_means_code_before_the_cut_on_its_line():
    parsed = parse(PY)
    assert classify_cut(parsed.source, parsed.root, at(PY, "second)")).midline is False
    assert classify_cut(parsed.source, parsed.root, at(PY, "beta):")).midline is True
    assert classify_cut(parsed.source, parsed.root, at(PY, "return x")).midline is False


def test_measure_file_counts_each_cut_kind():
    cuts = [at(PY, "alpha, beta", 2), at(PY, "def f"), at(PY, "second)"), at(PY, "f(alpha")]
    m = measure_file(parse(PY), tiling(PY, *sorted(cuts)))
    assert m.cut_counts() == {"token": 1, "stmt": 1, "sibling": 1, "inner": 1}
    summary = summarize([m]).overall
    assert summary.clean_pct == 50.0
    assert summary.cut_pct("token") == 25.0


def test_token_cut_inside_an_oversized_token_is_marked():
    code = "x = '" + "a" * 200 + "'\ny = 1\n"
    parsed = parse(code)
    inside = at(code, "x = '", 100)
    cut = classify_cut(parsed.source, parsed.root, inside, max_size=50)
    assert cut.kind == "token" and cut.oversized_token
    small = classify_cut(parsed.source, parsed.root, inside, max_size=5000)
    assert small.kind == "token" and not small.oversized_token


# -- sizes, exactness, coverage ---------------------------------------------------------
def test_over_tiny_exact_and_coverage():
    code = "a_b = 1\n" * 30  # 5 nws and 8 bytes per line
    m = measure_file(parse(code), tiling(code, 8 * 10, 8 * 12), max_size=40)
    assert m.sizes == [50, 10, 90]
    assert m.over == 2  # 50 and 90 exceed 40
    assert m.tiny == 1  # 10 nws < 50 (50 itself is not tiny)
    assert m.exact
    assert m.nws_covered == m.nws == 150


def test_a_missing_piece_is_not_exact_and_lowers_coverage():
    code = "a_b = 1\n" * 10
    m = measure_file(parse(code), [(0, 16), (24, len(code))])
    assert not m.exact
    assert m.nws_covered == 45
    assert summarize([m]).overall.coverage_pct == pytest.approx(90.0)


def test_wrong_chunk_text_is_not_exact():
    code = "a = 1\nb = 2\n"
    good = measure_file(parse(code), [(0, 6, "a = 1\n"), (6, 12, "b = 2\n")])
    bad = measure_file(parse(code), [(0, 6, "a = 1\n"), (6, 12, "b =  2\n")])
    assert good.exact and not bad.exact


def test_whitespace_only_file_without_chunks_is_exact():
    assert measure_file(parse("  \n\n"), []).exact


def test_size_unit_comes_from_the_options():
    code = "a = 1\n" * 4
    m = measure_file(parse(code), tiling(code, 12), ChunkOptions(max_size=1, size_unit="lines"))
    assert m.sizes == [2, 2] and m.over == 2
    m = measure_file(parse(code), tiling(code, 12), ChunkOptions(size_unit="chars"))
    assert m.sizes == [12, 12] and m.over == 0


def test_sizes_count_code_points_not_bytes():
    code = "s = 'ééé'\n"
    m = measure_file(parse(code), tiling(code))
    assert m.sizes == [7] and m.bytes == 13
    assert m.exact


def test_chunk_objects_are_accepted():
    code = "a = 1\nb = 2\n"
    chunks = [
        Chunk(text=t, contextualized_text=t, byte_range=Range(s, e), char_range=Range(s, e),
              line_range=Range(i, i), size=3, size_unit="nws", nws=3, index=i, total_chunks=2)
        for i, (s, e, t) in enumerate([(0, 6, "a = 1\n"), (6, 12, "b = 2\n")])
    ]
    m = measure_file(parse(code), chunks)
    assert m.exact and m.chunks == 2
    assert [c.kind for c in m.cuts] == ["stmt"]


def test_file_without_tree_has_no_cut_classification():
    code = "some words\nmore words\n"
    parsed = parse(code, "notes.unknownext")
    assert parsed.tree is None
    m = measure_file(parsed, tiling(code, 11))
    assert m.exact and m.cuts == [] and not m.has_tree
    assert summarize([m]).overall.files_without_tree == 1
    assert summarize([m]).overall.clean_pct is None


# -- definitions split across chunks -----------------------------------------------------
TWO_DEFS = "def f(a):\n    return a + 1\n\n\ndef g(b):\n    return b * 2\n"


def test_a_function_split_across_two_chunks_is_split_top():
    m = measure_file(parse(TWO_DEFS), tiling(TWO_DEFS, at(TWO_DEFS, "return b")))
    assert (m.top_fit, m.top_split) == (2, 1)
    assert summarize([m]).overall.split_top_pct == 50.0
    (split,) = m.splits
    assert split.what == "top" and split.kind == "function_definition" and split.line == 4


def test_cutting_between_functions_splits_nothing():
    m = measure_file(parse(TWO_DEFS), tiling(TWO_DEFS, at(TWO_DEFS, "def g")))
    assert (m.top_fit, m.top_split, m.any_split) == (2, 0, 0)


def test_a_function_that_does_not_fit_is_not_counted():
    m = measure_file(parse(TWO_DEFS), tiling(TWO_DEFS, at(TWO_DEFS, "return b")), max_size=10)
    assert (m.top_fit, m.top_split) == (0, 0)


def test_decorators_belong_to_the_definition():
    code = "x = 1\n\n@cache\n@other(1)\ndef f():\n    return 1\n"
    m = measure_file(parse(code), tiling(code, at(code, "@other")))
    assert (m.top_fit, m.top_split) == (1, 1)
    (start, end, kind, top), = definition_spans(parse(code).root, "python")
    assert start == at(code, "@cache") and end == len(code) - 1 and top


def test_export_wrapper_belongs_to_the_definition():
    code = "const a = 1;\nexport function f(x) {\n  return x;\n}\n"
    m = measure_file(parse(code, "x.js"), tiling(code, at(code, "function f")))
    assert (m.top_fit, m.top_split) == (1, 1)


def test_split_any_counts_nested_definitions_split_top_does_not():
    code = (
        "class A:\n"
        "    def one(self):\n        return 1111111111\n\n"
        "    def two(self):\n        return 2222222222\n"
    )
    # the class (about 60 nws) does not fit in 40; each method does
    m = measure_file(parse(code), tiling(code, at(code, "return 2222")), max_size=40)
    assert (m.top_fit, m.top_split) == (0, 0)
    assert (m.any_fit, m.any_split) == (2, 1)
    assert m.splits[0].what == "nested"


def test_rust_attributes_and_c_bodyless_structs():
    rust = "use std::io;\n\n#[derive(Debug)]\nstruct P {\n    x: i32,\n}\n"
    m = measure_file(parse(rust, "x.rs"), tiling(rust, at(rust, "struct P")))
    assert (m.top_fit, m.top_split) == (1, 1)  # the attribute was cut off its struct
    c = "struct s *p;\nstruct t { int x; };\n"
    kinds = [d[2] for d in definition_spans(parse(c, "x.c").root, "c")]
    assert kinds == ["struct_specifier"]  # only the one with a body


def test_generic_definition_kinds_for_languages_outside_the_table():
    assert {"method", "class"} <= definition_kinds("ruby")
    assert "anonymous_function" not in definition_kinds("php")
    code = "class A\n  def one\n    1\n  end\nend\n"
    m = measure_file(parse(code, "x.rb"), tiling(code, at(code, "1\n")))
    assert m.top_split == 1 and m.any_split == 2


# -- doc comments ------------------------------------------------------------------------
DOC = "x = 1\n\n# Adds one.\n# Really.\ndef f(a):\n    return a + 1\n"


def test_comment_cut_off_its_definition_is_doc_split():
    m = measure_file(parse(DOC), tiling(DOC, at(DOC, "def f")))
    assert (m.doc_fit, m.doc_split) == (1, 1)
    assert m.top_split == 0  # the definition itself is whole
    assert summarize([m]).overall.doc_split_pct == 100.0
    doc = [s for s in m.splits if s.what == "doc"][0]
    assert doc.start == at(DOC, "# Adds")


def test_cut_inside_the_comment_block_is_doc_split():
    m = measure_file(parse(DOC), tiling(DOC, at(DOC, "# Really")))
    assert (m.doc_fit, m.doc_split) == (1, 1)


def test_comment_kept_with_its_definition_is_not_split():
    m = measure_file(parse(DOC), tiling(DOC, at(DOC, "# Adds")))
    assert (m.doc_fit, m.doc_split) == (1, 0)


def test_blank_line_or_trailing_comment_is_not_a_doc_comment():
    blank = "x = 1\n# About f.\n\ndef f(a):\n    return a\n"
    assert measure_file(parse(blank), tiling(blank, at(blank, "def"))).doc_fit == 0
    trailing = "x = 1  # about x\ndef f(a):\n    return a\n"
    assert measure_file(parse(trailing), tiling(trailing, at(trailing, "def"))).doc_fit == 0


def test_rust_doc_comment_above_attribute():
    code = "use std::io;\n\n/// A point.\n#[derive(Debug)]\nstruct P {\n    x: i32,\n}\n"
    kept = measure_file(parse(code, "x.rs"), tiling(code, at(code, "/// A")))
    assert (kept.doc_fit, kept.doc_split) == (1, 0)
    split = measure_file(parse(code, "x.rs"), tiling(code, at(code, "#[derive")))
    assert (split.doc_fit, split.doc_split) == (1, 1)


def test_doc_block_that_does_not_fit_is_not_counted():
    m = measure_file(parse(DOC), tiling(DOC, at(DOC, "def f")), max_size=17)
    assert m.doc_fit == 0  # comment + def is 31 nws
    assert m.top_fit == 1  # the def alone (17 nws) fits


# -- deep nesting ------------------------------------------------------------------------
def test_ten_thousand_deep_nesting_needs_no_recursion():
    depth = 10_000
    code = "x = " + "[" * depth + "1" + "]" * depth + "\ny = 2\n"
    m = measure_file(parse(code), tiling(code, at(code, "1]"), at(code, "y = 2")))
    kinds = {c.offset: c.kind for c in m.cuts}
    assert kinds[at(code, "1]")] == "inner"  # right after the innermost `[`
    assert kinds[at(code, "y = 2")] == "stmt"


# -- summaries ---------------------------------------------------------------------------
def test_percentile_is_nearest_rank():
    assert percentile(list(range(1, 101)), 95) == 95
    assert percentile([7], 95) == 7
    assert percentile([], 95) is None


def test_summary_pools_counts_per_language_and_overall():
    py = measure_file(parse(TWO_DEFS), tiling(TWO_DEFS, at(TWO_DEFS, "return b")), seconds={"chunk": 0.5})
    js = measure_file(parse(JS, "x.js"), tiling(JS, at(JS, "return b")), seconds={"chunk": 0.25, "parse": 0.1})
    summary = summarize([py, js])
    assert list(summary.languages) == ["javascript", "python"]
    overall = summary.overall
    assert overall.files == 2 and overall.chunks == 4
    assert overall.top_fit == 3 and overall.top_split == 2  # g in each file
    assert overall.split_top_pct == pytest.approx(200 / 3)
    expected = (len(TWO_DEFS) + len(JS)) / 1e6 / 0.75
    assert overall.throughput()["chunk"] == pytest.approx(expected)
    assert overall.throughput()["parse"] == pytest.approx(len(JS) / 1e6 / 0.1)
    sizes = sorted(py.sizes + js.sizes)
    stats = overall.size_stats()
    assert (stats["min"], stats["max"]) == (sizes[0], sizes[-1])
    data = json.loads(json.dumps(summary.to_dict()))
    assert data["overall"]["splitTopPct"] == pytest.approx(66.667)
    assert data["languages"]["python"]["chunks"] == 2
    assert data["sizeUnit"] == "nws" and data["maxSize"] == 1500


def test_empty_summary_has_no_percentages():
    summary = summarize([])
    assert summary.overall.over_pct is None and summary.overall.clean_pct is None
    assert summary.to_dict()["overall"]["size"] == {"min": None, "median": None, "p95": None, "max": None}


def test_line_baseline_chunks_are_judged_against_the_ast():
    code = "def f(a):\n    return a\n\n\ndef g(b):\n    return b\n"
    ast_parse = parse(code)
    lines_parse = parse_source(SourceText(code), "x.py", strategy="lines")
    spans = tiling(code, at(code, "    return b"))
    assert measure_file(lines_parse, spans).cuts == []  # no tree: nothing to judge by
    m = measure_file(ast_parse, spans)
    assert [c.kind for c in m.cuts] == ["sibling"] and m.top_split == 1
