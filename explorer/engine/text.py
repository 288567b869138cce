"""Source text and the one place where offsets are converted.

tree-sitter speaks UTF-8 bytes, Python ``str`` speaks code points, the terminal
speaks cells. Every conversion between them lives here, so the rest of the
engine can work in byte offsets and ask this module for anything else.

Lines are split at ``\\n``, ``\\r\\n`` and a lone ``\\r`` (as ``str.splitlines``
does for those three), so line numbers agree with ``text.splitlines()``.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass
from itertools import accumulate
from typing import TypeVar, cast

_T = TypeVar("_T")

#: Characters that are whitespace for the nws unit, and wherever code is told from blank
#: space (the one definition: the chunker, the quality measures and the explorer use it).
WHITESPACE = b" \t\n\r\x0b\x0c"
_WHITESPACE_CHARS = WHITESPACE.decode("ascii")
_WS_SET = frozenset(WHITESPACE)
_CONTINUATION = bytes(range(0x80, 0xC0))
_NWS_DELETE = WHITESPACE + _CONTINUATION
_BLOCK = 512  # prefix-count granularity: a size query scans at most this many bytes
_DIRECT = 256  # ranges up to this many bytes are counted directly

# Runs of UTF-8 characters of one width (2, 3 or 4 bytes), in valid UTF-8.
_WIDE_RUN = re.compile(rb"(?:[\xc0-\xdf][\x80-\xbf])+|(?:[\xe0-\xef][\x80-\xbf]{2})+|(?:[\xf0-\xf7][\x80-\xbf]{3})+")
_NON_ASCII = re.compile(rb"[\x80-\xff]+")
_ASCII_BLOCK = 1024  # non-ASCII text is searched for only in blocks that hold some


class BinaryContentError(ValueError):
    """The content is not text: NUL bytes or invalid UTF-8."""

    def __init__(self, path: str | None, reason: str):
        self.path = path
        self.reason = reason
        where = f"{path}: " if path else ""
        super().__init__(f"{where}not a text file ({reason})")


def decode_source(data: bytes, path: str | None = None) -> str:
    """Decode UTF-8 source, rejecting binary content with a message naming the file."""
    if b"\x00" in data:
        return _raise_binary(path, "contains NUL bytes")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return _raise_binary(path, f"invalid UTF-8 at byte {exc.start}")


def _raise_binary(path: str | None, reason: str) -> str:
    raise BinaryContentError(path, reason)


@dataclass(frozen=True, slots=True)
class _Run:
    char_start: int
    byte_start: int
    width: int
    count: int


def _line_starts(data: bytes) -> list[int]:
    """Byte offsets where lines start (after \\n, \\r\\n or a lone \\r; ``bytes.splitlines``
    breaks at exactly those three), the offset after a final line break included."""
    return list(accumulate(map(len, data.splitlines(keepends=True)), initial=0))


def _wide_runs(data: bytes) -> list[_Run]:
    """The runs of multi-byte characters of valid UTF-8, in order. Mostly-ASCII
    files (the usual source file) are skipped over a block at a time, in C."""
    runs: list[_Run] = []
    extra = 0  # bytes beyond one per character so far
    size, step = len(data), _ASCII_BLOCK
    i = 0
    while i < size:
        if data[i : i + step].isascii():
            i += step
            continue
        # Consecutive non-ASCII blocks; an ASCII block before and after means the
        # stretch starts and ends at character boundaries.
        j = i + step
        while j < size and not data[j : j + step].isascii():
            j += step
        for stretch in _NON_ASCII.finditer(data, i, min(j, size)):
            for m in _WIDE_RUN.finditer(data, *stretch.span()):
                start, end = m.span()
                lead = data[start]
                width = 2 if lead < 0xE0 else 3 if lead < 0xF0 else 4
                count = (end - start) // width
                runs.append(_Run(start - extra, start, width, count))
                extra += (width - 1) * count
        i = j
    return runs


class SourceText:
    """A file's bytes and text with O(log n) offset conversions and O(1)-ish sizes."""

    __slots__ = (
        "data", "text", "path", "_line_starts", "_plain_breaks", "_line_cursor",
        "_runs", "_run_chars", "_run_bytes", "_sizers", "_kept",
    )

    def __init__(self, source: str | bytes, path: str | None = None):
        if isinstance(source, str):
            self.text = source
            self.data = source.encode("utf-8", "surrogatepass")
        else:
            self.data = bytes(source)
            self.text = decode_source(self.data, path)
        self.path = path
        # Line starts are listed on first need; until then, with only \n breaks, lines are
        # found by searching the bytes, and line numbers by counting forward from the
        # last answer (the chunker asks in file order).
        self._line_starts: list[int] | None = None
        self._plain_breaks = b"\r" not in self.data
        self._line_cursor = (0, 0)  # (byte offset, its line)
        # Multi-byte character runs are listed on first need (pure ASCII: none): chunking
        # alone decodes each chunk's bytes instead, which costs less than listing them.
        self._runs: list[_Run] | None = None if len(self.data) != len(self.text) else []
        self._run_chars: list[int] = []
        self._run_bytes: list[int] = []
        self._sizers: dict[str, Callable[[int, int], int]] = {}
        self._kept: dict[object, object] = {}

    def __len__(self) -> int:
        return len(self.data)

    # -- bytes <-> code points -------------------------------------------------
    @property
    def is_ascii(self) -> bool:
        """Whether byte and code-point offsets are the same."""
        return len(self.data) == len(self.text)

    def _wide(self) -> list[_Run]:
        runs = self._runs
        if runs is None:
            runs = self._runs = _wide_runs(self.data)
            self._run_chars = [r.char_start for r in runs]
            self._run_bytes = [r.byte_start for r in runs]
        return runs

    def char_offset(self, byte: int) -> int:
        """Code-point offset of a byte offset (floored to the character's start)."""
        runs = self._runs if self._runs is not None else self._wide()
        if not runs:
            return byte
        k = bisect_right(self._run_bytes, byte) - 1
        if k < 0:
            return byte
        run = runs[k]
        run_bytes = run.width * run.count
        inside = byte - run.byte_start
        if inside < run_bytes:
            return run.char_start + inside // run.width
        return run.char_start + run.count + (inside - run_bytes)

    def byte_offset(self, char: int) -> int:
        """UTF-8 byte offset of a code-point offset."""
        runs = self._runs if self._runs is not None else self._wide()
        if not runs:
            return char
        k = bisect_right(self._run_chars, char) - 1
        if k < 0:
            return char
        run = runs[k]
        inside = char - run.char_start
        if inside < run.count:
            return run.byte_start + inside * run.width
        return run.byte_start + run.width * run.count + (inside - run.count)

    def is_char_boundary(self, byte: int) -> bool:
        return byte <= 0 or byte >= len(self.data) or not (0x80 <= self.data[byte] < 0xC0)

    def floor_char_boundary(self, byte: int) -> int:
        while not self.is_char_boundary(byte):
            byte -= 1
        return byte

    def slice(self, start: int, end: int) -> str:
        """The text of a byte range (both ends must be character boundaries)."""
        return self.text[self.char_offset(start) : self.char_offset(end)]

    # -- lines -------------------------------------------------------------------
    @property
    def line_starts(self) -> list[int]:
        """Byte offsets where lines start (a final line break opens no line)."""
        starts = self._line_starts
        if starts is None:
            starts = _line_starts(self.data)
            if starts[-1] == len(self.data) and len(starts) > 1:
                starts.pop()  # a final newline does not open a new line
            self._line_starts = starts
        return starts

    @property
    def line_count(self) -> int:
        return len(self.line_starts) if self.data else 0

    def line_of(self, byte: int) -> int:
        """0-based line holding a byte offset (an offset at a line start is on that line)."""
        if self._line_starts is None and self._plain_breaks and byte < len(self.data):
            at, line = self._line_cursor
            if byte >= at:
                line += self.data.count(b"\n", at, byte)
                self._line_cursor = (byte, line)
                return line
        return bisect_right(self.line_starts, byte) - 1

    def line_start_at(self, byte: int) -> int:
        """Byte offset where the line holding ``byte`` starts."""
        if self._plain_breaks and byte < len(self.data):
            return self.data.rfind(b"\n", 0, byte) + 1
        return self.line_starts[self.line_of(byte)]

    def line_end_at(self, byte: int) -> int:
        """Byte offset where the line holding ``byte`` ends, after its line break."""
        if self._plain_breaks and byte < len(self.data):
            found = self.data.find(b"\n", byte)
            return len(self.data) if found < 0 else found + 1
        return self.line_end(self.line_of(byte))

    def line_start(self, line: int) -> int:
        return self.line_starts[line]

    def line_end(self, line: int, *, keep_newline: bool = True) -> int:
        """Byte offset where a line ends: after its newline, or before it."""
        end = self.line_starts[line + 1] if line + 1 < len(self.line_starts) else len(self.data)
        if not keep_newline:
            while end > self.line_starts[line] and self.data[end - 1] in (10, 13):
                end -= 1
        return end

    def line_range(self, start: int, end: int) -> tuple[int, int]:
        """Inclusive 0-based first and last line of a byte range (end exclusive)."""
        first = self.line_of(start)
        return first, (self.line_of(end - 1) if end > start else first)

    def shown_line_range(self, start: int, end: int) -> tuple[int, int]:
        """Inclusive 0-based first and last line a reader sees a byte range on: those of
        its first and last non-whitespace characters (see :meth:`content_range`), as the
        source pane paints it and the syntax tree places a node; a piece's trailing blank
        lines are not its lines. The one rule every sentence that names lines follows."""
        return self.line_range(*self.content_range(start, end))

    def line_text(self, line: int) -> str:
        """One line without its line ending."""
        return self.slice(self.line_starts[line], self.line_end(line, keep_newline=False))

    def content_range(self, start: int, end: int) -> tuple[int, int]:
        """``[start, end)`` without the whitespace at its edges: what a chunk holds, to be
        compared with syntax nodes (a node ends at its last character, before the line
        break, and starts after its indentation). An all-whitespace range is returned as is."""
        data, blank = self.data, _WS_SET
        first, last = start, end
        while first < last and data[first] in blank:
            first += 1
        while last > first and data[last - 1] in blank:
            last -= 1
        return (first, last) if first < last else (start, end)

    def is_line_start(self, byte: int) -> bool:
        if byte <= 0 or byte >= len(self.data):
            return True
        if self._plain_breaks:
            return self.data[byte - 1] == 10
        return self.line_starts[self.line_of(byte)] == byte

    # -- sizes -------------------------------------------------------------------
    def nws(self, start: int = 0, end: int | None = None) -> int:
        """Non-whitespace code points in a byte range (whitespace is `` \\t\\n\\r\\v\\f``)."""
        return self.sizer("nws")(start, len(self.data) if end is None else end)

    def chars(self, start: int = 0, end: int | None = None) -> int:
        """Code points in a byte range."""
        return self.sizer("chars")(start, len(self.data) if end is None else end)

    def lines(self, start: int = 0, end: int | None = None) -> int:
        """Lines touched by a byte range."""
        end = len(self.data) if end is None else end
        if end <= start:
            return 0
        first, last = self.line_range(start, end)
        return last - first + 1

    def sizer(self, unit: str) -> Callable[[int, int], int]:
        """A fast ``size(start, end)`` function in one of the text units (``nws``, ``chars``,
        ``lines``), made once per unit and kept: the chunker's hot path. Sizes in tokens
        depend on a tokenizer too: see :class:`explorer.engine.sizing.Measure`."""
        size = self._sizers.get(unit)
        if size is None:
            if unit == "lines":
                size = self.lines
            elif unit in ("nws", "chars"):
                size = self._counter(_NWS_DELETE if unit == "nws" else _CONTINUATION)
            else:
                raise ValueError(f"{unit!r} is not a unit of the text alone (nws, chars, lines)")
            self._sizers[unit] = size
        return size

    def kept(self, key: object, make: Callable[[], _T]) -> _T:
        """What ``make()`` builds for this text, built once per ``key`` and kept with it (the
        measures built on a file: a tokenizer's counts of its stretches)."""
        found = self._kept.get(key)
        if found is None:
            found = self._kept[key] = make()
        return cast(_T, found)

    def _counter(self, delete: bytes) -> Callable[[int, int], int]:
        """``size(start, end)``: the bytes in the range that are not in ``delete``.

        Short ranges are counted directly; long ones from prefix counts per block
        of bytes (built on first use), plus the rest of the block up to each end.
        Those counts are memoised: the chunker asks about the same offsets often."""
        data = self.data
        prefix: list[int] = []
        memo: dict[int, int] = {}
        get = memo.get

        def upto(pos: int) -> int:
            known = get(pos)
            if known is None:
                if not prefix:
                    prefix.extend(accumulate(
                        (len(data[i : i + _BLOCK].translate(None, delete)) for i in range(0, len(data), _BLOCK)),
                        initial=0,
                    ))
                block = pos // _BLOCK
                known = memo[pos] = prefix[block] + len(data[block * _BLOCK : pos].translate(None, delete))
            return known

        def size(start: int, end: int) -> int:
            if end - start <= _DIRECT:  # a short range: counting it beats two prefix lookups
                return len(data[start:end].translate(None, delete))
            return upto(end) - upto(start)

        return size


_STR_NEWLINE = re.compile(r"\r\n|\r|\n")


def last_lines(text: str, count: int) -> str:
    """The last ``count`` lines of a ``str``, line breaks included (split as everywhere
    here: not at the other separators ``str.splitlines`` knows, such as ``\\f``)."""
    if count <= 0:
        return ""
    starts = [m.end() for m in _STR_NEWLINE.finditer(text)]
    if starts and starts[-1] == len(text):
        starts.pop()  # a final line break opens no line
    return text[starts[-count] :] if count <= len(starts) else text


def split_lines(text: str) -> list[str]:
    """``text.splitlines()`` at the line breaks used everywhere here (``\\r\\n``, ``\\r``,
    ``\\n``) only: a form feed, vertical tab or U+2028 stays inside its line."""
    lines = _STR_NEWLINE.split(text)
    if lines and lines[-1] == "":
        lines.pop()  # a final line break opens no line
    return lines


def nws_count(text: str) -> int:
    """Non-whitespace code points of a ``str`` (same whitespace set as :meth:`SourceText.nws`)."""
    return len(text) - sum(text.count(c) for c in _WHITESPACE_CHARS)


def line_count(text: str) -> int:
    """Lines of a ``str`` (split as :func:`split_lines` splits)."""
    return len(split_lines(text))


# -- terminal cells ----------------------------------------------------------------
_CONTROL_PICTURES = {i: chr(0x2400 + i) for i in range(0x20)}
_CONTROL_PICTURES[0x7F] = "\u2421"


def char_cells(ch: str) -> int:
    """Cells one (already sanitised) character takes in a terminal."""
    if ch < "\u0300":
        return 1
    if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me", "Cf"):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def cell_width(text: str) -> int:
    return sum(char_cells(c) for c in text)


def display_line(line: str, tab_size: int = 4) -> tuple[str, list[int]]:
    """Make one source line safe to show: tabs expanded, control characters as
    visible symbols. Returns the display string and, for each code point of
    ``line`` plus one past its end, the terminal cell where it starts."""
    out: list[str] = []
    cells: list[int] = []
    cell = 0
    for ch in line:
        cells.append(cell)
        if ch == "\t":
            width = tab_size - cell % tab_size
            out.append(" " * width)
            cell += width
            continue
        code = ord(ch)
        if code < 0x20 or code == 0x7F or 0x80 <= code < 0xA0:
            ch = _CONTROL_PICTURES.get(code, "\ufffd")
        elif code in (0x2028, 0x2029) or 0xD800 <= code < 0xE000:
            ch = "\ufffd"
        out.append(ch)
        cell += char_cells(ch)
    cells.append(cell)
    return "".join(out), cells
