"""Every size or count limit of the engine, checked at the limit, one below and one above.

An off-by-one here is a behaviour a user sees (a header that says "+0 more", a chunk one
character over the limit, a comment glued to the wrong function), and no oracle catches it:
each case states the exact expected result.
"""

from __future__ import annotations

import pytest

from explorer.engine.api import chunk, chunk_parsed, parse
from explorer.engine.context import MAX_DEFINES, MAX_SCOPE, MAX_USES
from explorer.engine.measure.quality import TINY_NWS, measure_file
from explorer.engine.options import ChunkOptions
from explorer.engine.parse import MAX_NAMED_ERRORS
from explorer.engine.retrieval.queries import DEFAULT_MIN_WORDS, doc_queries
from explorer.engine.structure import extract_structure
from explorer.engine.structure.docstrings import MAX_BLOCK_LINES
from explorer.engine.structure.signatures import MAX_SIGNATURE


def texts(code: str, **options) -> list[str]:
    return [c.text for c in chunk("a.py", code, **options)]


def header(code: str, name: str = "a.py", **options) -> list[str]:
    """The header lines of the first chunk's contextualized text."""
    first = chunk(name, code, **options)[0]
    return first.contextualized_text[: -len(first.text)].splitlines()


# -- a comment block set apart by a blank line ------------------------------------------------

SECTION = "import os\n\n\n# Section: helpers.{gap}def f(x):\n    return x + 1\n\n\ndef g(y):\n    return y * 2\n"


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_a_comment_set_apart_by_one_blank_line_stands_alone(newline):
    """Two line breaks between a comment and a definition (one blank line) are the limit:
    the comment is a section heading, packed with what comes before, not glued to ``f``."""
    code = SECTION.format(gap="\n\n").replace("\n", newline)
    nl = newline
    assert texts(code, max_size=40) == [
        f"import os{nl}{nl}{nl}# Section: helpers.{nl}{nl}",
        f"def f(x):{nl}    return x + 1{nl}{nl}{nl}def g(y):{nl}    return y * 2{nl}",
    ]


def test_a_comment_set_apart_by_two_blank_lines_stands_alone_too():
    code = SECTION.format(gap="\n\n\n")
    assert texts(code, max_size=40)[0] == "import os\n\n\n# Section: helpers.\n\n\n"


def test_a_comment_right_above_a_definition_stays_with_it():
    code = SECTION.format(gap="\n")
    assert texts(code, max_size=40) == [
        "import os\n\n\n",
        "# Section: helpers.\ndef f(x):\n    return x + 1\n\n\n",
        "def g(y):\n    return y * 2\n",
    ]


# -- header lists: Defines and Uses -------------------------------------------------------------


@pytest.mark.parametrize("count", [MAX_DEFINES - 1, MAX_DEFINES, MAX_DEFINES + 1])
def test_defines_lists_up_to_the_limit_then_counts_the_rest(count):
    code = "".join(f"def f{i}(x):\n    return x\n\n" for i in range(count))
    defines = [line for line in header(code, max_size=10_000) if line.startswith("# Defines: ")]
    listed = ", ".join(f"def f{i}(x)" for i in range(min(count, MAX_DEFINES)))
    expected = listed if count <= MAX_DEFINES else f"{listed}, … (+{count - MAX_DEFINES} more)"
    assert defines == [f"# Defines: {expected}"]


@pytest.mark.parametrize("count", [MAX_USES - 1, MAX_USES, MAX_USES + 1])
def test_uses_lists_up_to_the_limit_then_counts_the_rest(count):
    names = [f"m{i}" for i in range(count)]
    code = "".join(f"import {n}\n" for n in names) + "\n\ndef f():\n    return " + " + ".join(f"{n}.x" for n in names) + "\n"
    chunks = chunk("a.py", code, max_size=10_000)
    assert len(chunks) == 1
    uses = [line for line in header(code, max_size=10_000) if line.startswith("# Uses: ")]
    listed = ", ".join(names[:MAX_USES])
    expected = listed if count <= MAX_USES else f"{listed}, … (+{count - MAX_USES} more)"
    assert uses == [f"# Uses: {expected}"]


@pytest.mark.parametrize("max_siblings", [0, 2, 3, 4])
def test_max_siblings_names_at_most_that_many_on_each_side(max_siblings):
    """Three functions on each side of the middle one: the limit at, below and above 3."""
    code = "".join(f"def f{i}():\n    return {i}\n\n\n" for i in range(7))
    middle = chunk("a.py", code, max_size=16, max_siblings=max_siblings)[3]
    assert middle.text.startswith("def f3")
    siblings = sorted(middle.context["siblings"], key=lambda s: s["distance"])
    before = [s["name"] for s in siblings if s["position"] == "before"]
    after = [s["name"] for s in siblings if s["position"] == "after"]
    assert before == ["f2", "f1", "f0"][:max_siblings]
    assert after == ["f4", "f5", "f6"][:max_siblings]


# -- a chunk ending exactly where its scope ends ------------------------------------------------


def test_a_chunk_ending_exactly_where_its_class_ends_has_the_class_as_scope():
    """No trailing newline: the last chunk's end is the class's end, and the class still
    contains it (the class is its scope, not a partial entity)."""
    code = "class Box:\n    def a(self):\n        return 1\n\n    def b(self):\n        return 2"
    last = chunk("a.py", code, max_size=25)[-1]
    assert last.text == "    def b(self):\n        return 2"
    assert [e["name"] for e in last.context["scope"]] == ["Box"]
    assert [(e["name"], e["isPartial"]) for e in last.context["entities"]] == [("b", False)]
    assert "# Scope: Box" in last.contextualized_text.splitlines()


def test_a_chunk_that_is_the_whole_class_has_no_scope():
    code = "class Box:\n    def a(self):\n        return 1"
    only = chunk("a.py", code, max_size=1000)
    assert len(only) == 1
    assert only[0].context["scope"] == []
    assert [(e["name"], e["isPartial"]) for e in only[0].context["entities"]] == [("Box", False), ("a", False)]


# -- max_size ------------------------------------------------------------------------------------


@pytest.mark.parametrize("unit", ["nws", "chars", "lines"])
def test_two_pieces_merge_exactly_at_max_size_and_split_one_below(unit):
    code = "def f():\n    return 1\n\n\ndef g():\n    return 2\n"
    whole = chunk("a.py", code, max_size=100_000, size_unit=unit)[0].size
    assert len(chunk("a.py", code, max_size=whole, size_unit=unit)) == 1
    assert len(chunk("a.py", code, max_size=whole + 1, size_unit=unit)) == 1
    below = chunk("a.py", code, max_size=whole - 1, size_unit=unit)
    assert len(below) == 2
    assert all(c.size <= whole - 1 for c in below)


@pytest.mark.parametrize("limit", [1, 2, 5])
def test_no_chunk_is_over_max_size_even_for_one_long_token(limit):
    code = "x = 'abcdefghijklmnopqrstuvwxyz'\n"
    chunks = chunk("a.py", code, max_size=limit)
    assert all(c.size <= limit for c in chunks)
    assert "".join(c.text for c in chunks) == code


# -- overlap_lines -------------------------------------------------------------------------------


@pytest.mark.parametrize("overlap", [0, 1, 2, 3])
def test_overlap_repeats_exactly_that_many_lines_of_the_previous_chunk(overlap):
    code = "def f():\n    a = 1\n    return a\n\n\ndef g():\n    return 2\n"
    second = chunk("a.py", code, max_size=20, overlap_lines=overlap)[1]
    previous_lines = ["def f():", "    a = 1", "    return a", "", ""]
    expected = "\n".join(previous_lines[-overlap:]) + "\n" if overlap else ""
    assert second.overlap_text == expected


# -- signatures, parse errors, tiny chunks -------------------------------------------------------


@pytest.mark.parametrize("extra", [-1, 0, 1])
def test_a_signature_is_kept_whole_up_to_its_limit(extra):
    parameter = "p" * (MAX_SIGNATURE - len("def f()") + extra)
    code = f"def f({parameter}):\n    return 1\n"
    signature = chunk("a.py", code)[0].context["entities"][0]["signature"]
    if extra <= 0:
        assert signature == f"def f({parameter})"
    else:
        assert signature == f"def f({parameter})"[: MAX_SIGNATURE - 1] + "…"


@pytest.mark.parametrize("errors", [MAX_NAMED_ERRORS - 1, MAX_NAMED_ERRORS, MAX_NAMED_ERRORS + 1])
def test_a_parse_error_names_up_to_the_limit_then_counts_the_rest(errors):
    code = "".join(f"def f{i}(:\n    pass\n\n" if i < errors else f"def f{i}():\n    pass\n\n" for i in range(errors + 2))
    message = chunk("a.py", code)[0].context["parseError"]["message"]
    named = "; ".join(f"MISSING at line {3 * i + 1}, column 8" for i in range(min(errors, MAX_NAMED_ERRORS)))
    more = errors - MAX_NAMED_ERRORS
    assert message == (named + f"; ... and {more} more" if more > 0 else named)


@pytest.mark.parametrize("nws", [TINY_NWS - 1, TINY_NWS, TINY_NWS + 1])
def test_a_chunk_is_tiny_below_the_tiny_threshold_only(nws):
    code = "x = '" + "y" * (nws - 4) + "'\n"  # x='...' : nws non-whitespace characters
    options = ChunkOptions(max_size=10_000)
    parsed = parse("a.py", code, options)
    chunks = chunk_parsed(parsed, options)
    assert [c.nws for c in chunks] == [nws]
    assert measure_file(parsed, chunks, options).tiny == (1 if nws < TINY_NWS else 0)


# -- doc queries: the minimum number of words ----------------------------------------------------


@pytest.mark.parametrize("words", [DEFAULT_MIN_WORDS - 1, DEFAULT_MIN_WORDS, DEFAULT_MIN_WORDS + 1])
def test_a_doc_gives_a_query_from_the_minimum_number_of_words(words):
    doc = " ".join(f"word{i}" for i in range(words))
    code = f'def f():\n    """{doc}"""\n    return 1\n'
    options = ChunkOptions()
    parsed = parse("a.py", code, options)
    drafts, edits = doc_queries(extract_structure(parsed))
    if words < DEFAULT_MIN_WORDS:
        assert (drafts, edits) == ([], [])
    else:
        assert [d.text for d in drafts] == [doc]
        assert len(edits) == 1


# -- scope chains: cut to the innermost MAX_SCOPE ------------------------------------------------


@pytest.mark.parametrize("depth", [MAX_SCOPE - 1, MAX_SCOPE, MAX_SCOPE + 1])
def test_a_scope_chain_keeps_the_innermost_entities_up_to_the_limit(depth):
    code = "".join("    " * i + f"class C{i}:\n" for i in range(depth)) + "    " * depth + "x = 1"  # no newline:
    # the last chunk ends where every class ends, so each one contains it
    last = chunk("a.py", code, max_size=5)[-1]
    assert last.text.strip() == "x = 1"
    names = [e["name"] for e in last.context["scope"]]
    assert names == [f"C{i}" for i in reversed(range(depth))][:MAX_SCOPE]


# -- line endings: a lone CR is a line break like LF ---------------------------------------------

CR_SOURCE = "class A:\n    x = 1  # c\n\n    y = [\n        1,\n    ]\n    def g(self):\n        return 2\n"


@pytest.mark.parametrize("unit", ["chars", "nws"])
@pytest.mark.parametrize("max_size", [4, 8, 12, 16, 24])
def test_a_file_with_lone_cr_line_breaks_is_cut_where_its_lf_twin_is(unit, max_size):
    """Old Mac line endings: every cut that falls on a line break in the LF file falls on
    the same line break (the chunk after it starting at the line start) in the CR file."""
    lf = [c.text for c in chunk("a.py", CR_SOURCE, max_size=max_size, size_unit=unit)]
    cr = [c.text for c in chunk("a.py", CR_SOURCE.replace("\n", "\r"), max_size=max_size, size_unit=unit)]
    assert [t.replace("\r", "\n") for t in cr] == lf


# -- doc comments: a block comment is looked for up to MAX_BLOCK_LINES lines above -----------


@pytest.mark.parametrize("closer_row", [MAX_BLOCK_LINES - 1, MAX_BLOCK_LINES, MAX_BLOCK_LINES + 1])
def test_a_block_doc_comment_is_found_up_to_its_line_limit(closer_row):
    """The opener on row 0, the closer on ``closer_row``: found while they are at most
    MAX_BLOCK_LINES lines apart."""
    body = "".join(f" * line {i}\n" for i in range(1, closer_row))
    code = "/**\n" + body + " */\nfunction f() {\n  return 1;\n}\n"
    structure = extract_structure(parse("a.js", code, ChunkOptions()))
    doc = next(e.docstring for e in structure.entities if e.name == "f")
    if closer_row <= MAX_BLOCK_LINES:
        assert doc is not None and doc.startswith("line 1")
    else:
        assert doc is None


# -- a token longer than max_size: cut into parts as large as the limit allows --------------------


@pytest.mark.parametrize("unit", ["chars", "nws"])
@pytest.mark.parametrize("limit", [2, 3, 7, 10])
@pytest.mark.parametrize("letter", ["a", "é", "中", "😀"])
def test_a_long_token_is_cut_into_parts_of_exactly_max_size(unit, limit, letter):
    token = letter * 40
    chunks = chunk("a.txt", token, max_size=limit, size_unit=unit, strategy="lines")
    assert "".join(c.text for c in chunks) == token
    assert [len(c.text) for c in chunks] == [limit] * (40 // limit) + ([40 % limit] if 40 % limit else [])


# -- a cut inside a line moves back to the line start when the sizes allow ------------------------


@pytest.mark.parametrize("max_size", [50, 60, 68])
def test_a_line_cut_after_its_header_moves_back_to_the_line_start(max_size):
    """`for shelf, items in` alone at the end of a chunk would leave the loop's call to
    the next one: the whole line moves to the next chunk instead."""
    code = ("def report(self):\n    lines = []\n    for shelf, items in sorted(self.shelves.items()):\n"
            "        lines.append(f'{shelf}: {len(items)}')\n    return lines\n")
    texts_ = [c.text for c in chunk("a.py", code, max_size=max_size)]
    assert texts_[:2] == ["def report(self):\n    lines = []\n",
                          "    for shelf, items in sorted(self.shelves.items()):\n" + texts_[1].split("\n", 1)[1]]
    assert all(t.endswith("\n") for t in texts_)  # every chunk ends at a line end


def test_a_block_comment_header_is_never_closed_early_by_the_path():
    """A path holding "*/" is written "* /" inside a `/* ... */` header line."""
    first = chunk("styles*/site.css", "a { color: red; }\n")[0]
    assert first.contextualized_text.splitlines()[0] == "/* styles* /site.css */"
