"""Source text and the one place where offsets are converted.

tree-sitter speaks UTF-8 bytes, Python ``str`` speaks code points, the terminal
speaks cells. Every conversion between them lives here, so the rest of the
engine can work in byte offsets and ask this module for anything else.

Lines are split at ``\\n``, ``\\r\\n`` and a lone ``\\r`` (as ``str.splitlines``
does for those three), so line numbers agree with ``text.splitlines()``.
"""

from __future__ import annotations

import re
from itertools import accumulate
import unicodedata
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass

#: Characters that are whitespace for the nws unit (quality-metrics.md).
WHITESPACE = b" \t\n\r\x0b\x0c"
_CONTINUATION = bytes(range(0x80, 0xC0))
_NWS_DELETE = WHITESPACE + _CONTINUATION
_BLOCK = 512  # prefix-count granularity: a size query scans at most this many bytes

_NEWLINE = re.compile(rb"\r\n|\r|\n")
# Runs of non-ASCII characters of one UTF-8 width (2, 3 or 4 bytes).
_WIDE_RUN = re.compile("[\u0080-\u07ff]+|[\u0800-\uffff]+|[\U00010000-\U0010ffff]+")


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
    """Byte offsets where lines start (after \\n, \\r\\n or a lone \\r)."""
    if b"\r" in data:
        return [0] + [m.end() for m in _NEWLINE.finditer(data)]
    # The common case, in C: line lengths from split, summed (3x faster than a regex).
    return [0, *accumulate(len(line) + 1 for line in data.split(b"\n")[:-1])]


class SourceText:
    """A file's bytes and text with O(log n) offset conversions and O(1)-ish sizes."""

    __slots__ = ("data", "text", "path", "line_starts", "_runs", "_run_chars", "_run_bytes", "_prefix")

    def __init__(self, source: str | bytes, path: str | None = None):
        if isinstance(source, str):
            self.text = source
            self.data = source.encode("utf-8", "surrogatepass")
        else:
            self.data = bytes(source)
            self.text = decode_source(self.data, path)
        self.path = path
        self.line_starts = _line_starts(self.data)
        if self.line_starts[-1] == len(self.data) and len(self.line_starts) > 1:
            self.line_starts.pop()  # a final newline does not open a new line
        self._runs: list[_Run] = []
        if len(self.data) != len(self.text):
            extra = 0
            for m in _WIDE_RUN.finditer(self.text):
                width = len(m.group(0)[0].encode("utf-8", "surrogatepass"))
                start = m.start()
                self._runs.append(_Run(start, start + extra, width, m.end() - start))
                extra += (width - 1) * (m.end() - start)
        self._run_chars = [r.char_start for r in self._runs]
        self._run_bytes = [r.byte_start for r in self._runs]
        self._prefix: dict[bytes, tuple[list[int], dict[int, int]]] = {}

    def __len__(self) -> int:
        return len(self.data)

    # -- bytes <-> code points -------------------------------------------------
    def char_offset(self, byte: int) -> int:
        """Code-point offset of a byte offset (floored to the character's start)."""
        if not self._runs:
            return byte
        k = bisect_right(self._run_bytes, byte) - 1
        if k < 0:
            return byte
        run = self._runs[k]
        run_bytes = run.width * run.count
        inside = byte - run.byte_start
        if inside < run_bytes:
            return run.char_start + inside // run.width
        return run.char_start + run.count + (inside - run_bytes)

    def byte_offset(self, char: int) -> int:
        """UTF-8 byte offset of a code-point offset."""
        if not self._runs:
            return char
        k = bisect_right(self._run_chars, char) - 1
        if k < 0:
            return char
        run = self._runs[k]
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
    def line_count(self) -> int:
        return len(self.line_starts) if self.data else 0

    def line_of(self, byte: int) -> int:
        """0-based line holding a byte offset (an offset at a line start is on that line)."""
        return bisect_right(self.line_starts, byte) - 1

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

    def line_text(self, line: int) -> str:
        """One line without its line ending."""
        return self.slice(self.line_starts[line], self.line_end(line, keep_newline=False))

    def is_line_start(self, byte: int) -> bool:
        return byte == 0 or byte == len(self.data) or self.line_starts[self.line_of(byte)] == byte

    # -- sizes -------------------------------------------------------------------
    def _count(self, delete: bytes, start: int, end: int) -> int:
        """Bytes in [start, end) that are not in ``delete``, via block prefix counts.

        Counts up to each queried offset are memoised: the chunker asks about the
        same piece boundaries many times."""
        memo = self._prefix.get(delete)
        if memo is None:
            memo = self._prefix[delete] = ([0], {})
            prefix, data, total = memo[0], self.data, 0
            for i in range(0, len(data), _BLOCK):
                total += len(data[i : i + _BLOCK].translate(None, delete))
                prefix.append(total)
        return self._upto(memo, delete, end) - self._upto(memo, delete, start)

    def _upto(self, memo: tuple[list[int], dict[int, int]], delete: bytes, pos: int) -> int:
        known = memo[1].get(pos)
        if known is None:
            block = pos // _BLOCK
            known = memo[0][block] + len(self.data[block * _BLOCK : pos].translate(None, delete))
            memo[1][pos] = known
        return known

    def nws(self, start: int = 0, end: int | None = None) -> int:
        """Non-whitespace code points in a byte range (whitespace is `` \\t\\n\\r\\v\\f``)."""
        return self._count(_NWS_DELETE, start, len(self.data) if end is None else end)

    def chars(self, start: int = 0, end: int | None = None) -> int:
        """Code points in a byte range."""
        return self._count(_CONTINUATION, start, len(self.data) if end is None else end)

    def lines(self, start: int = 0, end: int | None = None) -> int:
        """Lines touched by a byte range."""
        end = len(self.data) if end is None else end
        if end <= start:
            return 0
        first, last = self.line_range(start, end)
        return last - first + 1

    def measure(self, unit: str, start: int, end: int) -> int:
        return self.sizer(unit)(start, end)

    def sizer(self, unit: str) -> Callable[[int, int], int]:
        """A fast ``size(start, end)`` function for one unit (the chunker's hot path)."""
        if unit == "lines":
            return self.lines
        delete = _NWS_DELETE if unit == "nws" else _CONTINUATION
        self._count(delete, 0, 0)  # builds the block prefix counts
        prefix, memo = self._prefix[delete]
        data = self.data
        get = memo.get

        def upto(pos: int) -> int:
            known = get(pos)
            if known is None:
                block = pos // _BLOCK
                known = memo[pos] = prefix[block] + len(data[block * _BLOCK : pos].translate(None, delete))
            return known

        def size(start: int, end: int) -> int:
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


def nws_count(text: str) -> int:
    """Non-whitespace code points of a ``str`` (same whitespace set as :meth:`SourceText.nws`)."""
    return len(text) - sum(text.count(c) for c in " \t\n\r\x0b\x0c")


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
