"""The repository view's chunk list: every chunk with a problem across the repository, worst first.

One row per chunk: its score (the weights of its problems), where it is (path:line,
cut at its start when it must be), its number in the file, its kinds, and what is
wrong with its worst problem. Enter opens the file at that chunk.
"""

from __future__ import annotations

from rich.style import Style

from explorer.engine.measure.problems import PROBLEM_KINDS
from explorer.terminal_text import visible

from .columns import Column, cell, fitted, tail
from .fitted import FittedRows
from .model import ChunkRow

#: The place's narrowest width before other columns give way.
WHERE_MIN = 24
#: The kinds column's widest at 80 columns (a quarter of a wider row): a chunk with more
#: kinds is cut, its problems are listed below.
KINDS_MAX = 24
#: The room kept for what is wrong before the language column gives way.
WHAT_MIN = 16


def kinds_text(row: ChunkRow) -> str:
    """The chunk's kinds, worst first, each once (``dangling too-big``)."""
    return " ".join(kind for kind in PROBLEM_KINDS if any(p.kind == kind for p in row.problems))


class ChunkRows(FittedRows[ChunkRow]):
    """Chunks with problems, in the model's order."""

    BINDING_GROUP_TITLE = "Chunk list"

    COMPONENT_CLASSES = FittedRows.COMPONENT_CLASSES | {"chunk-rows--kind", "chunk-rows--muted"}

    DEFAULT_CSS = """
    ChunkRows {
        & > .chunk-rows--kind { color: $text-error; }
        & > .chunk-rows--muted { color: $text-muted; }
    }
    """

    def items(self) -> list[ChunkRow]:
        return self.model.chunk_rows()

    def fit(self, rows: list[ChunkRow], width: int) -> list[tuple[Column, int]]:
        wheres = [len(visible(f"{row.file.rel}:{row.line + 1}")) for row in rows]
        columns = [
            Column("score", max([5, *(len(str(row.score)) for row in rows)]), 100),
            Column("where", min(WHERE_MIN, max([5, *wheres])), 90, right=False, elastic=True,
                   widest=max([5, *wheres]), most=0.4),
            Column("chunk", max([5, *(len(str(row.chunk + 1)) for row in rows)]), 40),
            Column("kinds", min(max(KINDS_MAX, width // 4), max([5, *(len(kinds_text(row)) for row in rows)])), 80,
                   right=False),
            Column("language", max([8, *(len(row.file.language) for row in rows)]), 0, right=False),
            # Last: what is wrong, as long as the row allows (at least this much before others go).
            Column("what", WHAT_MIN, 50, right=False),
        ]
        return fitted(columns, max(1, width))

    def cell_of(self, item: ChunkRow, column: Column, width: int) -> tuple[str, Style | None]:
        style = self.get_component_rich_style
        if column.name == "score":
            return cell(str(item.score), width, True), None
        if column.name == "where":
            return tail(visible(f"{item.file.rel}:{item.line + 1}"), width), None  # names are data
        if column.name == "chunk":
            return cell(str(item.chunk + 1), width, True), style("chunk-rows--muted", partial=True)
        if column.name == "kinds":
            return cell(kinds_text(item), width, False), style("chunk-rows--kind", partial=True)
        if column.name == "language":
            return cell(item.file.language, width, False), style("chunk-rows--muted", partial=True)
        # What is wrong, the last column: as long as it is (the row is cut at the pane's edge).
        return visible(item.worst.detail), style("chunk-rows--muted", partial=True)  # quotes source
