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

from explorer.display import grid_label, recommendation_sentence
from explorer.engine.retrieval import HEADLINE_METRICS, Estimate, EvalResult, SettingEval
from explorer.engine.retrieval.recommend import Recommendation

from ..queries.model import no_queries
from ..queries.table import shown
from ..widgets.fits import FitsWidth

#: The measures shown: as many of the headline measures as the panel has room for.
WHISKER_METRICS = HEADLINE_METRICS[:4]
TRACK_WIDTH = 15
MIN_TRACK = 5

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
    """One row per setting, one whisker per measure (their tracks as wide as the pane allows),
    a legend, the reason for the advice and the queries that moved most (the evidence)."""
    if not result.queries:
        return Group(Text(no_queries(result), style=NOTE))
    return Group(FitsWidth(lambda width: _table(result, width)), *_notes(result, recommendation))


def _table(result: EvalResult, width: int) -> Table:
    low, high = scale_of(result)
    labels = [setting_label(result, setting) for setting in result.settings]
    fixed = len(str(len(result.settings))) + max([0, *map(len, labels)]) + 4
    per_measure = (width - fixed) // len(WHISKER_METRICS) - len(" 100.0 ref") - 2
    track_width = max(MIN_TRACK, min(TRACK_WIDTH, per_measure))
    table = Table(box=None, pad_edge=False, header_style="bold")
    table.add_column("#", justify="right", no_wrap=True)
    table.add_column(" ".join(name.replace("_", " ") for name in result.varied), no_wrap=True)
    for name in WHISKER_METRICS:
        table.add_column(name, no_wrap=True, overflow="crop")
    reference = result.settings[result.reference].index if result.settings else -1
    for setting in result.settings:
        is_reference = setting.index == reference
        cells = [Text(f"{setting.index + 1}"), Text(setting_label(result, setting))]
        for name in WHISKER_METRICS:
            mark, style = comparison_mark(setting, name, is_reference)
            estimate = setting.metrics[name]
            cell = Text(whisker(estimate, low, high, track_width),
                        style=NOT_SEPARATED if mark == NOT_SEPARATED_MARK else style)
            cell.append(f" {100 * estimate.value:5.1f} ")
            cell.append(f"{mark:<3}", style)
            cells.append(cell)
        table.add_row(*cells)
    return table


def _notes(result: EvalResult, recommendation: Recommendation | None) -> list[Text]:
    low, high = scale_of(result)
    reference = result.settings[result.reference].index if result.settings else -1
    sources = result.query_source.replace(",", ", ")
    notes = [
        Text(f"● mean, ├─┤ 95% bootstrap interval, on {100 * low:.0f}–{100 * high:.0f}% · "
             f"{len(result.queries):,} queries from {sources}, BM25, budget {result.config.budget:,} "
             f"{result.config.budget_unit}", style=NOTE),
        Text(f"ref: setting {reference + 1}, the reference · ▲ ▼ better / worse than it (paired 95% interval "
             f"excludes 0) · ≈ not separated from it (the interval includes 0)", style=NOTE),
    ]
    notes += [Text(f"Warning: {warning}", style=Style(color="#ffd670")) for warning in result.warnings]
    if recommendation is not None:
        notes += [Text(""), Text(recommendation_sentence(result, recommendation), style=BETTER)]
        if recommendation.evidence and recommendation.compared is not None:
            before = result.settings[recommendation.compared].index + 1
            after = result.settings[recommendation.setting].index + 1
            notes.append(Text(f"Queries that moved most, #{before} -> #{after} ({recommendation.measure}):",
                              style=NOTE))
            for moved in recommendation.evidence:
                ranks = f"rank {moved.rank_before or '-'} -> {moved.rank_after or '-'}"
                notes.append(Text(f"  {100 * moved.before:.0f}% -> {100 * moved.after:.0f}% ({ranks}): "
                                  f"“{shown(moved.text, 70)}” -> {shown(moved.path, 80)}:{moved.line}",
                                  style=NOTE, no_wrap=True, overflow="ellipsis"))
    return [Text(""), *notes]
