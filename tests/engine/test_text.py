"""explorer.engine.text: every offset conversion (bytes, code points, lines) and the
terminal display of a line, checked against naive recomputations on non-ASCII text
(CJK, emoji, combining marks), CRLF, lone CR, tabs and a BOM."""

from __future__ import annotations

import re
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.engine.text import (
    BinaryContentError,
    SourceText,
    cell_width,
    decode_source,
    display_line,
    nws_count,
)

FAST = settings(max_examples=150, deadline=None)

# Pieces that stress every conversion: 1-4 byte UTF-8, zero-width and wide
# characters, all three line endings, tabs, a BOM, controls, Unicode "spaces"
# that are not whitespace for nws, and line separators that are not line breaks.
TRICKY = [
    "a", "Z", "_", "0", " ", "  ", "\t", "\n", "\r\n", "\r", "\r\r\n", "\n\r",
    "é", "ß", "ø", "中", "文字", "ｗ", "😀", "👩‍💻", "🇯🇵", "e\u0301", "\u0301",
    "\ufeff", "\u00a0", "\u3000", "\u2028", "\x0b", "\x0c", "\x85", "\x1b", "\x7f",
]
LINE_BREAK = re.compile(r"\r\n|\r|\n")
tricky_text = st.lists(st.sampled_from(TRICKY) | st.text(max_size=3), max_size=60).map("".join)


def naive_line_starts(text: str) -> list[int]:
    """Char offsets where lines start (a final line break opens no new line)."""
    starts = [0] + [m.end() for m in LINE_BREAK.finditer(text)]
    if len(starts) > 1 and starts[-1] == len(text):
        starts.pop()
    return starts


def _bytes_of(text: str, char: int) -> int:
    return len(text[:char].encode("utf-8"))


# -- bytes <-> code points ---------------------------------------------------------------


@FAST
@given(tricky_text)
def test_offsets_round_trip_at_every_character(text):
    src = SourceText(text)
    assert src.text == text and src.data == text.encode("utf-8") and len(src) == len(src.data)
    for char in range(len(text) + 1):
        byte = _bytes_of(text, char)
        assert src.byte_offset(char) == byte
        assert src.char_offset(byte) == char
        assert src.is_char_boundary(byte)


@FAST
@given(tricky_text)
def test_byte_offsets_inside_a_character_floor_to_its_start(text):
    src = SourceText(text)
    for char, ch in enumerate(text):
        start = _bytes_of(text, char)
        for inside in range(start + 1, start + len(ch.encode("utf-8"))):
            assert not src.is_char_boundary(inside)
            assert src.char_offset(inside) == char
            assert src.floor_char_boundary(inside) == start


@FAST
@given(tricky_text, st.data())
def test_slice_and_sizes_match_the_text(count_nws, lines_of, text, data):
    src = SourceText(text)
    a = data.draw(st.integers(0, len(text)))
    b = data.draw(st.integers(a, len(text)))
    part = text[a:b]
    start, end = _bytes_of(text, a), _bytes_of(text, b)
    assert src.slice(start, end) == part
    assert src.nws(start, end) == count_nws(part) == nws_count(part)
    assert src.chars(start, end) == len(part)
    assert src.sizer("nws")(start, end) == count_nws(part)
    assert src.sizer("chars")(start, end) == len(part)
    # ``lines`` counts the lines a range touches: those holding one of its characters.
    # (A range starting between \r and \n: its \n is on the line the \r ends, and
    # ``lines_of`` counts that \n as one line too.)
    touched = len(lines_of(part)) if part else 0
    assert src.lines(start, end) == src.sizer("lines")(start, end) == touched


def test_sizes_over_long_ranges_use_the_block_counts_correctly(count_nws):
    # Ranges longer than the prefix-count block, starting and ending mid-block and
    # mid-character.
    text = ("é中 😀\t" * 3000 + "\r\n") * 3
    src = SourceText(text)
    for a, b in [(0, len(text)), (7, len(text) - 5), (1001, 9999), (4095, 4097 + 6000)]:
        start, end = _bytes_of(text, a), _bytes_of(text, b)
        assert src.nws(start, end) == count_nws(text[a:b])
        assert src.chars(start, end) == b - a
        assert src.sizer("nws")(start, end) == count_nws(text[a:b])
        assert src.sizer("chars")(start, end) == b - a


# -- lines ---------------------------------------------------------------------------


@FAST
@given(tricky_text)
def test_line_starts_and_line_of_every_offset(text):
    src = SourceText(text)
    starts = naive_line_starts(text)
    assert src.line_starts == [_bytes_of(text, s) for s in starts]
    assert src.line_count == (len(starts) if text else 0)
    breaks = [m.end() for m in LINE_BREAK.finditer(text)]
    for char in range(len(text)):
        # The line of a character = the number of line breaks that end at or before it.
        expected = sum(1 for end in breaks if end <= char)
        assert src.line_of(_bytes_of(text, char)) == expected


@FAST
@given(tricky_text, st.randoms(use_true_random=False))
def test_line_lookups_before_the_line_starts_are_listed(text, rng):
    """Line starts are listed lazily: until then lines are found by searching the
    bytes and counting forward. Any order of questions gets the listed answers."""
    data = text.encode("utf-8", "surrogatepass")
    reference = SourceText(text)
    starts = reference.line_starts
    offsets = [_bytes_of(text, c) for c in range(len(text))]
    rng.shuffle(offsets)
    offsets[: len(offsets) // 2] = sorted(offsets[: len(offsets) // 2])  # forward runs, then jumps back
    fresh = SourceText(text)
    for byte in offsets:
        line = reference.line_of(byte)
        assert fresh.line_of(byte) == line
        assert SourceText(text).line_start_at(byte) == starts[line]
        assert SourceText(text).line_end_at(byte) == (starts[line + 1] if line + 1 < len(starts) else len(data))
        assert SourceText(text).is_line_start(byte) == (byte in starts or byte == 0)
    assert fresh.line_range(0, len(data)) == reference.line_range(0, len(data))


@FAST
@given(tricky_text)
def test_line_text_start_and_end(lines_of, text):
    src = SourceText(text)
    lines = lines_of(text)
    with_ends = lines_of(text, keepends=True)
    assert src.line_count == len(lines)
    pos = 0
    for i, (line, full) in enumerate(zip(lines, with_ends)):
        assert src.line_text(i) == line
        assert src.line_start(i) == _bytes_of(text, pos)
        assert src.line_end(i) == _bytes_of(text, pos + len(full))
        assert src.line_end(i, keep_newline=False) == _bytes_of(text, pos + len(line))
        assert src.is_line_start(src.line_start(i))
        pos += len(full)


@FAST
@given(tricky_text, st.data())
def test_line_range_of_a_byte_range(text, data):
    # Ranges that start on a character (at the very end of a file there is no line
    # to be on when it ends with a line break).
    if not text:
        return
    src = SourceText(text)
    a = data.draw(st.integers(0, len(text) - 1))
    b = data.draw(st.integers(a, len(text)))
    breaks = [m.end() for m in LINE_BREAK.finditer(text)]
    first = sum(1 for e in breaks if e <= a)
    last = sum(1 for e in breaks if e <= b - 1) if b > a else first
    assert src.line_range(_bytes_of(text, a), _bytes_of(text, b)) == (first, last)


@pytest.mark.parametrize(
    ("text", "lines"),
    [
        ("a\nb\n", ["a", "b"]),
        ("a\r\nb\r\n", ["a", "b"]),
        ("a\rb\r", ["a", "b"]),
        ("a\r\rb", ["a", "", "b"]),
        ("a\n\rb", ["a", "", "b"]),  # \n then a lone \r: two breaks
        ("a\r\n\nb", ["a", "", "b"]),
        ("\n", [""]),
        ("x", ["x"]),
        ("a\x0bb\x0cc\x85d\u2028e", ["a\x0bb\x0cc\x85d\u2028e"]),  # not line breaks here
    ],
)
def test_line_breaks_are_lf_crlf_and_lone_cr_only(text, lines):
    src = SourceText(text)
    assert [src.line_text(i) for i in range(src.line_count)] == lines


def test_bom_is_a_character_of_three_bytes(count_nws):
    src = SourceText("\ufeffdef f():\r\n\tpass\r\n".encode("utf-8"))
    assert src.text.startswith("\ufeff")
    assert src.byte_offset(1) == 3 and src.char_offset(3) == 1
    assert src.line_text(0) == "\ufeffdef f():"
    assert src.line_start(1) == len("\ufeffdef f():\r\n".encode("utf-8"))
    assert src.nws() == count_nws("\ufeffdef f():\r\n\tpass\r\n")  # U+FEFF is not whitespace


def test_empty_source():
    src = SourceText(b"")
    assert src.text == "" and src.line_count == 0 and src.nws() == 0 and src.chars() == 0
    assert src.lines() == 0 and src.char_offset(0) == 0 and src.byte_offset(0) == 0


# -- binary content ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "reason"),
    [(b"abc\x00def", "NUL"), (b"ok\n\xff\xfe bad", "invalid UTF-8 at byte 3"), (b"caf\xc3", "invalid UTF-8")],
)
def test_binary_content_is_refused_naming_the_file(data, reason):
    with pytest.raises(BinaryContentError) as info:
        SourceText(data, "pkg/blob.bin")
    assert "pkg/blob.bin" in str(info.value) and reason in str(info.value)
    assert info.value.path == "pkg/blob.bin"
    with pytest.raises(BinaryContentError):
        decode_source(data, "pkg/blob.bin")


def test_binary_error_is_a_value_error_and_clear_without_a_path():
    with pytest.raises(ValueError, match="not a text file"):
        SourceText(b"\x00")


# -- terminal cells ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "shown", "cells"),
    [
        ("ab", "ab", [0, 1, 2]),
        ("\tx", "    x", [0, 4, 5]),
        ("ab\tc", "ab  c", [0, 1, 2, 4, 5]),
        ("abcd\te", "abcd    e", [0, 1, 2, 3, 4, 8, 9]),
        ("中\tx", "中  x", [0, 2, 4, 5]),  # a wide char takes 2 cells, the tab fills to 4
        ("😀a", "😀a", [0, 2, 3]),
        ("e\u0301x", "e\u0301x", [0, 1, 1, 2]),  # a combining mark takes no cell
        ("ｗ", "ｗ", [0, 2]),  # fullwidth Latin
    ],
)
def test_display_line_cells(line, shown, cells):
    out, positions = display_line(line, tab_size=4)
    assert out == shown
    assert positions == cells
    assert cell_width(out) == positions[-1]


def test_display_line_tab_size():
    assert display_line("\t|", tab_size=8) == (" " * 8 + "|", [0, 8, 9])
    assert display_line("a\t|", tab_size=2) == ("a |", [0, 1, 2, 3])


@pytest.mark.parametrize("control", ["\x00", "\x07", "\x08", "\x1b", "\r", "\n", "\x0b", "\x0c", "\x7f", "\x85", "\x9b"])
def test_display_line_makes_control_characters_visible(control):
    out, cells = display_line(f"a{control}[31mb")
    assert control not in out
    assert out.startswith("a") and out.endswith("[31mb")
    assert len(out) == len("a?[31mb")  # one visible symbol in place of the control
    assert cells == list(range(len(out) + 1))  # each symbol takes one cell


def test_display_line_escape_sequence_cannot_reach_the_terminal():
    out, _ = display_line("\x1b[2J\x1b]0;title\x07")
    assert all(unicodedata.category(ch) != "Cc" for ch in out)


def test_display_line_replaces_line_separators_and_lone_surrogates():
    out, cells = display_line("a\u2028b\u2029c\ud800d")
    assert "\u2028" not in out and "\u2029" not in out and "\ud800" not in out
    assert len(out) == 7 and cells == list(range(8))


@FAST
@given(st.text(max_size=40), st.integers(1, 8))
def test_display_line_is_always_safe_and_cells_are_consistent(line, tab_size):
    out, cells = display_line(line, tab_size)
    assert len(cells) == len(line) + 1 and cells[0] == 0
    assert all(a <= b for a, b in zip(cells, cells[1:]))
    assert cells[-1] == cell_width(out)
    assert not re.search(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]", out)
    for i, ch in enumerate(line):
        if ch == "\t":  # a tab ends on the next tab stop
            assert cells[i + 1] % tab_size == 0 and 1 <= cells[i + 1] - cells[i] <= tab_size


def test_cell_width():
    assert cell_width("") == 0
    assert cell_width("abc") == 3
    assert cell_width("日本語") == 6
    assert cell_width("e\u0301") == 1
    assert cell_width("👩") == 2
