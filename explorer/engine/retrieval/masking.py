"""Masking: replacing byte ranges of a file (its docs) and mapping offsets both ways.

Offsets are UTF-8 bytes, end exclusive, so the mapping is exact whatever the line
endings, tabs or non-ASCII text: an edit shifts every later offset by the
difference of its lengths. An offset inside a replaced range maps to the start of
its replacement (``to_masked``), and an offset inside a replacement maps to the
start, or for an end offset the end, of the range it replaced (``to_original``).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Edit:
    """Replace ``original[start:end]`` with ``replacement``."""

    start: int
    end: int
    replacement: bytes = b""


@dataclass(frozen=True, slots=True)
class MaskedSource:
    """A file's bytes before and after its edits (sorted, non-overlapping)."""

    original: bytes
    masked: bytes
    edits: tuple[Edit, ...]
    _starts: tuple[int, ...] = field(default=(), repr=False)  # original edit starts
    _masked_starts: tuple[int, ...] = field(default=(), repr=False)  # where each replacement starts
    _shifts: tuple[int, ...] = field(default=(), repr=False)  # total shift after each edit

    def to_masked(self, offset: int) -> int:
        """The masked offset of an original one (inside an edit: its replacement's start)."""
        k = bisect_right(self._starts, offset) - 1
        if k < 0:
            return offset
        return offset + self._shifts[k] if offset >= self.edits[k].end else self._masked_starts[k]

    def to_original(self, offset: int, *, end: bool = False) -> int:
        """The original offset of a masked one. A start offset at or inside a
        replacement maps to the start of what was replaced; an end offset there
        (``end=True``) to its end, except right at the replacement's start, so a
        range ending where a deleted doc was does not take the doc in."""
        k = bisect_right(self._masked_starts, offset) - 1
        if k < 0:
            return offset
        edit, start = self.edits[k], self._masked_starts[k]
        stop = start + len(edit.replacement)
        if start < offset < stop:
            return edit.end if end else edit.start
        if offset == start and (end or offset < stop):
            return edit.start
        return offset - self._shifts[k]


def mask(data: bytes, edits: Iterable[Edit]) -> MaskedSource:
    """Apply edits to ``data``. Overlapping edits keep the first (by start, then the
    longest); edits must lie within the data."""
    kept: list[Edit] = []
    for edit in sorted(edits, key=lambda e: (e.start, -e.end)):
        if not 0 <= edit.start <= edit.end <= len(data):
            raise ValueError(f"edit {edit.start}-{edit.end} outside 0-{len(data)}")
        if kept and edit.start < kept[-1].end:
            continue
        kept.append(edit)
    pieces: list[bytes] = []
    starts, masked_starts, shifts = [], [], []
    at = shift = 0
    for edit in kept:
        pieces.append(data[at : edit.start])
        masked_starts.append(edit.start + shift)
        pieces.append(edit.replacement)
        shift += len(edit.replacement) - (edit.end - edit.start)
        starts.append(edit.start)
        shifts.append(shift)
        at = edit.end
    pieces.append(data[at:])
    return MaskedSource(data, b"".join(pieces), tuple(kept), tuple(starts), tuple(masked_starts), tuple(shifts))
