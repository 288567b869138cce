"""The report's plots, drawn by matplotlib into SVG that the page inlines.

matplotlib because it works offline with nothing but its wheel, draws intervals
(``errorbar``) and fronts as they are meant, and writes SVG whose text stays text
(``svg.fonttype = none``): a figure weighs a few tens of kB, where a plotting library
that ships its JavaScript would add megabytes to every report. No pyplot: each figure is
a :class:`~matplotlib.figure.Figure` of its own (no global state, safe in any thread).
The SVG is made reproducible (no date, fixed ids), so the same run gives the same file.

Every interval's group of lines carries an id (``intervals-<measure>``), and every
front's line ``front-<cost>``: the page's tests find them by it.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, cast

from ..display import byte_unit, format_pct

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from ..engine.measure.sweep import SweepResult
    from ..engine.retrieval import EvalResult
    from ..engine.retrieval.pareto import ParetoFront

#: Colours of the settings' points and bars (colour-blind safe, Okabe and Ito).
INK = "#1f3b57"
ACCENT = "#d55e00"
FRONT = "#0072b2"
MUTED = "#8a96a3"

_STYLE: dict[str, Any] = {
    "svg.fonttype": "none",  # text as text: small, searchable, crisp
    "svg.hashsalt": "chunk-explorer",  # the same ids every run
    "font.family": ["DejaVu Sans", "sans-serif"],
    "font.size": 9.0,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.edgecolor": "#5b6b7a",
    "axes.labelcolor": "#22303c",
    "xtick.color": "#22303c",
    "ytick.color": "#22303c",
    "axes.grid": True,
    "grid.color": "#e3e8ee",
    "grid.linewidth": 0.6,
}


def dom_id(text: str) -> str:
    """``recall@5`` -> ``recall-5``: an id the page's selectors take as it is."""
    return re.sub(r"[^a-zA-Z0-9_-]+", "-", text).strip("-")


def _svg(figure: Figure) -> str:
    buffer = io.StringIO()
    figure.savefig(buffer, format="svg", metadata={"Date": None, "Creator": None}, bbox_inches="tight")
    text = buffer.getvalue()
    return text[text.index("<svg"):]  # inline: no XML declaration or doctype


def _figure(width: float, height: float) -> Figure:
    import matplotlib
    from matplotlib.figure import Figure

    matplotlib.rcParams.update(cast(Any, _STYLE))  # the stubs list every key as a literal
    return Figure(figsize=(width, height), layout="constrained")


def interval_figure(result: EvalResult, measures: Sequence[str], labels: Sequence[str]) -> str:
    """Per measure, every setting's value (a dot) and its 95% interval (a line), on 0-100%;
    the reference's value as a dashed line for comparing the others with it."""
    count = len(result.settings)
    figure = _figure(2.3 * len(measures) + 1.2, 0.34 * count + 1.0)
    axes = figure.subplots(1, len(measures), sharey=True, squeeze=False)[0]
    rows = list(range(count))[::-1]  # the first setting on top
    for ax, name in zip(axes, measures):
        values = [100 * s.metrics[name].value for s in result.settings]
        lows = [100 * s.metrics[name].low for s in result.settings]
        highs = [100 * s.metrics[name].high for s in result.settings]
        errors = [[v - lo for v, lo in zip(values, lows)], [hi - v for v, hi in zip(values, highs)]]
        best = max(range(count), key=lambda k: values[k])
        bars = ax.errorbar(values, rows, xerr=errors, fmt="o", color=INK, ecolor=INK, elinewidth=1.6,
                           capsize=3, markersize=4.5, zorder=3)
        bars.lines[2][0].set_gid(f"intervals-{dom_id(name)}")
        ax.plot([values[best]], [rows[best]], "o", color=ACCENT, markersize=6.5, zorder=4)
        ax.axvline(values[result.reference], color=MUTED, linestyle="--", linewidth=0.9, zorder=1)
        ax.set_title(name, fontsize=9.5, loc="left")
        ax.set_xlabel("% (95% interval)")
        low, high = min(lows), max(highs)
        pad = max(2.0, 0.08 * (high - low))
        ax.set_xlim(max(0.0, low - pad), min(100.0, high + pad))
        ax.grid(axis="y", visible=False)
    axes[0].set_yticks(rows, list(labels))
    axes[0].set_ylim(-0.7, count - 0.3)
    return _svg(figure)


def pareto_figure(result: EvalResult, front: ParetoFront, labels: Sequence[str]) -> str:
    """recall@5 against each cost: every setting with its interval, the front (the best
    recall for the price) joined cheapest first, the recommended setting ringed."""
    from ..engine.retrieval.pareto import COSTS, cost_label

    figure = _figure(9.6, 3.1)
    axes = figure.subplots(1, len(COSTS), sharey=True, squeeze=False)[0]
    for ax, axis in zip(axes, COSTS):
        xs = [p.cost(axis) for p in front.points]
        ys = [100 * p.value.value for p in front.points]
        yerr = [[100 * (p.value.value - p.value.low) for p in front.points],
                [100 * (p.value.high - p.value.value) for p in front.points]]
        xerr = None
        if axis == "retrieved":
            xerr = [[p.retrieved.value - p.retrieved.low for p in front.points],
                    [p.retrieved.high - p.retrieved.value for p in front.points]]
        colors = [FRONT if front.on_front(p.position, axis) else MUTED for p in front.points]
        bars = ax.errorbar(xs, ys, yerr=yerr, xerr=xerr, fmt="none", ecolor=MUTED, elinewidth=1.0, capsize=2.5,
                           zorder=2)
        bars.lines[2][0].set_gid(f"pareto-intervals-{axis}")
        ax.scatter(xs, ys, c=colors, s=26, zorder=3)
        on = front.fronts[axis]
        (line,) = ax.plot([xs[p] for p in on], [ys[p] for p in on], color=FRONT, linewidth=1.4, zorder=2.5,
                          drawstyle="steps-post")
        line.set_gid(f"front-{axis}")
        if front.recommended is not None:
            r = front.recommended
            ax.scatter([xs[r]], [ys[r]], s=150, facecolors="none", edgecolors=ACCENT, linewidths=1.6, zorder=4)
        for p, label in zip(front.points, labels):
            ax.annotate(label.split(" ", 1)[0], (xs[p.position], ys[p.position]), textcoords="offset points",
                        xytext=(4, 4), fontsize=7.5, color="#22303c")
        ax.set_xlabel(cost_label(axis, front.unit))
        ax.ticklabel_format(axis="x", style="plain")
    axes[0].set_ylabel(f"{front.measure} (%)")
    return _svg(figure)


def sweep_figure(result: SweepResult, labels: Sequence[str]) -> str:
    """Per setting: chunks, index size, tiny% and split%, as the CLI's chart draws them
    (the two percentages on one scale of at least 0-10%), each bar labelled with its
    figure in the table's unit, so a 0 reads as 0 and not as a missing bar."""
    unit, scale = byte_unit(max((s.index_bytes for s in result.settings), default=0))
    panels: tuple[tuple[str, list[float], Callable[[float], str]], ...] = (
        ("chunks", [float(s.chunks) for s in result.settings], "{:,.0f}".format),
        (f"index size ({unit})", [s.index_bytes / scale for s in result.settings], "{:,.1f}".format),
        ("tiny %", [s.summary.overall.tiny_pct or 0.0 for s in result.settings], format_pct),
        ("split (fit) %", [s.summary.overall.split_any_pct or 0.0 for s in result.settings], format_pct),
    )
    percent_scale = max([10.0, *panels[2][1], *panels[3][1]])
    count = len(result.settings)
    figure = _figure(9.6, 0.3 * count + 1.1)
    axes = figure.subplots(1, len(panels), sharey=True, squeeze=False)[0]
    rows = list(range(count))[::-1]
    for ax, (name, values, shown) in zip(axes, panels):
        bars = ax.barh(rows, values, color=FRONT, height=0.62)
        ax.bar_label(bars, labels=[shown(v) for v in values], padding=2, fontsize=7.5, color="#22303c")
        ax.set_title(name, fontsize=9.5, loc="left")
        ax.grid(axis="y", visible=False)
        ax.set_axisbelow(True)  # the grid behind the bars
        ax.set_xlim(0, percent_scale if name.endswith("%") else 1.25 * max([*values, 1e-9]))
    axes[0].set_yticks(rows, list(labels))
    return _svg(figure)
