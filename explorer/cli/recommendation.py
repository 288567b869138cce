"""The recommended setting of sweep --retrieval and eval: the ``--objective`` it optimises,
and how the recommendation prints (the setting and why, then the queries that moved most)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

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


def recommendation_lines(result: EvalResult, recommendation: Recommendation) -> list[str]:
    """The recommendation as the CLI prints it: the setting and why, then the evidence."""
    chosen = result.settings[recommendation.setting]
    label = chosen.label(result.varied)
    head = "Keep your current settings" if recommendation.keep_current else f"Recommended: #{chosen.index + 1}"
    lines = [f"{head} ({label}; {chosen.chunks:,} chunks) for --objective {recommendation.objective}: "
             f"{recommendation.reason}."]
    if recommendation.evidence and recommendation.compared is not None:
        other = result.settings[recommendation.compared]
        lines.append(f"Queries that moved most, #{other.index + 1} -> #{chosen.index + 1} ({recommendation.measure}):")
        for moved in recommendation.evidence:
            ranks = f"rank {_rank(moved.rank_before)} -> {_rank(moved.rank_after)}"
            text = " ".join(moved.text.split())
            text = text if len(text) <= 70 else text[:69] + "…"
            lines.append(f"  {100 * moved.before:.0f}% -> {100 * moved.after:.0f}% ({ranks}): {text!r} -> "
                         f"{moved.path}:{moved.line}")
    return lines


def print_recommendation(console: Console, result: EvalResult, recommendation: Recommendation) -> None:
    from rich.text import Text

    console.print()
    for number, line in enumerate(recommendation_lines(result, recommendation)):
        # query texts and paths are data: printable characters only, never markup
        console.print(Text(visible(line), style="bold" if number == 0 else ""))


def _rank(rank: int | None) -> str:
    return "-" if rank is None else str(rank)
