"""The file finder's matches: paths under the explored directory, best match first."""

from __future__ import annotations

from rich.text import Text

from explorer.terminal_text import visible

from ..rows import RowList


class FileMatches(RowList):
    """Matching paths with the matched letters highlighted."""

    BINDING_GROUP_TITLE = "Files found"

    COMPONENT_CLASSES = RowList.COMPONENT_CLASSES | {"file-matches--letter"}

    DEFAULT_CSS = """
    FileMatches {
        & > .file-matches--letter { color: $text-accent; text-style: bold underline; }
    }
    """

    def __init__(self, *, id: str | None = None):
        super().__init__(id=id)
        self.matches: list[tuple[str, float, list[int]]] = []
        self.total = 0
        self.empty_message = "no file matches"

    def show(self, matches: list[tuple[str, float, list[int]]], total: int) -> None:
        self.matches = matches
        self.total = total
        self.set_count(len(matches), 0)

    @property
    def current(self) -> str | None:
        return self.matches[self.cursor][0] if 0 <= self.cursor < len(self.matches) else None

    def header(self) -> str:
        return f" {len(self.matches):,} of {self.total:,} files"

    def row(self, index: int) -> Text:
        path, _, positions = self.matches[index]
        text = Text(" " + visible(path))  # a name is data: one line, never markup
        letter = self.get_component_rich_style("file-matches--letter", partial=True)
        for k in positions:
            text.stylize(letter, k + 1, k + 2)
        return text
