"""The repository view's problem list: the problems of the file under the cursor, in source order."""

from __future__ import annotations

from rich.text import Text

from explorer.engine.measure.problems import Problem
from explorer.terminal_text import visible

from ..widgets.rows import RowList

KIND_WIDTH = 10


class ProblemRows(RowList):
    """One row per problem: line, chunk, kind, what is wrong and the source line it is on."""

    BINDING_GROUP_TITLE = "Problem list"

    COMPONENT_CLASSES = RowList.COMPONENT_CLASSES | {"problem-rows--kind", "problem-rows--excerpt"}

    DEFAULT_CSS = """
    ProblemRows {
        & > .problem-rows--kind { color: $text-error; }
        & > .problem-rows--excerpt { color: $text-accent; }
    }
    """

    def __init__(self, *, id: str | None = None):
        super().__init__(id=id)
        self.problems: list[Problem] = []
        self.empty_message = "no problems of the chosen kind"

    def show(self, problems: list[Problem], cursor: int = 0) -> None:
        self.problems = problems
        self.set_count(len(problems), cursor)

    @property
    def current(self) -> Problem | None:
        return self.problems[self.cursor] if 0 <= self.cursor < len(self.problems) else None

    def header(self) -> str:
        return f"{'line':>7}  {'chunk':>5}  {'kind':<{KIND_WIDTH}}what · source line"

    def row(self, index: int) -> Text:
        problem = self.problems[index]
        style = self.get_component_rich_style
        text = Text()
        text.append(f"{problem.line + 1:>7}  {problem.chunk + 1:>5}  ")
        text.append(f"{problem.kind:<{KIND_WIDTH}}", style("problem-rows--kind", partial=True))
        text.append(visible(problem.detail))  # quotes source text: never markup
        text.append(" · ")
        text.append(visible(problem.excerpt), style("problem-rows--excerpt", partial=True))
        return text
