"""The selected chunk in full: where it is, its size and cuts, and its contextualized text."""

from __future__ import annotations

from rich.style import Style

from explorer.display import plural
from explorer.engine.model import Chunk
from explorer.engine.text import split_lines

from ..text_pane import Line, TextPane

HEADER = Style(bold=True)
MUTED = Style(dim=True)
WARN = Style(color="#ff875f", bold=True)
RULE = Style(dim=True)

_CUT_WORDS = {None: "clean", "line": "inside a token, at a line end", "char": "inside a long line"}


def describe_chunk(chunk: Chunk, max_size: int) -> list[Line]:
    """Header lines for a chunk, then its contextualized text."""
    lines: list[Line] = []
    total = chunk.total_chunks if chunk.total_chunks >= 0 else "?"
    lines.append(
        (
            f"Chunk {chunk.index + 1} of {total}  ·  lines {chunk.line_range.start + 1}-{chunk.line_range.end + 1}"
            f"  ·  bytes {chunk.byte_range.start}-{chunk.byte_range.end}",
            HEADER,
        )
    )
    over = chunk.size > max_size
    lines.append(
        (
            f"size {chunk.size}/{max_size} {chunk.size_unit}{'  OVER THE LIMIT' if over else ''}"
            + ("" if chunk.size_unit == "nws" else f"  ·  {chunk.nws} nws")
            + f"  ·  {chunk.char_range.end - chunk.char_range.start} chars",
            WARN if over else MUTED,
        )
    )
    if chunk.forced_split:
        lines.append(
            (f"cut at start: {_CUT_WORDS.get(chunk.split_start)}  ·  at end: {_CUT_WORDS.get(chunk.split_end)}", WARN)
        )
    scope = [e.name for e in chunk.context.scope]
    if scope:
        lines.append(("scope: " + " < ".join(str(s) for s in scope), MUTED))
    if chunk.fallback_reason:
        lines.append((f"line-based: {chunk.fallback_reason}", MUTED))
    if chunk.overlap_text:
        count = len(split_lines(chunk.overlap_text))
        lines.append((f"overlap: {plural(count, 'line')} repeated from the chunk before", MUTED))
    lines.append(("── contextualized text " + "─" * 40, RULE))
    lines.extend((line, None) for line in split_lines(chunk.contextualized_text))
    return lines


class ChunkDetail(TextPane):
    """Detail of one chunk."""

    BINDING_GROUP_TITLE = "Chunk text"

    shown: Chunk | None = None

    #: Shown while no chunk is selected: the explorer's keys that step through the chunks.
    EMPTY_HINT = "Select a chunk: . is the next, , the previous, or pick one in the list above."

    def show_chunk(self, chunk: Chunk | None, max_size: int) -> None:
        self.shown = chunk
        if chunk is None:
            self.set_lines([(self.EMPTY_HINT, MUTED)])
        else:
            self.set_lines(describe_chunk(chunk, max_size))
