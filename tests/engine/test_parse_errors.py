"""Files with syntax errors: the tree is kept and chunked by its nodes, error
regions are cut between lines only, every error is listed; lone-CR files parse cleanly;
``strict`` gives ``UnsupportedLanguageError`` a use."""

from __future__ import annotations

import re

import pytest

import explorer
from explorer.engine.api import parse
from explorer.engine.options import ChunkOptions
from explorer.engine.parse import UnsupportedLanguageError, find_errors, parser_bytes

RUST_ITEM = "/// Adds {i}.\n/// It is documented twice.\nfn add_{i}(a: u32) -> u32 {{\n    let b = a + {i};\n    b * 2\n}}\n\n"


def _rust_with_unclosed_if() -> str:
    """Six documented functions with a stray, unclosed `if (x) {` between them: the
    Rust grammar wraps the whole file in a root ERROR whose children are the items."""
    items = [RUST_ITEM.format(i=i) for i in range(6)]
    return "".join(items[:3]) + "if (x) {\n" + "".join(items[3:])


def test_a_root_error_keeps_its_tree_and_is_chunked_by_its_items(check):
    code = _rust_with_unclosed_if()
    parsed = parse("lib.rs", code, ChunkOptions())
    assert parsed.root is not None and parsed.root.type == "ERROR"  # what this test is about
    assert parsed.tree is not None and parsed.fallback is None
    chunks = explorer.chunk("lib.rs", code, max_size=80, context_mode="none")
    check(code, chunks, max_size=80, context_mode="none")
    assert all(c.strategy == "ast" and c.fallback_reason is None for c in chunks)
    # Every documented function (doc comment included) fits, and is in one chunk.
    for i in range(6):
        item = RUST_ITEM.format(i=i).rstrip("\n")
        assert any(item in c.text for c in chunks), f"add_{i} and its doc comment were split"
    # Cuts fall between items: each chunk starts with a doc comment or the broken line.
    assert all(c.text.startswith(("///", "if (x)")) for c in chunks)


def test_an_error_region_without_structure_is_cut_between_lines_only(check):
    # (No brackets: lines of brackets that balance across line ends are structure to the parser.)
    garbage = "".join(f"$$ ;;; <<< >> ?? {i} !! :: @@ else\n" for i in range(40))
    chunks = explorer.chunk("a.py", garbage, max_size=100, context_mode="none")
    check(garbage, chunks, max_size=100, context_mode="none")
    assert len(chunks) > 1 and all(c.strategy == "ast" for c in chunks)
    assert all(c.text.endswith("\n") for c in chunks)  # no cut inside a line
    assert chunks[0].context["parseError"]["recoverable"] is True


def test_a_long_broken_line_is_still_cut_within_the_limit(check):
    garbage = ")))]]]}}} ;;; ((( " * 50  # one line, far over the limit: cuts inside it are forced
    chunks = explorer.chunk("a.py", garbage, max_size=100)
    check(garbage, chunks, max_size=100)


def test_a_mostly_well_formed_file_chunks_as_its_well_formed_version():
    """Cuts before the broken function are where the fixed file has them."""
    good = "".join(f"def f{i}(a):\n    '''Doc {i}.'''\n    return a + {i}\n\n\n" for i in range(12))
    broken = good.replace("def f6(a):", "def f6(a:", 1)
    cut_at = good.index("def f6")
    good_cuts = [c.byte_range.start for c in explorer.chunk("a.py", good, max_size=40, context_mode="none")]
    broken_cuts = [c.byte_range.start for c in explorer.chunk("a.py", broken, max_size=40, context_mode="none")]
    assert [c for c in broken_cuts if c < cut_at] == [c for c in good_cuts if c < cut_at]


def test_nested_errors_are_listed_three_by_name_then_counted():
    code = "".join(f"def f{i}(:\n    return {i}\n\n" for i in range(5))
    message = parse("a.py", code, ChunkOptions()).parse_error["message"]
    named = re.findall(r"(?:ERROR|MISSING) at line (\d+), column (\d+)", message)
    assert [line for line, _ in named] == ["1", "4", "7"]
    assert message.endswith("; ... and 2 more")


def test_errors_inside_a_root_error_are_found():
    parsed = parse("lib.rs", _rust_with_unclosed_if(), ChunkOptions())
    message = parsed.parse_error["message"]
    broken_line = _rust_with_unclosed_if().count("\n", 0, _rust_with_unclosed_if().index("if (x)")) + 1
    # Not "line 1, column 1" (where the root ERROR starts) but where the file goes wrong.
    assert message.startswith(f"ERROR at line {broken_line}, column 1")


def test_error_columns_count_characters():
    code = "x = 1\né = f('ü', ])\n"
    parsed = parse("a.py", code, ChunkOptions())
    (_, offset), = find_errors(parsed.root)
    data = code.encode()
    line_start = data.rindex(b"\n", 0, offset) + 1
    assert data[offset:offset + 1] == b"]"  # where it goes wrong
    column = len(data[line_start:offset].decode()) + 1  # characters, not the byte column (2 more)
    assert parsed.parse_error["message"] == f"ERROR at line 2, column {column}"


@pytest.mark.parametrize("newline", ["\r", "\r\n", "\n"])
def test_python_with_any_line_ending_parses_without_errors(newline, check):
    code = newline.join(["def f():", "    '''Doc.'''", "    return 1", "", "class C:", "    x = 2", ""])
    parsed = parse("a.py", code, ChunkOptions())
    assert parsed.parse_error is None
    assert [c.type for c in parsed.root.children] == ["function_definition", "class_definition"]
    # Offsets are the original file's: the class starts where its text does.
    assert parsed.root.children[1].start_byte == code.encode().index(b"class C")
    chunks = explorer.chunk("a.py", code, max_size=30, context_mode="none")
    check(code, chunks, max_size=30, context_mode="none")
    assert chunks[-1].text.startswith("class C:") and "parseError" not in chunks[-1].context


def test_parser_bytes_keep_every_offset():
    data = b"a\rb\r\nc\n\r\rd\r"
    assert parser_bytes(data) == b"a\nb\r\nc\n\n\nd\n"
    assert parser_bytes(b"no cr\n") == b"no cr\n"


def test_strict_raises_where_the_file_would_be_line_chunked():
    with pytest.raises(UnsupportedLanguageError, match="notes.xyz"):
        explorer.chunk("notes.xyz", "some words\n", strict=True)
    with pytest.raises(UnsupportedLanguageError, match="cobol"):
        explorer.chunk("a.cbl", "       IDENTIFICATION DIVISION.\n", strict=True)
    with pytest.raises(UnsupportedLanguageError):
        explorer.chunk("a.txt", "plain\n", strict=True)
    # Not strict: line chunks, with the reason.
    assert explorer.chunk("notes.xyz", "some words\n")[0].fallback_reason == "unknown language"
    # A parsed file, broken or not, and an explicit lines strategy are never refused.
    assert explorer.chunk("a.py", "def f(:\n", strict=True)[0].strategy == "ast"
    assert explorer.chunk("a.py", "x = 1\n", strict=True, strategy="lines")[0].strategy == "lines"
    with pytest.raises(ValueError, match="strict"):
        ChunkOptions(strict="yes")  # type: ignore[arg-type]
