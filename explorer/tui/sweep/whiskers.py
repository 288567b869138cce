"""The retrieval measures per setting as interval whiskers, a rich renderable.

Each cell is a track on one shared scale: ``├──●───┤`` is the mean (●) and its 95%
bootstrap interval; after it the value in % and the comparison with the reference
setting: ▲ or ▼ when the paired difference's interval excludes 0 (a real
difference), ≈ when it includes 0 (not separated from the reference).
"""

from __future__ import annotations

import math

from rich.console import Group
from rich.style import Style
from rich.table import Table
from rich.text import Text

from explorer.display import grid_label
from explorer.engine.retrieval import HEADLINE_METRICS, Estimate, EvalResult, SettingEval
from explorer.engine.retrieval.recommend import Recommendation

from ..queries.model import no_queries

#: The measures shown: as many of the headline measures as the panel has room for.
WHISKER_METRICS = HEADLINE_METRICS[:4]
TRACK_WIDTH = 15

REFERENCE_MARK, BETTER_MARK, WORSE_MARK, NOT_SEPARATED_MARK = "ref", "▲", "▼", "≈"
REFERENCE = Style(color="#70d6ff", bold=True)
BETTER = Style(color="#87d787", bold=True)
WORSE = Style(color="#ff875f", bold=True)
NOT_SEPARATED = Style(dim=True)
NOTE = Style(dim=True)


def scale_of(result: EvalResult) -> tuple[float, float]:
    """The shared scale: every interval shown, widened to tenths (at least 0.1 wide)."""
    values = [e for s in result.settings for name in WHISKER_METRICS for e in (s.metrics[name].low, s.metrics[name].high)]
    if not values:
        return 0.0, 1.0
    low = max(0.0, math.floor(min(values) * 10) / 10)
    high = min(1.0, math.ceil(max(values) * 10) / 10)
    if high - low < 0.1:
        low, high = max(0.0, high - 0.1), max(high, 0.1)
    return low, high


def whisker(estimate: Estimate, low: float, high: float, width: int = TRACK_WIDTH) -> str:
    """``├──●───┤`` placed on a track of ``width`` cells spanning [low, high]."""

    def cell(value: float) -> int:
        return max(0, min(width - 1, round((value - low) / (high - low) * (width - 1))))

    start, middle, end = cell(estimate.low), cell(estimate.value), cell(estimate.high)
    track = [" "] * width
    for k in range(start, end + 1):
        track[k] = "─"
    if end > start:
        track[start], track[end] = "├", "┤"
    track[middle] = "●"
    return "".join(track)


def comparison_mark(setting: SettingEval, metric: str, is_reference: bool) -> tuple[str, Style]:
    """How the setting compares with the reference on one measure: ref, ▲, ▼ or ≈."""
    if is_reference:
        return REFERENCE_MARK, REFERENCE
    delta = setting.delta[metric]
    if not delta.separated:
        return NOT_SEPARATED_MARK, NOT_SEPARATED
    return (BETTER_MARK, BETTER) if delta.value > 0 else (WORSE_MARK, WORSE)


def setting_label(result: EvalResult, setting: SettingEval) -> str:
    """The setting by the fields that vary in the grid (``500``, ``1,000 · lines``)."""
    return grid_label(setting.options, result.varied)


def whisker_chart(result: EvalResult, recommendation: Recommendation | None = None) -> Group:
    """One row per setting, one whisker per measure, a legend, and the recommended setting."""
    if not result.queries:
        return Group(Text(no_queries(result), style=NOTE))
    low, high = scale_of(result)
    table = Table(box=None, pad_edge=False, header_style="bold")
    table.add_column("#", justify="right")
    table.add_column(" ".join(name.replace("_", " ") for name in result.varied))
    for name in WHISKER_METRICS:
        table.add_column(name)
    reference = result.settings[result.reference].index if result.settings else -1
    for setting in result.settings:
        is_reference = setting.index == reference
        cells = [Text(f"{setting.index + 1}"), Text(setting_label(result, setting))]
        for name in WHISKER_METRICS:
            mark, style = comparison_mark(setting, name, is_reference)
            estimate = setting.metrics[name]
            cell = Text(whisker(estimate, low, high), style=NOT_SEPARATED if mark == NOT_SEPARATED_MARK else style)
            cell.append(f" {100 * estimate.value:5.1f} ")
            cell.append(mark, style)
            cells.append(cell)
        table.add_row(*cells)
    notes = [
        Text(f"● mean, ├─┤ 95% bootstrap interval, on {100 * low:.0f}–{100 * high:.0f}% · "
             f"{len(result.queries):,} queries from {result.query_source}, BM25, budget {result.config.budget:,} "
             f"{result.config.budget_unit}", style=NOTE),
        Text(f"ref: setting {reference + 1}, the reference · ▲ ▼ better / worse than it (paired 95% interval "
             f"excludes 0) · ≈ not separated from it (the interval includes 0)", style=NOTE),
    ]
    notes += [Text(f"Warning: {warning}", style=Style(color="#ffd670")) for warning in result.warnings]
    if recommendation is not None:
        chosen = result.settings[recommendation.setting]
        head = ("Keep your current settings" if recommendation.keep_current
                else f"Recommended for the top 5: setting {chosen.index + 1} ({setting_label(result, chosen)})")
        advice = Text(f"{head} · a: use and save it", style=BETTER)
        notes += [Text(""), advice, Text(recommendation.reason, style=NOTE)]
    return Group(table, Text(""), *notes)
