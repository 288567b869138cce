"""One region a container search finds, and the line alignment every search gives its bounds."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class RegionSpec:
    """One embedded region: bytes ``[start, end)`` of the file, at line starts where the
    container allows. ``language`` None: not a language we parse (chunked by lines, ``note``
    says why). ``holes``: byte ranges inside it that are the container's, not the code's
    (a blockquote's ``>`` markers), left out of the parse."""

    start: int
    end: int
    language: str | None
    label: str
    note: str | None = None
    holes: tuple[tuple[int, int], ...] = ()
    #: Where the region's closing delimiter ends (the closing fence, ``</script>``): the
    #: container's text after the region is parsed without it, since alone it would open
    #: a new block (a lone fence) or be a stray end tag.
    closer: int = 0


def line_aligned(data: bytes, start: int, end: int) -> tuple[int, int]:
    """A region's bounds moved to line starts where only blanks separate them from one:
    the rest of an opening tag's line is not the code's, nor the indentation before a
    closing tag. Chunks of the region then start and end at line starts."""
    newline = data.find(b"\n", start, end)
    if newline >= 0 and not data[start:newline].strip():
        start = newline + 1
    line_start = data.rfind(b"\n", start, end) + 1
    if line_start > start and not data[line_start:end].strip():
        end = line_start
    return start, end
