"""Sizes in the chunk size units: one :class:`Measure` per setting, built once.

A setting's ``size_unit`` and ``tokenizer`` together say how a size is measured: in the
text units (``nws``: non-whitespace code points, ``chars``: code points, ``lines``: lines
touched) from the text alone (:meth:`~explorer.engine.text.SourceText.sizer`), in
``tokens`` with the tokenizer's counts. :func:`measure_for` (``ChunkOptions.measure``)
gives the one measure of a unit and tokenizer: the range sizes of a file
(:meth:`Measure.sizer`, the chunker's hot path), the exact size of a text
(:attr:`Measure.text`), and what the fitting needs of a tokenizer. With a tokenizer and
another unit, the measure still holds the counter: chunks report their token counts.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable
from functools import lru_cache
from itertools import accumulate
from typing import Literal, get_args

from .text import SourceText, line_count, nws_count
from .tokens import ENCODINGS, TokenCounter, TokenizerError, get_counter

#: The chunk size units.
SizeUnit = Literal["nws", "chars", "lines", "tokens"]
SIZE_UNITS: tuple[SizeUnit, ...] = get_args(SizeUnit)

#: A line start (after its ``\n``) that is a clean join for token counts: the first character
#: after the indentation is no whitespace nor a separator Python counts as whitespace
#: (``\x1c``-``\x1f``); past ASCII the character is checked once decoded. For encodings with
#: ``slash_joins`` (see engine/tokens.py), not a ``/`` right at the line start either.
_CLEAN_LINE = re.compile(rb"\n[ \t]*(?=[\x00-\x08\x0e-\x1b\x21-\xff])")
_CLEAN_LINE_NO_SLASH = re.compile(rb"\n(?:[ \t]+(?=[\x00-\x08\x0e-\x1b\x21-\xff])|(?=[\x00-\x08\x0e-\x1b\x21-\x2e\x30-\xff]))")

_TEXT_MEASURES: dict[str, Callable[[str], int]] = {"nws": nws_count, "chars": len, "lines": line_count}


class Measure:
    """How sizes are measured under one setting: its unit, and its tokenizer's counter.

    ``counter`` is the tokenizer's (None without one), whatever the unit; ``tokens``: the
    unit is tokens. ``additive``: sizes add up over adjacent ranges (not so for lines,
    which a shared line counts in both, nor for tokens, which merge across a cut).
    ``text(s)``: the exact size of a ``str`` (tokens: the tokenizer's count, special tokens
    included); ``piece(s)``: the same without the special tokens a Hugging Face tokenizer
    adds around a whole input (``special`` of them), for sums of pieces.
    ``clean_joins``: in tokens, range sizes are exact (see :func:`_token_sizer`)."""

    __slots__ = ("additive", "clean_joins", "counter", "piece", "slash_joins", "special", "text", "tokens", "unit")

    def __init__(self, unit: SizeUnit, counter: TokenCounter | None):
        self.unit: SizeUnit = unit
        self.counter = counter
        self.tokens = unit == "tokens"
        self.additive = unit not in ("lines", "tokens")
        if self.tokens:
            if counter is None:
                raise tokens_need_a_tokenizer()
            self.text: Callable[[str], int] = counter.count
            self.piece: Callable[[str], int] = counter.count_piece
            self.clean_joins = counter.clean_joins
            self.slash_joins = counter.slash_joins
            self.special = counter.special
        else:
            self.text = self.piece = _TEXT_MEASURES[unit]
            self.clean_joins = False
            self.slash_joins = True
            self.special = 0

    def sizer(self, src: SourceText) -> Callable[[int, int], int]:
        """A fast ``size(start, end)`` of byte ranges of ``src`` in this unit, made once per
        file and kept with it."""
        counter = self.counter
        if not self.tokens or counter is None:
            return src.sizer(self.unit)
        return src.kept(("tokens", counter.name), lambda: _token_sizer(src, counter))

    def size(self, src: SourceText, start: int, end: int) -> int:
        """The size of bytes ``[start, end)`` of ``src``."""
        return self.sizer(src)(start, end)

    def __repr__(self) -> str:
        return f"Measure({self.unit!r}, {self.counter.name if self.counter else None!r})"


def tokens_need_a_tokenizer() -> TokenizerError:
    """The error of a tokens unit without a tokenizer: what to set."""
    return TokenizerError(
        "size_unit 'tokens' needs a tokenizer: set tokenizer to an encoding name "
        f"({', '.join(ENCODINGS)}) or to the path of the model's tokenizer.json"
    )


def measure_for(unit: SizeUnit, tokenizer: str | None) -> Measure:
    """The measure of a unit with a tokenizer (None: without), built once per pair. Raises
    :class:`~explorer.engine.tokens.TokenizerError` for a tokenizer that cannot be used."""
    return _measure(unit, tokenizer)


@lru_cache(maxsize=64)
def _measure(unit: SizeUnit, tokenizer: str | None) -> Measure:
    return Measure(unit, get_counter(tokenizer) if tokenizer is not None else None)


def _token_sizer(src: SourceText, counter: TokenCounter) -> Callable[[int, int], int]:
    """``size(start, end)`` in tokens, from counts made once per stretch of the file.

    The file is cut into stretches at line starts where counts add up: for encodings
    with ``clean_joins``, every line start whose line has a non-blank character (see
    :func:`explorer.engine.tokens.starts_clean`), so a size is exact: the sum of the
    whole stretches inside the range, plus the counts of its partial first and last
    stretches (counted when asked, remembered). For other tokenizers the stretches are
    lines and a size is an estimate (tokens can merge across a line break), close to
    the count of the range's text: callers that promise a limit count their final text
    exactly (see engine/fit.py)."""
    data = src.data
    count = counter.count_piece
    ascii_text = src.text if src.is_ascii else None
    bounds, firsts = _token_stretches(src, counter.clean_joins, counter.slash_joins)
    prefix: list[int] = []
    memo: dict[tuple[int, int], int] = {}

    def text_of(start: int, end: int) -> str:
        if ascii_text is not None:
            return ascii_text[start:end]
        # A binary search may ask about a range ending inside a character: its bytes are left out.
        return data[start:end].decode("utf-8", "ignore")

    def build() -> None:
        if ascii_text is not None:
            counts = [count(ascii_text[a:b]) for a, b in zip(bounds, bounds[1:])]
        else:
            counts = [count(data[a:b].decode("utf-8", "surrogatepass")) for a, b in zip(bounds, bounds[1:])]
        prefix.extend(accumulate(counts, initial=0))

    def part(start: int, end: int) -> int:
        found = memo.get((start, end))
        if found is None:
            found = memo[start, end] = count(text_of(start, end))
        return found

    def size(start: int, end: int) -> int:
        if end <= start:
            return 0
        if not prefix:
            build()
        first = bisect_left(bounds, start)  # the first stretch edge at or after start
        last = bisect_right(bounds, end) - 1  # the last at or before end...
        if bounds[last] != end and firsts[last] >= end:
            last -= 1  # ...whose line's first character is in the range (else it is no clean join)
        if last <= first:
            return part(start, end)
        total = prefix[last] - prefix[first]
        if bounds[first] != start:
            total += part(start, bounds[first])
        if bounds[last] != end:
            total += part(bounds[last], end)
        return total

    return size


def _token_stretches(src: SourceText, clean_joins: bool, slash_joins: bool = True) -> tuple[list[int], list[int]]:
    """The edges of the stretches :func:`_token_sizer` counts (the file's start and end
    included) and, for each, where its line's first non-blank character is."""
    data, size = src.data, len(src.data)
    if not clean_joins:
        starts = src.line_starts
        return [*starts, size], [*starts, size]
    # Each line after a \n whose first character after its indentation can start a clean
    # join (a line after a lone \r is none), found in C: a loop over every line costs more
    # than counting the file's tokens.
    found = (_CLEAN_LINE_NO_SLASH if slash_joins else _CLEAN_LINE).finditer(data)
    edges = [(match.start() + 1, match.end()) for match in found]
    if not src.is_ascii:  # past ASCII, the character decides (U+3000 is a space)
        edges = [(start, at) for start, at in edges
                 if data[at] < 0x80 or not data[at : at + 4].decode("utf-8", "ignore")[:1].isspace()]
    bounds = [0, *(start for start, _ in edges), size]
    firsts = [0, *(at for _, at in edges), size]
    return bounds, firsts


# -- one size in another unit ---------------------------------------------------------------
#: How big code is in each unit per non-whitespace character, measured over Werkzeug
#: 3.1.3, the src/ of @tanstack/query-core 5.62.0 and the standard library (tokens with
#: cl100k_base; the three agree within 10%): what a size is converted by when the file at
#: hand is too small to measure its own ratio.
TYPICAL_PER_NWS: dict[SizeUnit, float] = {"nws": 1.0, "chars": 1.42, "lines": 0.042, "tokens": 0.33}


class SizeInUnit:
    """A size converted to another unit: the new ``size``, the ``ratio`` it was converted
    by (new units per old unit) and whether that ratio was ``measured`` on a file (else
    it is :data:`TYPICAL_PER_NWS`'s)."""

    __slots__ = ("measured", "ratio", "size")

    def __init__(self, size: int, ratio: float, measured: bool):
        self.size, self.ratio, self.measured = size, ratio, measured

    def __repr__(self) -> str:
        return f"SizeInUnit({self.size}, ratio={self.ratio:.3g}, measured={self.measured})"


def size_in_unit(size: int, old: Measure, new: Measure, source: SourceText | None = None) -> SizeInUnit:
    """``size`` in ``old``'s unit as about as much text in ``new``'s: by the ratio of the
    two measures over ``source`` when it holds at least ``size`` (a chunk's worth of text:
    a smaller file says little about the code), else by the typical ratio of code. The
    result keeps two significant digits (1,500 nws is about 500 tokens, not 493) and is at
    least 1."""
    ratio, measured = TYPICAL_PER_NWS[new.unit] / TYPICAL_PER_NWS[old.unit], False
    if source is not None and old.unit != new.unit:
        end = len(source.data)
        before = old.size(source, 0, end)
        after = new.size(source, 0, end)
        if before >= size and after > 0:
            ratio, measured = after / before, True
    if old.unit == new.unit:
        return SizeInUnit(size, 1.0, measured)
    return SizeInUnit(_two_digits(size * ratio), ratio, measured)


def _two_digits(value: float) -> int:
    if value < 1:
        return 1
    digits = len(str(int(value)))
    return max(1, int(round(value, 2 - digits)))
