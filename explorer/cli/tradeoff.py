"""What sweep --retrieval and eval print of the trade-off: recall@5 against each cost, ◆ on
the fronts, the fronts cheapest first, where the recommendation sits; and each query
source's own advice. The cells are :func:`explorer.display.tradeoff_rows`, which the
explorer's sweep draws too."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..display import front_summary, masked_note, source_advice_lines, tradeoff_heading, tradeoff_rows
from ..engine.retrieval import EvalResult
from ..engine.retrieval.pareto import ParetoFront
from ..engine.retrieval.recommend import SourceAdvice
from ..terminal_text import visible

if TYPE_CHECKING:  # rich is imported when there is something to print
    from rich.console import Console


def print_tradeoff(console: Console, result: EvalResult, front: ParetoFront) -> None:
    from rich.table import Table
    from rich.text import Text

    if not result.settings:
        return
    console.print()
    console.print(Text(tradeoff_heading(front), style="bold"))
    numbers = [s.index for s in result.settings]
    head, rows = tradeoff_rows(result.varied, [s.options for s in result.settings], numbers, front)
    table = Table(box=None, header_style="bold", pad_edge=False)
    for name in head:
        table.add_column(name, justify="right")
    for row in rows:
        table.add_row(*(Text(cell) for cell in row))
    console.print(table)
    console.print(Text(front_summary(front, numbers), style="dim"))
    if masked_note(front):
        console.print(Text(masked_note(front), style="dim"))
    if front.note:
        console.print(Text(visible(front.note) + ".", style="dim"))


def print_source_advice(console: Console, result: EvalResult, advice: list[SourceAdvice],
                        warning: str | None) -> None:
    """Each source's recommendation, and the warning when they disagree (in yellow)."""
    from rich.text import Text

    for line in source_advice_lines(result.varied, advice, warning):
        console.print(Text(visible(line), style="yellow" if line.startswith("Warning") else ""))
