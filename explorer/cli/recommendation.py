"""The recommended setting of sweep --retrieval and eval: the ``--objective`` it optimises,
and how the recommendation prints (its lines, the setting and why, then the queries that moved
most, are :func:`explorer.display.recommendation_lines`)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from ..display import recommendation_lines
from ..engine.retrieval import EvalResult
from ..engine.retrieval.recommend import OBJECTIVES, Recommendation
from ..terminal_text import visible

if TYPE_CHECKING:  # rich is imported when there is something to print
    from rich.console import Console


def add_objective(parser: argparse.ArgumentParser | argparse._ArgumentGroup) -> None:
    """``--objective``: what the recommendation optimises."""
    parser.add_argument("--objective", choices=tuple(OBJECTIVES), default="top5",
                        help="what the recommended setting is best at: top5 (recall@5: you take the top 5 "
                             "chunks, the default) or budget (recall@budget: you fill --budget)")


def print_recommendation(console: Console, result: EvalResult, recommendation: Recommendation) -> None:
    from rich.text import Text

    console.print()
    for number, line in enumerate(recommendation_lines(result, recommendation)):
        # query texts and paths are data: printable characters only, never markup
        console.print(Text(visible(line), style="bold" if number == 0 else ""))

