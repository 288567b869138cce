"""The sweep's advice line: the setting the retrieval evaluation recommends and why, always
on screen (above the footer, at every terminal size).

It follows every change: a new sweep (evaluating …), the evaluation's end, and the
setting in use (``enter``, ``s``, ``a``, or a change in the explorer): the advice is
figured again for it, since it keeps the settings in use when nothing is better beyond
the noise.
"""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.style import Style
from rich.text import Text
from textual.widgets import Static

from explorer.display import grid_label

from ..queries.model import RetrievalRun, no_queries

ADVICE = Style(color="#87d787", bold=True)
WARNING = Style(color="#ffd670")
NOTE = Style(dim=True)


def advice_line(run: RetrievalRun) -> RenderableType:
    """The recommendation in one line, its reason in the next, and the evaluation's warning."""
    result, recommendation = run.result, run.recommendation
    warnings = [Text(f"⚠ {warning}", style=WARNING, no_wrap=True, overflow="ellipsis") for warning in result.warnings]
    if recommendation is None:
        return Group(Text(f"No advice. {no_queries(result)}", style=NOTE, no_wrap=True, overflow="ellipsis"),
                     *warnings)
    chosen = result.settings[recommendation.setting]
    measure = recommendation.measure
    value = f"{recommendation.measure} {100 * chosen.metrics[measure].value:.1f}%"
    name = f"#{chosen.index + 1} ({grid_label(chosen.options, result.varied)})"
    if recommendation.keep_current:
        head = f"Advice: keep your current settings, {name}: {value}"
    else:
        head = f"Advice: use {name}: {value}"
        if recommendation.compared is not None:
            compared = result.settings[recommendation.compared]
            head += f", against {100 * compared.metrics[measure].value:.1f}% for #{compared.index + 1}"
    line = Text(no_wrap=True, overflow="ellipsis")
    line.append(head, ADVICE)
    line.append("  a: use and save it" if not recommendation.keep_current else "", NOTE)
    reason = Text(recommendation.reason[:1].upper() + recommendation.reason[1:], style=NOTE, no_wrap=True,
                  overflow="ellipsis")
    return Group(line, reason, *warnings)


class AdviceLine(Static):
    """What to do, from the last evaluation (or what the evaluation is doing)."""

    DEFAULT_CSS = """
    AdviceLine { height: auto; max-height: 3; padding: 0 1; background: $boost; }
    """

    def show_run(self, run: RetrievalRun) -> None:
        self.update(advice_line(run))

    def show_note(self, text: str) -> None:
        self.update(Text(text, style=NOTE, no_wrap=True, overflow="ellipsis"))
