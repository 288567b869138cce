"""The repository view's file list: one row per file, its weighted score, its path and its problems per kind.

Columns are named as the kinds are (``dangling``, ``too-big``, ...) and as wide as what
they hold; the path comes right after the score and takes the room left, cut at its
start when it must be. On a narrow terminal the language goes first, then the kinds
no file has, then the least weighty kinds (the kind shown with ``f`` always stays).
"""

from __future__ import annotations

from rich.style import Style

from explorer.engine.measure.problems import WEIGHTS
from explorer.terminal_text import visible

from .columns import Column, cell, fitted, tail
from .fitted import FittedRows
from .model import ScannedFile

#: The path's narrowest width before other columns give way.
PATH_MIN = 24


class FileRows(FittedRows[ScannedFile]):
    """Files with problems, in the model's order (worst first unless sorted otherwise)."""

    BINDING_GROUP_TITLE = "File list"

    COMPONENT_CLASSES = FittedRows.COMPONENT_CLASSES | {"file-rows--count", "file-rows--chosen", "file-rows--muted"}

    DEFAULT_CSS = """
    FileRows {
        & > .file-rows--count { color: $text-warning; }
        & > .file-rows--chosen { color: $text-error; text-style: bold; }
        & > .file-rows--muted { color: $text-muted; }
    }
    """

    def items(self) -> list[ScannedFile]:
        return self.model.rows()

    def fit(self, rows: list[ScannedFile], width: int) -> list[tuple[Column, int]]:
        totals = self.model.totals()
        columns = [Column("score", max([5, *(len(f"{self.model.score(f):,}") for f in rows)]), 100)]
        paths = [len(visible(f.rel)) for f in rows]
        columns.append(Column("path", min(PATH_MIN, max([4, *paths])), 90, right=False, elastic=True,
                              widest=max([4, *paths])))
        for kind in self.model.kinds:
            keep = 80 if kind == self.model.kind else (10 + WEIGHTS[kind] if totals[kind] else 1)
            widest = max([0, *(len(f"{f.counts[kind]:,}") for f in rows)])
            columns.append(Column(kind, max(len(kind), widest), keep))
        columns.append(Column("language", max([8, *(len(f.language) for f in rows)]), 0, right=False))
        return fitted(columns, max(1, width))

    def cell_of(self, item: ScannedFile, column: Column, width: int) -> tuple[str, Style | None]:
        style = self.get_component_rich_style
        if column.name == "score":
            return cell(f"{self.model.score(item):,}", width, True), None
        if column.name == "path":
            return tail(visible(item.rel), width), None  # a name is data: one line, never markup
        if column.name == "language":
            return cell(item.language, width, False), style("file-rows--muted", partial=True)
        count = item.counts[column.name]
        component = "file-rows--chosen" if column.name == self.model.kind else "file-rows--count"
        return cell(f"{count:,}" if count else "·", width, True), style(component if count else "file-rows--muted",
                                                                        partial=True)
