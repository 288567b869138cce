"""The engine's invariants (docs/engine.md, Guarantees), on real code and on generated input.

1. Lossless: the chunk texts rebuild the source; every range slices to the text.
2. Never over the limit, in any unit; sizes agree with an independent count.
3. Clean cuts: definitions that fit stay whole, with the comment above them; no
   lone closing brackets; cuts between lines fall at line starts.
4. Line, char and byte ranges agree (non-ASCII, CRLF, lone CR, tabs, BOM).
5. Deterministic; streaming gives the same chunks.

``check`` (conftest.py) asserts 1, 2 and 4 for one chunking from the source alone.
"""

from __future__ import annotations

import glob
from bisect import bisect_right
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import explorer
from explorer.engine.languages import get_parser
from explorer.engine.text import SourceText
from explorer.samples import list_samples

HERE = Path(__file__).resolve().parent
FIXTURES = HERE.parent / "fixtures"

PROPERTY = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _real_files() -> list[Path]:
    """Real code in many languages: our fixtures (non-ASCII, long docstrings and
    minified lines), the shipped samples, the structure fixtures and the fixed corpus of
    real files (CPython, Git, semver, RxJS: tests/fixtures/real/NOTICE.md)."""
    files = sorted((FIXTURES / "engine").iterdir())
    files += [Path(s.path) for s in list_samples()]
    files += sorted(Path(p) for p in glob.glob(str(FIXTURES / "structure" / "*")))
    files += sorted(p for p in (FIXTURES / "real").iterdir() if not p.name.startswith(("LICENSE", "NOTICE")))
    return [f for f in files if f.is_file()]


REAL_FILES = _real_files()
SMALL_REAL = [f for f in REAL_FILES if f.stat().st_size < 30_000]


@cache
def read(path: Path) -> str:
    return path.read_bytes().decode("utf-8")


def _id(path: Path) -> str:
    return f"{path.parent.name}/{path.name}"


# Line-ending and encoding variants of a source: every invariant must hold on each.
VARIANTS = {
    "crlf": lambda s: s.replace("\r\n", "\n").replace("\n", "\r\n"),
    "cr": lambda s: s.replace("\r\n", "\n").replace("\n", "\r"),
    "bom-crlf-tabs": lambda s: "\ufeff" + s.replace("\n", "\r\n").replace("    ", "\t"),
}

OPTION_SETS = [
    {"max_size": 1500},
    {"max_size": 300, "context_mode": "none"},
    {"max_size": 40, "context_mode": "none"},
    {"max_size": 1200, "size_unit": "chars", "overlap_lines": 2},
    {"max_size": 25, "size_unit": "chars", "context_mode": "none"},
    {"max_size": 30, "size_unit": "lines", "overlap_lines": 1},
    {"max_size": 1, "size_unit": "lines", "context_mode": "none"},
]
#: The smallest limits make a chunk per character: only on small files.
TINY_OPTION_SETS = [{"max_size": 1, "context_mode": "none"}, {"max_size": 1, "size_unit": "chars", "context_mode": "none"}]
TINY_FILE = 2_500
BIG_FILE = 40_000  # the large stdlib modules: the cheaper limits only


def checked(options: dict) -> dict:
    """The options ``check`` needs to know about."""
    return {k: v for k, v in options.items() if k in ("max_size", "size_unit", "overlap_lines", "context_mode")}


def chunk_and_check(check, path: str | None, code: str | bytes, **options):
    chunks = explorer.chunk(path, code, **options)
    check(code, chunks, **checked(options))
    return chunks


# -- 1, 2, 4 on real code -----------------------------------------------------------------


def test_real_files_span_many_languages():
    languages = {explorer.detect_language(f.name, f.read_bytes()[:256]) for f in REAL_FILES}
    assert {"python", "typescript", "tsx", "javascript", "rust", "go", "java", "c", "cpp", "markdown", "json", "bash"} <= languages


@pytest.mark.parametrize("path", REAL_FILES, ids=_id)
def test_invariants_on_real_code(path, check):
    code = read(path)
    option_sets = OPTION_SETS if len(code) < BIG_FILE else OPTION_SETS[:2] + OPTION_SETS[3:4] + OPTION_SETS[5:6]
    for options in option_sets + (TINY_OPTION_SETS if len(code) < TINY_FILE else []):
        chunks = chunk_and_check(check, str(path), code, **options)
        assert chunks[0].strategy == "ast", f"{path.name} should parse"
    chunk_and_check(check, str(path), code.encode("utf-8"), max_size=300, context_mode="none")


@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize("path", SMALL_REAL, ids=_id)
def test_invariants_on_line_ending_and_bom_variants(path, variant, check):
    code = VARIANTS[variant](read(path))
    for options in ({"max_size": 200}, {"max_size": 400, "size_unit": "chars"}, {"max_size": 8, "size_unit": "lines"}):
        chunk_and_check(check, str(path), code, **options)


# -- 3. clean cuts on real code -------------------------------------------------------------

#: Node kinds that are definitions (across the grammars of REAL_FILES).
DEFINITIONS = frozenset({
    "function_definition", "class_definition", "decorated_definition",  # python, c, cpp, php, scala
    "function_declaration", "generator_function_declaration", "class_declaration", "method_definition",
    "interface_declaration", "enum_declaration", "abstract_class_declaration",  # js, ts, java, c#, kotlin, swift
    "method_declaration", "constructor_declaration", "type_declaration", "record_declaration",  # go, java, c#
    "function_item", "struct_item", "enum_item", "impl_item", "trait_item", "mod_item",  # rust
    "struct_specifier", "class_specifier",  # c, cpp
    "method", "class", "module", "singleton_method",  # ruby
    "object_definition", "trait_definition", "protocol_declaration", "object_declaration",  # scala, swift, kotlin
})

#: Kinds that sit between a doc comment and its definition (decorators, attributes).
BETWEEN_DOC_AND_DEFINITION = frozenset({"attribute_item", "decorator", "annotation", "marker_annotation", "attribute_list"})

CUT_OPTIONS = [
    {"max_size": 1500}, {"max_size": 400}, {"max_size": 120},
    {"max_size": 2000, "size_unit": "chars"}, {"max_size": 500, "size_unit": "chars"},
    {"max_size": 60, "size_unit": "lines"}, {"max_size": 15, "size_unit": "lines"},
]


def _walk(root):
    stack = [root]  # no recursion over trees
    while stack:
        node = stack.pop()
        yield node
        stack.extend(node.children)


def _whole_lines(src: SourceText, start: int, end: int) -> tuple[int, int]:
    """The lines a byte range touches, from the first line's start (indentation
    included) to the end of the last line (its line break included)."""
    first, last = src.line_range(start, end)
    return src.line_start(first), src.line_end(last)


def _holder(chunks, starts: list[int], start: int):
    return chunks[bisect_right(starts, start) - 1]


@cache
def parsed_real(path: Path, crlf: bool = False):
    text = read(path)
    data = VARIANTS["crlf"](text).encode("utf-8") if crlf else text.encode("utf-8")
    language = explorer.detect_language(path.name, data[:256])
    return SourceText(data), get_parser(language).parse(data).root_node


def _doc_pairs(src: SourceText, root) -> list[tuple[int, int]]:
    """(comment start, definition end) for each definition with a comment block directly
    above it: comments that start their line, no blank line between, attributes allowed."""
    pairs = []
    for node in _walk(root):
        if node.type not in DEFINITIONS:
            continue
        first_comment, below, prev = None, node, node.prev_sibling
        while prev is not None and ("comment" in prev.type or prev.type in BETWEEN_DOC_AND_DEFINITION):
            if below.start_point[0] - prev.end_point[0] > 1:
                break  # a blank line: not directly above
            if "comment" in prev.type:
                line = src.line_of(prev.start_byte)
                if src.data[src.line_start(line) : prev.start_byte].strip():
                    break  # a trailing comment of the line above, not a doc comment
                first_comment = prev
            below, prev = prev, prev.prev_sibling
        if first_comment is not None:
            pairs.append((first_comment.start_byte, node.end_byte))
    return pairs


@pytest.mark.parametrize(
    ("path", "crlf"),
    [(p, False) for p in REAL_FILES] + [(p, True) for p in SMALL_REAL],
    ids=[_id(p) for p in REAL_FILES] + [_id(p) + "-crlf" for p in SMALL_REAL],
)
def test_definitions_that_fit_stay_whole_with_the_comment_above(path, crlf):
    """A definition whose lines fit in the limit is in one chunk; so is a comment block
    directly above it together with it, when comment and definition fit together."""
    src, root = parsed_real(path, crlf)
    definitions = [(n.start_byte, n.end_byte, f"{n.type} at line {n.start_point[0] + 1}") for n in _walk(root) if n.type in DEFINITIONS]
    commented = [(start, end, f"the comment at line {src.line_of(start) + 1} and its definition") for start, end in _doc_pairs(src, root)]
    checked = 0
    for options in CUT_OPTIONS:
        unit, limit = options.get("size_unit", "nws"), options["max_size"]
        chunks = explorer.chunk(str(path), src.data, context_mode="none", **options)
        starts = [c.byte_range.start for c in chunks]
        for start, end, what in definitions + commented:
            if src.sizer(unit)(*_whole_lines(src, start, end)) > limit:
                continue
            checked += 1
            holder = _holder(chunks, starts, start)
            assert holder.byte_range.end >= end, f"{path.name}: {what} fit {options} but are split"
    assert checked or not definitions


def test_doc_pairs_are_found_in_the_fixtures():
    # The comment check above must have something to check in several languages.
    found = {p.suffix for p in REAL_FILES if _doc_pairs(*parsed_real(p))}
    assert {".py", ".ts", ".rs", ".go", ".java"} <= found


CLOSERS = set("}])>;,") | {"end", "fi", "done", "esac"}


@pytest.mark.parametrize("path", REAL_FILES, ids=_id)
def test_no_lone_closing_brackets_and_cuts_between_lines_start_lines(path):
    code = read(path)
    for options in ({"max_size": 1500}, {"max_size": 300}, {"max_size": 100}, {"max_size": 800, "size_unit": "chars"}):
        chunks = explorer.chunk(str(path), code, context_mode="none", **options)
        for c in chunks:
            words = c.text.split()
            assert not (words and all(w in CLOSERS or set(w) <= CLOSERS for w in words)), (
                f"{path.name} {options}: fragment chunk {c.index} {c.text!r}"
            )
        for left, right in zip(chunks, chunks[1:]):
            if right.split_start == "char":
                continue
            cut = right.char_range.start
            before, after = left.text.rstrip(" \t\r\n\x0b\x0c"), right.text.lstrip(" \t\r\n\x0b\x0c")
            between = left.text[len(before) :] + right.text[: len(right.text) - len(after)]
            if "\n" in between or "\r" in between:
                assert code[cut - 1] in "\r\n", f"{path.name} {options}: chunk {right.index} starts mid-line: {right.text[:40]!r}"


@pytest.mark.parametrize("path", REAL_FILES, ids=_id)
def test_no_whitespace_only_chunks_in_nws(path):
    # Whitespace weighs nothing in nws, so it can always join a neighbour.
    code = read(path)
    for max_size in (1500, 20):
        for c in explorer.chunk(str(path), code, max_size=max_size, context_mode="none"):
            assert c.nws > 0, f"{path.name} max {max_size}: chunk {c.index} is only whitespace: {c.text!r}"


# -- oversized leaves -----------------------------------------------------------------------


def test_oversized_docstring_is_cut_at_lines_and_nothing_is_lost(check, count_nws):
    doc = "\n".join(f"    Line {i}: some prose about the function, 中文 {i}." for i in range(40))
    code = f'def f():\n    """\n{doc}\n    """\n    return 1\n'
    chunks = chunk_and_check(check, "a.py", code, max_size=100)
    inner = [c for c in chunks if c.split_start == "line" or c.split_end == "line"]
    assert len(inner) >= 10  # cut inside the string, at line starts
    assert all(c.split_start != "char" and c.split_end != "char" for c in chunks)
    assert sum(c.nws for c in chunks) == count_nws(code)


def test_oversized_block_comment_is_cut_at_lines(check):
    comment = "/*\n" + "".join(f" * comment line {i} with some words in it\n" for i in range(30)) + " */\n"
    code = "function a() { return 1; }\n" + comment + "function b() { return 2; }\n"
    chunks = chunk_and_check(check, "a.js", code, max_size=120)
    assert sum(c.text.count("comment line") for c in chunks) == 30  # no line duplicated (code-chunk bug 5.1 #1)
    assert any(c.split_start == "line" for c in chunks)


@pytest.mark.parametrize("unit", ["nws", "chars"])
def test_single_long_lines_are_cut_at_characters_never_inside_one(unit, check):
    line = "x = '" + "é中😀a" * 500 + "'\n"
    code = "import os\n" + line + "y = 2\n"
    chunks = chunk_and_check(check, "a.py", code, max_size=97, size_unit=unit)
    assert sum(1 for c in chunks if c.split_end == "char") >= 10


def test_long_crlf_lines_are_not_cut_between_cr_and_lf(check):
    code = "".join(f"{'ab' * 20}{i}\r\n" for i in range(5))
    for max_size in range(5, 50):
        chunk_and_check(check, None, code, max_size=max_size, size_unit="chars")
        chunk_and_check(check, "a.py", code, max_size=max_size, size_unit="chars")


def test_blank_lines_before_a_long_line_do_not_make_a_chunk(check):
    for path, code in [("a.py", "\n\n\n#" + "a" * 100 + "\n"), (None, "  \n\t\n" + "x" * 100), ("a.py", 'x = 1\n\n\n\n"' + "b" * 80 + '"\n')]:
        chunks = chunk_and_check(check, path, code, max_size=20)
        assert all(c.nws > 0 for c in chunks), [c.text for c in chunks]


# -- generated input -----------------------------------------------------------------------

COMMON = [
    "x", "foo", "Bar_9", "0", "42", "3.14", " ", " ", "  ", "    ", "\t", "\n", "\n", "\n", "\r\n", "\r",
    "é", "ß", "中文", "日本語", "😀", "👩‍💻", "e\u0301", "\ufeff", "\u00a0", "\u3000", "\u2028", "\x0b", "\x0c", "\x85",
]
TOKENS = {
    "a.py": ["def ", "class ", "return ", "if ", "else:", "pass", "import ", "@dec\n", "# c\n", '"""', "'", '"', ":", "(", ")", "[", "]", "=", ",", "\\\n", "\n    ", "lambda ", "async "],
    "a.js": ["function ", "class ", "const ", "=>", "{", "}", "(", ")", ";", "// c\n", "/*", "*/", "`", "${", "'", '"', "return ", "if ", "<div>", "</div>"],
    "a.ts": ["function ", "interface ", "type ", ": string", "<T>", "{", "}", "(", ")", ";", "/** doc */\n", "export ", "enum ", "=", "as ", "`"],
    "a.tsx": ["const ", "=>", "<A>", "</A>", "<b/>", "{", "}", "(", ")", ";", "props", "=", "'", "// c\n"],
    "a.rs": ["fn ", "impl ", "struct ", "#[derive(Debug)]\n", "/// doc\n", "// c\n", "{", "}", "->", "let ", "mut ", ";", "::", "'a", 'r#"', '"#', "(", ")", "<", ">"],
    "a.go": ["func ", "package main\n", "type ", "struct ", "{", "}", "(", ")", ":=", "// doc\n", "`", "if ", "return ", "go ", "chan "],
    "a.java": ["class ", "public ", "void ", "@Override\n", "/** doc */\n", "{", "}", "(", ")", ";", "int ", "return ", "new ", "<T>"],
    "a.c": ["int ", "struct ", "#include <x.h>\n", "#define X 1\n", "{", "}", "(", ")", ";", "/* c */", "*", "return ", "if ", "'a'", '"s"'],
    "a.json": ["{", "}", "[", "]", ":", ",", '"k"', '"v"', "1", "true", "null", "-2.5e3"],
    "a.md": ["# ", "## ", "- ", "```", "```\n", "*", "_", "[a](b)", "> ", "1. ", "|", "---\n"],
    "a.rb": ["def ", "end", "class ", "module ", "do", "|x|", "# c\n", "if ", "@x", ":sym", "(", ")"],
    "a.html": ["<div>", "</div>", "<p class='a'>", "</p>", "<!-- c -->", "<br/>", "&amp;", "<script>", "</script>"],
    "a.unknown": ["{", "}", ";", "begin", "end"],
    None: ["{", "}", "(", ")"],
}

code_text = st.sampled_from(sorted(TOKENS, key=str)).flatmap(
    lambda path: st.tuples(
        st.just(path),
        st.lists(st.sampled_from(TOKENS[path] + COMMON) | st.text(max_size=4), max_size=250).map("".join),
    )
)
options = st.fixed_dictionaries(
    {
        "max_size": st.integers(10, 80) | st.integers(10, 3000),
        "size_unit": st.sampled_from(["nws", "chars", "lines"]),
        "overlap_lines": st.integers(0, 5),
        "context_mode": st.sampled_from(["full", "none", "minimal"]),
        "strategy": st.sampled_from(["ast", "ast", "ast", "lines"]),
    }
)
line_ending = st.sampled_from(["\n", "\r\n", "\r"])


@PROPERTY
@given(code_text, options, line_ending, st.booleans())
def test_invariants_on_generated_code(check, source, opts, newline, bom):
    path, code = source
    code = code.replace("\r\n", "\n").replace("\n", newline) if newline != "\n" else code
    if bom:
        code = "\ufeff" + code
    chunk_and_check(check, path, code, **opts)


@PROPERTY
@given(st.sampled_from(SMALL_REAL), options, line_ending, st.data())
def test_invariants_on_mutated_real_code(check, path, opts, newline, data):
    """Real files with another line ending, non-ASCII text inserted at random places
    (so the parse may break) and cut short at a random point."""
    code = read(path).replace("\n", newline)
    for _ in range(data.draw(st.integers(0, 5))):
        at = data.draw(st.integers(0, len(code)))
        code = code[:at] + data.draw(st.sampled_from(COMMON) | st.text(min_size=1, max_size=5)) + code[at:]
    code = code[: data.draw(st.integers(len(code) // 3, len(code)))]
    chunk_and_check(check, path.name, code, **opts)


@settings(max_examples=60, deadline=None)
@given(code_text, options)
def test_streaming_matches_chunk(check, source, opts):
    path, code = source
    listed = explorer.chunk(path, code, **opts)
    streamed = list(explorer.chunk_stream(path, code, **opts))
    assert [c.text for c in streamed] == [c.text for c in listed]
    assert [c.byte_range for c in streamed] == [c.byte_range for c in listed]
    assert [c.contextualized_text for c in streamed] == [c.contextualized_text for c in listed]
    check(code, streamed, total=-1, **checked(opts))


@settings(max_examples=60, deadline=None)
@given(code_text, options)
def test_deterministic_on_generated_code(source, opts):
    path, code = source
    first = [c.to_dict() for c in explorer.chunk(path, code, **opts)]
    assert [c.to_dict() for c in explorer.chunk(path, code, **opts)] == first
    chunker = explorer.Chunker(**opts)
    assert [c.to_dict() for c in chunker.chunk(path, code)] == first
    assert [c.to_dict() for c in chunker.chunk(path, code)] == first


@PROPERTY
@given(st.text(max_size=300), st.sampled_from(["a.py", "a.js", "a.rs", None]), options)
def test_invariants_on_arbitrary_unicode(check, code, path, opts):
    assume("\x00" not in code)  # NUL is binary content
    chunk_and_check(check, path, code, **opts)


@PROPERTY
@given(st.text(alphabet=" \t\n\r\x0b\x0c", max_size=50), options)
def test_whitespace_only_gives_nothing(code, opts):
    assert explorer.chunk("a.py", code, **opts) == []
    assert list(explorer.chunk_stream(None, code.encode(), **opts)) == []


# -- 5. determinism on real code --------------------------------------------------------------


@pytest.mark.parametrize("path", [f for f in REAL_FILES if f.suffix in (".py", ".ts", ".rs", ".go")][:6], ids=_id)
def test_deterministic_on_real_code(path):
    code = read(path)
    runs = [[c.to_dict() for c in explorer.chunk(str(path), code, max_size=200, overlap_lines=1)] for _ in range(2)]
    assert runs[0] == runs[1]
    streamed = [c.to_dict() for c in explorer.chunk_stream(str(path), code, max_size=200, overlap_lines=1)]
    assert [d | {"totalChunks": 0} for d in streamed] == [d | {"totalChunks": 0} for d in runs[0]]


def test_node_kinds_are_classified_for_grouping():
    from explorer.engine.chunker import _ANONYMOUS, _ATTACHED, _COMMENT, _CORE, kind_flags
    from explorer.engine.languages import get_language

    python = get_language("python")
    flags = kind_flags(python)
    assert kind_flags(python) is flags  # one table per language
    kind = python.id_for_node_kind
    assert flags[kind("function_definition", True)] == _CORE
    assert flags[kind("comment", True)] == _COMMENT
    assert flags[kind("decorator", True)] == _ATTACHED
    assert flags[kind(":", False)] == _ANONYMOUS
    assert flags[0xFFFF] == _CORE  # ERROR nodes
    rust = kind_flags(get_language("rust"))
    assert rust[get_language("rust").id_for_node_kind("attribute_item", True)] == _ATTACHED
    assert rust[get_language("rust").id_for_node_kind("line_comment", True)] == _COMMENT
