"""What the repository view's two upper lists share: rows of the model, columns fitted to the width.

A subclass says which rows it lists (``items``), what columns they need (``fit``) and what
each cell holds (``cell_of``); the columns are figured once per list of rows and width
(every row drawn uses them).
"""

from __future__ import annotations

from typing import Generic, TypeVar

from rich.style import Style
from rich.text import Text

from ..widgets.rows import RowList
from .columns import Column, cell
from .model import RepositoryModel

Row = TypeVar("Row")


class FittedRows(RowList, Generic[Row]):
    """Rows of the repository model under a header of fitted columns."""

    def __init__(self, model: RepositoryModel, *, id: str | None = None):
        super().__init__(id=id)
        self.model = model
        self.empty_message = "scanning…"
        self._fitted: tuple[tuple[object, ...], list[tuple[Column, int]]] | None = None

    def items(self) -> list[Row]:
        raise NotImplementedError

    def fit(self, rows: list[Row], width: int) -> list[tuple[Column, int]]:
        raise NotImplementedError

    def cell_of(self, item: Row, column: Column, width: int) -> tuple[str, Style | None]:
        """The text of one cell, already ``width`` cells wide (the last column may be longer:
        the row is cut at the pane's edge), and its style."""
        raise NotImplementedError

    @property
    def current(self) -> Row | None:
        rows = self.items()
        return rows[self.cursor] if 0 <= self.cursor < len(rows) else None

    def columns(self) -> list[tuple[Column, int]]:
        """The columns shown, each with its width."""
        rows, width = self.items(), self.scrollable_content_region.width
        key = (id(rows), len(rows), width, self.model.kind, self.model.language, self.model.sort)
        if self._fitted is None or self._fitted[0] != key:
            self._fitted = (key, self.fit(rows, width))
        return self._fitted[1]

    def header(self) -> str:
        return " ".join(cell(column.name, width, column.right) for column, width in self.columns())

    def row(self, index: int) -> Text:
        item = self.items()[index]
        text = Text()
        for k, (column, width) in enumerate(self.columns()):
            if k:
                text.append(" ")
            shown, style = self.cell_of(item, column, width)
            text.append(shown, style)
        return text
