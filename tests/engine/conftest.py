"""Shared checks for the engine's invariants (lossless tiling, never over the limit, exact ranges).

``check_chunks`` recomputes everything a chunk claims from the source alone, with
no help from the engine: sizes from the chunk's text, line numbers by counting
line breaks, byte offsets by encoding. Line breaks are ``\\n``, ``\\r\\n`` and a
lone ``\\r`` (the engine's documented convention; ``str.splitlines`` also
splits at ``\\v``, ``\\f``, ``\\x1c``-``\\x1e``, ``\\x85``, U+2028 and U+2029,
which are ordinary characters for us).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from explorer import Chunk

LINE_BREAK = re.compile(r"\r\n|\r|\n")
WHITESPACE = " \t\n\r\x0b\x0c"
_DROP_WHITESPACE = str.maketrans("", "", WHITESPACE)

ENGINE_FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "engine"


def nws(text: str) -> int:
    """Code points not in `` \\t\\n\\r\\v\\f`` (the nws unit)."""
    return len(text.translate(_DROP_WHITESPACE))


def split_lines(text: str, keepends: bool = False) -> list[str]:
    """Lines at ``\\n``, ``\\r\\n`` and lone ``\\r`` only; a final break opens no new line."""
    lines, start = [], 0
    for m in LINE_BREAK.finditer(text):
        lines.append(text[start : m.end() if keepends else m.start()])
        start = m.end()
    if start < len(text):
        lines.append(text[start:])
    return lines


def independent_size(text: str, unit: str) -> int:
    if unit == "nws":
        return nws(text)
    if unit == "chars":
        return len(text)
    assert unit == "lines"
    return len(split_lines(text))


def is_blank(text: str) -> bool:
    return not text.translate(_DROP_WHITESPACE)


def check_chunks(
    source: str | bytes,
    chunks: Sequence[Chunk],
    *,
    max_size: int = 1500,
    size_unit: str = "nws",
    total: int | None = None,
    overlap_lines: int = 0,
    context_mode: str = "full",
) -> None:
    """Assert invariants 1, 2 and 4 and the shape of the sequence for one chunking.

    ``total`` is the expected ``total_chunks`` (``len(chunks)`` unless streaming)."""
    text = source.decode("utf-8") if isinstance(source, bytes) else source
    data = text.encode("utf-8")
    if is_blank(text):
        assert list(chunks) == [], "empty or whitespace-only input must give no chunks"
        return
    assert chunks, "a file with non-whitespace must give chunks"

    # 1. Lossless, in order, contiguous.
    assert "".join(c.text for c in chunks) == text, "the chunk texts do not rebuild the source"
    breaks = [m.end() for m in LINE_BREAK.finditer(text)]
    char_pos = byte_pos = 0
    expected_total = len(chunks) if total is None else total
    for i, c in enumerate(chunks):
        where = f"chunk {i} {c.text[:60]!r}"
        assert c.text, f"{where}: empty chunk"
        assert c.index == i, where
        assert c.total_chunks == expected_total, where
        assert (c.char_range.start, c.char_range.end) == (char_pos, char_pos + len(c.text)), where
        encoded = c.text.encode("utf-8")
        assert (c.byte_range.start, c.byte_range.end) == (byte_pos, byte_pos + len(encoded)), where
        assert data[c.byte_range.start : c.byte_range.end].decode("utf-8") == c.text, where
        assert text[c.char_range.start : c.char_range.end] == c.text, where
        char_pos, byte_pos = c.char_range.end, c.byte_range.end

        # 2. Never over the limit, and the size is what the text says.
        assert c.size_unit == size_unit, where
        assert c.size == independent_size(c.text, size_unit), f"{where}: size {c.size} disagrees with its text"
        assert c.size <= max_size, f"{where}: {c.size} {size_unit} > {max_size}"
        assert c.nws == nws(c.text), where

        # 4. Lines agree with chars (and so with bytes): the first line is the number
        # of line breaks before the chunk, the last the number before its last char.
        first = bisect_right(breaks, c.char_range.start)
        last = bisect_right(breaks, c.char_range.end - 1)
        assert (c.line_range.start, c.line_range.end) == (first, last), where

        # Overlap lives in overlap_text/contextualized_text only, never in text.
        if context_mode == "none":
            assert c.contextualized_text == c.text, where
            assert c.overlap_text == "", where
        else:
            assert c.contextualized_text.endswith(c.text), where
            expected = "".join(split_lines(chunks[i - 1].text, keepends=True)[-overlap_lines:]) if i and overlap_lines else ""
            assert c.overlap_text == expected, f"{where}: overlap is not the last {overlap_lines} lines of the previous chunk"
    assert (char_pos, byte_pos) == (len(text), len(data)), "the chunks stop before the end of the source"

    # Cut kinds: both sides of a cut agree; 'line' cuts fall at line starts, 'char'
    # cuts inside a line; no cut falls between the \r and \n of a CRLF.
    assert chunks[0].split_start is None and chunks[-1].split_end is None
    line_starts = {0, *breaks}
    for left, right in zip(chunks, chunks[1:]):
        cut = right.char_range.start
        assert left.split_end == right.split_start, f"chunks {left.index}/{right.index} disagree on their cut"
        assert not (text[cut - 1] == "\r" and text[cut] == "\n"), f"cut at char {cut} splits a CRLF"
        if right.split_start == "line":
            assert cut in line_starts, f"'line' cut at char {cut} is not at a line start"
        elif right.split_start == "char":
            assert cut not in line_starts, f"'char' cut at char {cut} is at a line start"


@pytest.fixture(scope="session")
def check() -> Callable[..., None]:
    """``check(source, chunks, **options)``: assert the invariants (see ``check_chunks``)."""
    return check_chunks


@pytest.fixture(scope="session")
def measure() -> Callable[[str, str], int]:
    """``measure(text, unit)``: a text's size in a unit, recomputed independently."""
    return independent_size


@pytest.fixture(scope="session")
def count_nws() -> Callable[[str], int]:
    return nws


@pytest.fixture(scope="session")
def lines_of() -> Callable[..., list[str]]:
    """``lines_of(text, keepends=False)``: lines at \\n, \\r\\n and lone \\r only."""
    return split_lines


@pytest.fixture(scope="session")
def engine_fixtures() -> Path:
    return ENGINE_FIXTURES
