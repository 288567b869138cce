"""The retrieval trade-off as the sweep shows it: recall@5 against each cost, ◆ on the
fronts, and each query source's own advice, a rich renderable. The cells are the CLI's
(:func:`explorer.display.tradeoff_rows`), so both faces agree point for point."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.style import Style
from rich.table import Table
from rich.text import Text

from explorer.display import front_summary, masked_note, source_advice_lines, tradeoff_rows
from explorer.engine.retrieval import EvalResult
from explorer.engine.retrieval.pareto import ParetoFront
from explorer.engine.retrieval.recommend import SourceAdvice

NOTE = Style(dim=True)
WARNING = Style(color="#ffd670")


def tradeoff_table(result: EvalResult, front: ParetoFront) -> RenderableType:
    """One row per setting: the measure with its interval, then each cost, ◆ on its front."""
    if not result.settings:
        return Text("")
    numbers = [s.index for s in result.settings]
    head, rows = tradeoff_rows(result.varied, [s.options for s in result.settings], numbers, front)
    table = Table(box=None, pad_edge=False, header_style="bold")
    for name in head:
        table.add_column(name, justify="right")
    for row in rows:
        table.add_row(*(Text(cell) for cell in row))
    unit = f"{front.unit} tokens" if front.unit != "nws" else "non-whitespace characters"
    notes: list[RenderableType] = [Text(f"Trade-off: {front.measure} against cost (in {unit}) · ◆ on the front: no other setting "
                  f"retrieves as well for less of that cost", style=Style(bold=True)), table,
             Text(front_summary(front, numbers), style=NOTE)]
    if masked_note(front):
        notes.append(Text(masked_note(front), style=NOTE))
    if front.note:
        notes.append(Text(front.note + ".", style=NOTE))
    return Group(*notes)


def advice_text(result: EvalResult, advice: Sequence[SourceAdvice], warning: str | None) -> RenderableType:
    """Each query source's recommendation, and the warning when they disagree."""
    lines = source_advice_lines(result.varied, advice, warning)
    return Group(*(Text(line, style=WARNING if line.startswith("Warning") else NOTE) for line in lines))
