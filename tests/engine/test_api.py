"""The public API's shape: chunk / chunk_file / chunk_stream / Chunker,
option validation, JSON key order, languages(), language detection, fallbacks and
binary content. Includes code-chunk's acceptance checks (study section 3, tests
1-15, 29-38, 40, 43, 92-96, 118-120) where our behaviour is the same or stricter."""

from __future__ import annotations

import dataclasses
import inspect
import json
import os
import typing

import pytest
import tree_sitter_language_pack

import explorer
from explorer import BinaryContentError, Chunk, Chunker, ChunkOptions, Range
from explorer.engine.api import parse
from explorer.engine.languages import GRAMMARS, UNSAFE_GRAMMARS, resolve_language
from explorer.engine.parse import parse_source
from explorer.engine.text import SourceText

GREET_TS = "function greet(name: string): string {\n  return `Hello, ${name}!`\n}"

# One valid snippet per language for the "AST chunking everywhere" checks.
SNIPPETS = {
    "python": "def f(x):\n    return x + 1\n",
    "javascript": "function f(x) { return x + 1; }\n",
    "typescript": "function f(x: number): number { return x + 1; }\n",
    "tsx": "const App = () => <div className=\"a\">hi</div>;\n",
    "rust": "fn f(x: i32) -> i32 { x + 1 }\n",
    "go": "package main\n\nfunc f(x int) int { return x + 1 }\n",
    "java": "class A { int f(int x) { return x + 1; } }\n",
    "c": "int f(int x) { return x + 1; }\n",
    "cpp": "template <typename T> T f(T x) { return x + 1; }\n",
    "csharp": "class A { int F(int x) { return x + 1; } }\n",
    "ruby": "def f(x)\n  x + 1\nend\n",
    "php": "<?php\nfunction f($x) { return $x + 1; }\n",
    "kotlin": "fun f(x: Int): Int = x + 1\n",
    "swift": "func f(x: Int) -> Int { return x + 1 }\n",
    "scala": "object A { def f(x: Int): Int = x + 1 }\n",
    "bash": "f() { echo \"$1\"; }\n",
    "json": "{\"a\": [1, 2, {\"b\": null}]}\n",
    "yaml": "a:\n  - 1\n  - b: c\n",
    "toml": "[a]\nb = 1\n",
    "html": "<html><body><p>hi</p></body></html>\n",
    "css": "a { color: red; }\n",
    "markdown": "# Title\n\nSome *text*.\n",
    "lua": "local function f(x) return x + 1 end\n",
    "haskell": "f :: Int -> Int\nf x = x + 1\n",
    "elixir": "defmodule A do\n  def f(x), do: x + 1\nend\n",
    "sql": "SELECT a, b FROM t WHERE a = 1;\n",
    "zig": "fn f(x: i32) i32 {\n    return x + 1;\n}\n",
}


# -- shape ----------------------------------------------------------------------------


def test_chunk_returns_chunks_with_all_fields():
    chunks = explorer.chunk("test.ts", GREET_TS)
    assert isinstance(chunks, list) and all(isinstance(c, Chunk) for c in chunks)
    (c,) = chunks  # study test 4
    assert c.text == GREET_TS
    assert c.byte_range == Range(0, len(GREET_TS)) and c.char_range == Range(0, len(GREET_TS))
    assert c.line_range == Range(0, 2)
    assert (c.index, c.total_chunks) == (0, 1)
    assert c.context["filepath"] == "test.ts" and c.context["language"] == "typescript"
    assert c.size == c.nws == len(GREET_TS) - GREET_TS.count(" ") - GREET_TS.count("\n") and c.size_unit == "nws"
    assert c.split_start is None and c.split_end is None and not c.forced_split
    assert c.strategy == "ast" and c.fallback_reason is None and c.overlap_text == ""


def test_str_and_bytes_give_the_same_chunks():
    code = "# é\ndef f():\n    return '中文😀'\n\n\nclass A:\n    pass\n"
    as_str = [c.to_dict() for c in explorer.chunk("a.py", code, max_size=8)]
    as_bytes = [c.to_dict() for c in explorer.chunk("a.py", code.encode("utf-8"), max_size=8)]
    assert as_str == as_bytes and len(as_str) > 1


def test_to_dict_key_order_is_code_chunks_then_ours():
    (c,) = explorer.chunk("test.ts", GREET_TS)
    d = c.to_dict()
    assert list(d)[:7] == ["text", "contextualizedText", "byteRange", "lineRange", "context", "index", "totalChunks"]
    assert set(list(d)[7:]) >= {"charRange", "size", "sizeUnit", "nws", "forcedSplit", "strategy", "fallbackReason", "overlapText"}
    assert d["byteRange"] == {"start": 0, "end": len(GREET_TS)} and d["lineRange"] == {"start": 0, "end": 2}
    assert d["forcedSplit"] == {"start": None, "end": None}
    assert json.loads(json.dumps(d)) == d  # JSON-shaped all the way down


def test_const_ranges():
    (c,) = explorer.chunk("a.ts", "const x = 1")  # study test 13
    assert c.byte_range == Range(0, 11) and c.line_range == Range(0, 0)


def test_three_consts_make_one_chunk_equal_to_the_slice():
    code = "const a = 1\nconst b = 2\nconst c = 3\n"  # study test 5
    (c,) = explorer.chunk("a.ts", code)
    assert c.text == code == code[c.byte_range.start : c.byte_range.end]


def test_small_limits_give_several_ordered_chunks(check):
    code = "\n".join(f"function fn{i}() {{ return {i} }}" for i in range(10))  # study tests 6, 7, 12
    chunks = explorer.chunk("a.js", code, max_size=100)
    assert 2 <= len(chunks) <= 10
    assert all(c.nws <= 100 for c in chunks)
    check(code, chunks, max_size=100)


def test_comments_around_a_function_stay_in_one_chunk():
    code = "// leading\nfunction f() {\n  return 1\n}\n// trailing"  # study test 14
    (c,) = explorer.chunk("a.js", code)
    assert c.line_range == Range(0, 4)


def test_long_line_is_cut_within_the_limit(check):
    code = "const x = " + '"' + "a" * 1000 + '"'  # study test 38, stricter: never over
    chunks = explorer.chunk("a.ts", code, max_size=100)
    assert len(chunks) >= 10
    assert any(c.split_end == "char" for c in chunks)
    check(code, chunks, max_size=100)


def test_non_ascii_text_and_mixed_semicolons():
    code = 'const greeting = "こんにちは🎉"\nconst b = 2;\nlet c = 3\n'  # study tests 40, 43
    (c,) = explorer.chunk("a.ts", code)
    assert c.text == code and "こんにちは" in c.text and "🎉" in c.text
    assert c.byte_range == Range(0, len(code.encode("utf-8"))) and c.char_range == Range(0, len(code))


@pytest.mark.parametrize("code", ["", "   \n\n   \t\t   ", "\r\n\r\n", "\x0b\x0c \n", b"", b" \r\n\t"])
@pytest.mark.parametrize("path", ["a.py", "a.ts", "a.xyz", None])
def test_empty_or_whitespace_only_gives_no_chunks(code, path):
    assert explorer.chunk(path, code) == []  # study tests 8, 9
    assert list(explorer.chunk_stream(path, code)) == []


# -- stream and Chunker ------------------------------------------------------------------


def test_chunk_stream_is_a_generator_matching_chunk(check):
    code = "\n\n".join(f"function fn{i}(a, b) {{\n  return a * {i} + b\n}}" for i in range(10))
    stream = explorer.chunk_stream("test.ts", code, max_size=100)
    assert inspect.isgenerator(stream)
    first = next(stream)  # study tests 29-32
    assert first.context["filepath"] == "test.ts" and first.context["language"] == "typescript" and first.text
    streamed = [first, *stream]
    assert len(streamed) > 1
    assert all(c.total_chunks == -1 for c in streamed)
    listed = explorer.chunk("test.ts", code, max_size=100)
    assert [c.text for c in streamed] == [c.text for c in listed]
    assert [c.byte_range for c in streamed] == [c.byte_range for c in listed]
    check(code, streamed, max_size=100, total=-1)


def test_chunker_reuses_options_and_calls_override_them():
    code = "\n\n".join(f"function fn{i}(a, b) {{\n  return a * {i} + b\n}}" for i in range(10))
    chunker = Chunker(max_size=500)  # study tests 33-36
    assert chunker.options.max_size == 500
    assert [c.text for c in chunker.chunk("a.ts", "const a = 1")] == ["const a = 1"]
    assert [c.text for c in chunker.chunk("a.ts", "const b = 2")] == ["const b = 2"]
    default = Chunker()
    assert len(default.chunk("a.ts", code)) == 1
    assert len(default.chunk("a.ts", code, max_size=100)) > 1
    assert default.options.max_size == 1500  # the per-call override did not stick
    streamed = list(chunker.stream("test.ts", code))
    assert streamed and all(c.total_chunks == -1 and c.context["filepath"] == "test.ts" for c in streamed)
    with_options = Chunker(ChunkOptions(max_size=100, size_unit="chars"))
    assert all(c.size_unit == "chars" and c.size <= 100 for c in with_options.chunk("a.ts", code))


def test_chunk_file_reads_without_writing(tmp_path, check):
    path = tmp_path / "Mod.PY"  # an upper-case extension is still Python
    code = "def f():\r\n    return 'é'\r\n\r\n\r\nclass A:\r\n    pass\r\n".encode()
    path.write_bytes(code)
    before = os.stat(path)
    chunks = explorer.chunk_file(path, max_size=5)
    check(code, chunks, max_size=5)
    assert chunks[0].context["language"] == "python" and chunks[0].context["filepath"] == str(path)
    assert [c.text for c in Chunker(max_size=5).chunk_file(str(path))] == [c.text for c in chunks]
    after = os.stat(path)
    assert path.read_bytes() == code and (after.st_mtime_ns, after.st_size) == (before.st_mtime_ns, before.st_size)


def test_a_path_object_is_accepted_as_the_file_path(tmp_path):
    from pathlib import PurePosixPath

    for call in (
        lambda p: explorer.chunk(p, "def f():\n    return 1\n"),
        lambda p: list(explorer.chunk_stream(p, "def f():\n    return 1\n")),
        lambda p: Chunker().chunk(p, b"def f():\n    return 1\n"),
    ):
        (c,) = call(PurePosixPath("src/pkg/mod.py"))
        assert c.context["language"] == "python" and c.context["filepath"] == "src/pkg/mod.py"
        json.dumps(c.to_dict())


def test_chunk_file_of_a_missing_file_raises():
    with pytest.raises(FileNotFoundError):
        explorer.chunk_file("/nonexistent/definitely/missing.py")


# -- options ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"max_size": 0}, "max_size"),
        ({"max_size": -5}, "max_size"),
        ({"max_size": 1.5}, "max_size"),
        ({"max_size": "100"}, "max_size"),
        ({"max_size": True}, "max_size"),
        ({"overlap_lines": -1}, "overlap_lines"),
        ({"max_siblings": -1}, "max_siblings"),
        ({"size_unit": "bytes"}, "nws, chars, lines"),
        ({"strategy": "semantic"}, "ast, lines"),
        ({"context_mode": "verbose"}, "none, minimal, full"),
        ({"sibling_detail": "all"}, "none, names, signatures"),
        ({"filter_imports": "yes"}, "filter_imports"),
        ({"language": "klingon"}, "unknown language 'klingon'"),
        ({"maxChunkSize": 100}, "unknown option maxChunkSize"),
        ({"max_size": 10, "colour": 1, "shape": 2}, "unknown options colour, shape"),
    ],
)
def test_invalid_options_raise_a_clear_value_error(options, message):
    for call in (
        lambda: explorer.chunk("a.py", "x = 1", **options),
        lambda: list(explorer.chunk_stream("a.py", "x = 1", **options)),
        lambda: Chunker(**options),
        lambda: Chunker().chunk("a.py", "x = 1", **options),
        lambda: ChunkOptions.build(None, **options),
    ):
        with pytest.raises(ValueError, match=message):
            call()


def test_unknown_option_message_lists_the_valid_ones():
    with pytest.raises(ValueError) as info:
        explorer.chunk("a.py", "x = 1", maxsize=10)
    for name in ("max_size", "size_unit", "overlap_lines", "language", "strategy", "context_mode"):
        assert name in str(info.value)


def test_options_defaults_and_to_dict():
    opts = ChunkOptions()
    assert opts.to_dict() == {
        "max_size": 1500, "size_unit": "nws", "overlap_lines": 0, "language": None, "strategy": "ast",
        "context_mode": "full", "sibling_detail": "signatures", "filter_imports": True, "max_siblings": 3,
        "strict": False, "tokenizer": None, "fit": "auto", "namespace": None,
    }
    assert ChunkOptions.build(opts, max_size=10).max_size == 10 and opts.max_size == 1500
    with pytest.raises(dataclasses.FrozenInstanceError):
        opts.max_size = 3  # type: ignore[misc]  # frozen


@pytest.mark.parametrize(("name", "canonical"), [("ts", "typescript"), ("TypeScript", "typescript"), ("c++", "cpp"), ("PY", "python"), ("golang", "go"), ("c#", "csharp"), (" rust ", "rust")])
def test_language_names_and_aliases_resolve(name, canonical):
    assert resolve_language(name) == canonical
    assert ChunkOptions(language=name).language == canonical


def test_language_override_wins_over_the_extension():
    (c,) = explorer.chunk("test.txt", "function f(): void {}", language="typescript")  # study test 11
    assert c.context["language"] == "typescript" and c.strategy == "ast"


def test_context_mode_none_with_overlap_leaves_contextualized_text_alone(check):
    code = "\n".join(f"def f{i}(x):\n    return x * {i}\n" for i in range(12))
    chunks = explorer.chunk("a.py", code, max_size=40, overlap_lines=3, context_mode="none")
    assert len(chunks) > 2
    assert all(c.contextualized_text == c.text and c.overlap_text == "" for c in chunks)
    check(code, chunks, max_size=40, overlap_lines=3, context_mode="none")


def test_overlap_goes_to_contextualized_text_only(check):
    code = "\n".join(f"def f{i}(x):\n    return x * {i}\n" for i in range(12))
    chunks = explorer.chunk("a.py", code, max_size=40, overlap_lines=2)
    check(code, chunks, max_size=40, overlap_lines=2)
    overlap = chunks[1].overlap_text
    assert overlap and overlap.rstrip("\r\n") in chunks[1].contextualized_text
    assert "".join(c.text for c in chunks) == code


# -- languages ---------------------------------------------------------------------------


def test_languages_lists_every_grammar_of_the_pack():
    rows = explorer.languages()
    pack = sorted(typing.get_args(tree_sitter_language_pack.SupportedLanguage))
    assert [r["name"] for r in rows] == [*pack, "notebook"] and pack == list(GRAMMARS)  # notebooks: cells
    assert len(rows) >= 170
    for row in rows:
        assert {"name", "chunking", "structure", "extensions"} <= set(row)
        assert row["chunking"] == ("lines" if row["name"] in UNSAFE_GRAMMARS else "ast")
        assert row["structure"] in ("full", "generic", "none", "regions")
        assert all(e.startswith(".") or e == e.lower() for e in row["extensions"])
    by_name = {r["name"]: r for r in rows}
    assert ".py" in by_name["python"]["extensions"]
    assert ".ts" in by_name["typescript"]["extensions"] and ".tsx" not in by_name["typescript"]["extensions"]
    assert by_name["tsx"]["extensions"] == [".tsx"]
    assert by_name["python"]["structure"] == "full"
    assert "note" in by_name["cobol"]


@pytest.mark.parametrize("language", sorted(SNIPPETS))
def test_common_languages_get_ast_chunking(language, check):
    code = SNIPPETS[language]
    parsed = parse_source(SourceText(code), None, language)
    assert parsed.tree is not None and parsed.fallback is None and parsed.parse_error is None, language
    for max_size in (1500, 4):
        chunks = explorer.chunk(None, code, language=language, max_size=max_size)
        assert chunks and all(c.strategy == "ast" and c.fallback_reason is None for c in chunks)
        check(code, chunks, max_size=max_size)


@pytest.mark.parametrize("language", ["python", "javascript", "typescript", "rust", "go", "java", "c", "json"])
def test_a_bom_is_kept_and_does_not_break_the_parse(language, check):
    code = "\ufeff" + SNIPPETS[language].replace("\n", "\r\n")
    parsed = parse_source(SourceText(code.encode("utf-8")), None, language)
    assert parsed.tree is not None and parsed.parse_error is None
    chunks = explorer.chunk(None, code.encode("utf-8"), language=language, max_size=5)
    assert chunks[0].text.startswith("\ufeff") and chunks[0].byte_range.start == 0 and chunks[0].strategy == "ast"
    check(code, chunks, max_size=5)


# -- detection ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "language"),
    [
        # code-chunk's table (study test 92), but .tsx is TSX, not TypeScript
        ("a.ts", "typescript"), ("a.tsx", "tsx"), ("a.mts", "typescript"), ("a.cts", "typescript"),
        ("a.js", "javascript"), ("a.jsx", "javascript"), ("a.mjs", "javascript"), ("a.cjs", "javascript"),
        ("a.py", "python"), ("a.pyi", "python"), ("a.rs", "rust"), ("a.go", "go"), ("a.java", "java"),
        # case-insensitive extensions
        ("Main.JAVA", "java"), ("APP.PY", "python"), ("x.Ts", "typescript"), ("X.TSX", "tsx"), ("lib.RS", "rust"),
        # nested, absolute and multi-dot paths
        ("src/deep/nested/file.py", "python"), ("/abs/path/file.go", "go"), ("file.test.ts", "typescript"),
        ("app.config.js", "javascript"), ("my.file.name.py", "python"), ("types/foo.d.ts", "typescript"),
        # well-known file names, any case
        ("Makefile", "make"), ("makefile", "make"), ("GNUmakefile", "make"), ("Dockerfile", "dockerfile"),
        ("build/Dockerfile.dev", "dockerfile"), ("CMakeLists.txt", "cmake"), ("Gemfile", "ruby"),
        ("Rakefile", "ruby"), ("BUILD.bazel", "starlark"), ("go.mod", "gomod"), (".bashrc", "bash"),
        (".gitignore", "gitignore"),
        # other languages
        ("a.c", "c"), ("a.h", "c"), ("a.hpp", "cpp"), ("a.cc", "cpp"), ("a.rb", "ruby"), ("a.json", "json"),
        ("a.yml", "yaml"), ("a.yaml", "yaml"), ("a.md", "markdown"), ("a.sh", "bash"), ("a.toml", "toml"),
    ],
)
def test_detection_by_name(path, language):
    assert explorer.detect_language(path) == language


@pytest.mark.parametrize("path", [".env", "README", "LICENSE", "a.b/c", "notes.xyz", "archive.tar.unknownext", None])
def test_unknown_names_are_not_guessed(path):
    assert explorer.detect_language(path) is None


@pytest.mark.parametrize(
    ("head", "language"),
    [
        (b"#!/usr/bin/env python3\nprint(1)\n", "python"),
        (b"#!/usr/bin/python3.11 -u\n", "python"),
        (b"#!/bin/bash\r\necho hi\r\n", "bash"),
        (b"#!/bin/sh\n", "bash"),
        (b"#! /usr/bin/env node\n", "javascript"),
        (b"#!/usr/bin/env -S node --no-warnings\n", "javascript"),
        (b"#!/usr/local/bin/ruby -w\n", "ruby"),
        (b"#!/usr/bin/env perl\n", "perl"),
        (b"#!/usr/bin/env unknown-interpreter\n", None),
        (b"# not a shebang\n", None),
    ],
)
def test_detection_by_shebang(head, language):
    assert explorer.detect_language("scripts/run", head) == language
    assert explorer.detect_language(None, head) == language


def test_extension_wins_over_shebang_and_shebang_files_chunk(engine_fixtures):
    assert explorer.detect_language("tool.py", b"#!/bin/bash\n") == "python"
    chunks = explorer.chunk_file(engine_fixtures / "deploy")
    assert chunks[0].context["language"] == "bash" and chunks[0].strategy == "ast"


def test_ts_is_typescript_and_tsx_is_tsx(engine_fixtures):
    code = "const raw: unknown = '42';\nconst asText = <string>raw;\n"
    as_ts = parse("a.ts", code, ChunkOptions())
    assert as_ts.language == "typescript" and as_ts.parse_error is None  # study 5.1 #15: TSX grammar breaks this
    as_tsx = parse("a.tsx", code, ChunkOptions())
    assert as_tsx.language == "tsx" and as_tsx.parse_error is not None
    jsx = "const App = () => <div>{items.map((i) => <p key={i}>{i}</p>)}</div>;\n"
    assert parse("a.tsx", jsx, ChunkOptions()).parse_error is None
    widgets = parse(str(engine_fixtures / "widgets.ts"), (engine_fixtures / "widgets.ts").read_bytes(), ChunkOptions())
    assert widgets.language == "typescript" and widgets.parse_error is None


# -- fallbacks and errors ------------------------------------------------------------------


def test_unknown_language_falls_back_to_lines_with_the_reason(check):
    code = "alpha beta\ngamma delta\n" * 20  # study test 10: code-chunk throws here
    chunks = explorer.chunk("test.xyz", code, max_size=30)
    assert len(chunks) > 1
    assert all(c.strategy == "lines" and c.fallback_reason == "unknown language" for c in chunks)
    assert all(c.split_start in (None, "line") for c in chunks)
    check(code, chunks, max_size=30)
    streamed = list(explorer.chunk_stream("test.xyz", code, max_size=30))
    assert [c.text for c in streamed] == [c.text for c in chunks]
    assert explorer.chunk(None, code)[0].fallback_reason == "unknown language"


def test_lines_strategy_and_unsafe_grammars_fall_back(check):
    code = "def f():\n    return 1\n" * 10
    chunks = explorer.chunk("a.py", code, strategy="lines", max_size=20)
    assert all(c.strategy == "lines" and c.fallback_reason == "lines strategy" for c in chunks)
    check(code, chunks, max_size=20)
    cobol = explorer.chunk("a.cbl", "       IDENTIFICATION DIVISION.\n       PROGRAM-ID. HELLO.\n")
    assert cobol and all(c.strategy == "lines" and "COBOL" in c.fallback_reason for c in cobol)


def test_syntax_errors_keep_the_tree(check):
    broken = "def broken(:\n    return 1\n\ndef fine():\n    return 2\n"  # study tests 94, 120
    chunks = explorer.chunk("a.py", broken)
    assert chunks[0].strategy == "ast" and "parseError" in chunks[0].context
    assert chunks[0].context["parseError"]["recoverable"] is True
    check(broken, chunks)
    for path, code in [("a.ts", "function broken( {\n  return 1\n"), ("a.rs", "fn main() { let x = 1 }\n"),
                       ("a.go", "func main() {}\n"), ("a.java", "class { void }\n"), ("a.js", "a = {[(\n")]:
        chunks = explorer.chunk(path, code)  # malformed code never throws
        check(code, chunks)
    garbage = ")))]]]}}} ;;; ((( " * 50  # nothing but errors: the tree is still used (test_parse_errors.py)
    chunks = explorer.chunk("a.py", garbage, max_size=100)
    assert all(c.strategy == "ast" and c.fallback_reason is None for c in chunks)
    check(garbage, chunks, max_size=100)


@pytest.mark.parametrize("data", [b"\x7fELF\x02\x01\x01\x00\x00\x00", b"x = 1\n\x00\n", b"x = '\xff\xfe'\n", b"\xc3"])
def test_binary_content_raises_naming_the_file(data, tmp_path):
    path = tmp_path / "blob.py"
    path.write_bytes(data)
    calls = [
        lambda: explorer.chunk("pkg/blob.py", data),
        lambda: list(explorer.chunk_stream("pkg/blob.py", data)),
        lambda: Chunker().chunk("pkg/blob.py", data),
        lambda: explorer.chunk_file(path),
    ]
    for call in calls:
        with pytest.raises(BinaryContentError) as info:
            call()
        assert ("blob.py" in str(info.value)) and ("NUL" in str(info.value) or "UTF-8" in str(info.value))
        assert isinstance(info.value, ValueError)
