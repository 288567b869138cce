"""The repository view's file list: one row per file, its weighted score and its problems per kind."""

from __future__ import annotations

from rich.text import Text

from explorer.engine.measure.problems import PROBLEM_KINDS
from explorer.terminal_text import visible

from ..widgets.rows import RowList
from .model import RepositoryModel, ScannedFile

#: Column headers of the kinds (the kind names are longer than their counts).
KIND_HEADERS = {
    "split": "split", "dangling": "opener", "closer": "closer", "forced": "forced",
    "too-big": "big", "embedded": "embed", "tiny": "tiny",
}
CELL = 7  # width of a count column
LANGUAGE = 11


class FileRows(RowList):
    """Files with problems, in the model's order (worst first unless sorted otherwise)."""

    COMPONENT_CLASSES = RowList.COMPONENT_CLASSES | {"file-rows--count", "file-rows--chosen", "file-rows--muted"}

    DEFAULT_CSS = """
    FileRows {
        & > .file-rows--count { color: $text-warning; }
        & > .file-rows--chosen { color: $text-error; text-style: bold; }
        & > .file-rows--muted { color: $text-muted; }
    }
    """

    def __init__(self, model: RepositoryModel, *, id: str | None = None):
        super().__init__(id=id)
        self.model = model
        self.empty_message = "scanning…"

    @property
    def current(self) -> ScannedFile | None:
        rows = self.model.rows()
        return rows[self.cursor] if 0 <= self.cursor < len(rows) else None

    def header(self) -> str:
        kinds = "".join(f"{KIND_HEADERS[k]:>{CELL}}" for k in PROBLEM_KINDS)
        return f"{'score':>6}{kinds}  {'language':<{LANGUAGE}}path"

    def row(self, index: int) -> Text:
        file = self.model.rows()[index]
        style = self.get_component_rich_style
        counts = file.counts
        text = Text()
        text.append(f"{self.model.score(file):>6}")
        for kind in PROBLEM_KINDS:
            count = counts[kind]
            component = "file-rows--chosen" if kind == self.model.kind else "file-rows--count"
            text.append(f"{count if count else '·':>{CELL}}",
                        style(component if count else "file-rows--muted", partial=True))
        text.append(f"  {file.language[:LANGUAGE - 1]:<{LANGUAGE}}", style("file-rows--muted", partial=True))
        text.append(visible(file.rel))  # a name is data: one line, never markup
        return text
