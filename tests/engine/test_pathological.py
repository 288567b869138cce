"""Pathological inputs (deterministic, no recursion, cost about linear): very deep nesting, very many
definitions, one huge line. Correctness only: how the cost grows is measured by
the benchmark scripts, never by timed tests."""

from __future__ import annotations

import sys

import pytest

import explorer

DEPTH = 10_000


def _deep(path: str, opening: str, closing: str, middle: str = "", before: str = "", after: str = "") -> tuple[str, str]:
    return path, before + opening * DEPTH + middle + closing * DEPTH + after


DEEP = [
    _deep("deep.json", "[", "]", "1"),
    _deep("deep.py", "(", ")", "1", before="x = ", after="\n"),
    _deep("deep.c", "{", "}", "1", before="int x[] = ", after=";\n"),
    _deep("deep.js", "function f(){", "}"),
    _deep("deep.rs", "fn f() {", "}"),
    _deep("deep.ts", "{a: [", "]}", "1", before="const x = ", after=";\n"),
]


@pytest.mark.parametrize(("path", "code"), DEEP, ids=[p for p, _ in DEEP])
def test_nesting_ten_thousand_deep_chunks_without_recursion(path, code, check):
    options = {"max_size": 50, "context_mode": "none"}
    assert sys.getrecursionlimit() < DEPTH  # a recursive walk would fail here
    chunks = explorer.chunk(path, code, **options)
    assert chunks[0].strategy == "ast" and chunks[0].fallback_reason is None  # the tree was used
    check(code, chunks, **options)


@pytest.mark.parametrize(("path", "code"), [DEEP[0], DEEP[3]], ids=["json", "javascript"])
def test_nesting_ten_thousand_deep_with_full_context(path, code, check):
    # The structure and context code must not recurse either (a large limit keeps
    # the chunk count, and so the run time, small).
    chunks = explorer.chunk(path, code, max_size=20_000)
    assert len(chunks) > 1
    assert chunks[0].context["language"] == explorer.detect_language(path)
    check(code, chunks, max_size=20_000)
    streamed = list(explorer.chunk_stream(path, code, max_size=20_000))
    assert [c.text for c in streamed] == [c.text for c in chunks]


def test_deep_python_indentation_falls_back_or_chunks(check):
    # tree-sitter-python gives up on very deep indentation; whatever happens, the
    # result is complete and the reason is recorded when the tree is not used.
    code = "".join(" " * i + "if x:\n" for i in range(1000)) + " " * 1000 + "pass\n"
    chunks = explorer.chunk("deep_indent.py", code, max_size=200)
    assert all(c.strategy == "ast" or c.fallback_reason for c in chunks)
    check(code, chunks, max_size=200)


FUNCTIONS = 16_000


@pytest.mark.parametrize(
    ("path", "template", "options"),
    [
        ("many.py", "def f{i}(x):\n    return x + {i}\n\n", {}),
        ("many.js", "function f{i}(x) {{\n  return x + {i};\n}}\n", {"context_mode": "none"}),
    ],
    ids=["python", "javascript"],
)
def test_sixteen_thousand_functions(path, template, options, check):
    code = "".join(template.format(i=i) for i in range(FUNCTIONS))
    chunks = explorer.chunk(path, code, **options)
    check(code, chunks, **options)
    # Every function fits, so every one is whole: each chunk starts a function and
    # holds as many function starts as returns.
    keyword = "def " if path.endswith(".py") else "function "
    for c in chunks:
        assert c.text.startswith(keyword), c.text[:40]
        assert c.text.count(keyword) == c.text.count("return ")
    assert sum(c.text.count(keyword) for c in chunks) == FUNCTIONS
    assert len(chunks) < FUNCTIONS // 20  # small pieces were merged


def _minified() -> str:
    code = "var data=[" + ",".join(f'{{"id":{i},"n":"é{i}中"}}' for i in range(40_000)) + "];"
    assert len(code) > 1_000_000 and "\n" not in code
    return code


@pytest.mark.parametrize(
    ("path", "options"),
    [
        # JavaScript: the tree cuts between array elements, no cut inside a token.
        ("bundle.min.js", {"context_mode": "none"}),
        # No grammar: line fallback, so the one line is cut at characters.
        ("bundle.txt", {"size_unit": "chars", "max_size": 4000}),
    ],
    ids=["js-nws", "text-chars"],
)
def test_one_megabyte_single_line(path, options, check):
    code = _minified()
    chunks = explorer.chunk(path, code, **options)
    check(code, chunks, **options)
    limit = options.get("max_size", 1500)
    # Chunks are filled: all but the last reach at least half the limit.
    assert all(c.size >= limit // 2 for c in chunks[:-1])
    if path.endswith(".js"):
        assert chunks[0].strategy == "ast" and not any(c.forced_split for c in chunks)
    else:
        assert chunks[0].strategy == "lines" and all(c.split_end == "char" for c in chunks[:-1])
    # No cut lands inside a UTF-8 sequence (check() decodes every byte range too).
    data = code.encode("utf-8")
    assert all((data[c.byte_range.start] & 0xC0) != 0x80 for c in chunks)


def test_long_line_among_real_code(check):
    blob = _minified()[:200_000].replace("'", "")
    code = "import json\n\n\ndef load():\n    return json.loads(DATA)\n\n\nDATA = '" + blob + "'\n\n\ndef after():\n    return 1\n"
    chunks = explorer.chunk("mixed.py", code, max_size=1000)
    check(code, chunks, max_size=1000)
    assert sum(1 for c in chunks if c.split_end == "char") >= 100  # the string is cut at characters
    # The code around the huge line is chunked cleanly: both functions whole.
    for function in ("def load():\n    return json.loads(DATA)\n", "def after():\n    return 1\n"):
        assert any(function in c.text for c in chunks), function
