"""The one renderer of the HTML report: :class:`~.content.ReportContent` in, one
self-contained page out.

Jinja2 with autoescape on: file content, names, headers, query texts and sentences are
data and are escaped wherever they land. The figures (our own SVG, from matplotlib) and
the style sheet and script (files of this package) are the only text inserted as is. The
walkthrough's steps go in a JSON script block, with ``<``, ``>`` and ``&`` escaped so no
content can close it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib.resources import files
from typing import Any

import jinja2
from markupsafe import Markup, escape

from ..display import (
    QUALITY_COLUMNS,
    SWEEP_COLUMNS,
    SWEEP_NOTES,
    axis_cells,
    evaluation_heading,
    evaluation_legend,
    format_num,
    front_summary,
    masked_note,
    recommendation_lines,
    skipped_lines,
    source_advice_lines,
    sweep_heading,
    tradeoff_heading,
    tradeoff_rows,
)
from ..engine.measure.problems import DESCRIPTIONS, PROBLEM_KINDS
from ..engine.measure.quality import GroupSummary, Summary
from ..engine.retrieval import HEADLINE_METRICS
from . import figures
from .content import ReportContent

#: Chunk colours, in turn (the page's classes c0..c7).
PALETTE_SIZE = 8
#: The measures the interval figure draws.
FIGURE_METRICS = HEADLINE_METRICS[:4]


def script_json(value: Any) -> Markup:
    """JSON safe inside a ``<script type="application/json">`` block."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    for raw, escaped in (("&", "\\u0026"), ("<", "\\u003c"), (">", "\\u003e"),
                         ("\u2028", "\\u2028"), ("\u2029", "\\u2029")):
        text = text.replace(raw, escaped)
    return Markup(text)


def _asset(name: str) -> Markup:
    return Markup((files("explorer.report") / "assets" / name).read_text(encoding="utf-8"))


@dataclass(frozen=True, slots=True)
class QualityRow:
    language: str
    side: str
    cells: list[str]
    second: bool


def quality_rows(first: Summary, second: Summary, first_label: str, second_label: str) -> list[QualityRow]:
    """The compare's table: per language then overall, each side's cells (stats' columns)."""
    def cells(group: GroupSummary | None) -> list[str]:
        if group is None:
            return ["-"] * len(QUALITY_COLUMNS)
        return [("-" if (v := get(group)) is None else shown(v)) for _, get, shown in QUALITY_COLUMNS]

    rows = []
    for name, group in [*first.languages.items(), ("ALL", first.overall)]:
        other = second.overall if name == "ALL" else second.languages.get(name)
        rows.append(QualityRow(name, first_label, cells(group), False))
        rows.append(QualityRow("", second_label, cells(other), True))
    return rows


def pre_text(text: str) -> Markup:
    """Text for a ``<pre>``, kept exactly: escaped, a newline first (the HTML parser drops
    one right after the tag, and a chunk may start with one), carriage returns as
    references (the parser would turn them into line feeds)."""
    return Markup("\n") + Markup(str(escape(text)).replace("\r", "&#13;"))


def _environment() -> jinja2.Environment:
    environment = jinja2.Environment(loader=jinja2.PackageLoader("explorer.report", "templates"),
                                     autoescape=True, trim_blocks=True, lstrip_blocks=True,
                                     undefined=jinja2.StrictUndefined)
    environment.filters["num"] = format_num
    environment.filters["pre"] = pre_text
    environment.filters["pct"] = lambda v: "-" if v is None else f"{100 * v:.1f}"
    environment.filters["signed"] = lambda v: f"{100 * v:+.1f}"
    return environment


def render(content: ReportContent) -> str:
    """The page of a report."""
    page: dict[str, Any] = {"c": content, "css": _asset("report.css"), "js": _asset("report.js"),
                            "palette": PALETTE_SIZE, "kinds": PROBLEM_KINDS, "descriptions": DESCRIPTIONS,
                            "options": content.options.to_dict()}
    if content.files is not None:
        part = content.files
        page["quality"] = quality_rows(part.summary, part.second_summary,
                                       "AST" if part.options.strategy == "ast" else "lines", part.second_label)
        page["quality_headers"] = [header for header, _, _ in QUALITY_COLUMNS]
        page["worst"] = part.worst_problems()
        page["worst_files"] = part.worst_files()
        page["skipped"] = skipped_lines(part.skipped, limit=200)
    if content.sweep is not None and content.sweep.settings:
        sweep = content.sweep
        headers, axes = axis_cells(sweep.varied, [s.options for s in sweep.settings])
        page["sweep_heading"] = sweep_heading(sweep)
        page["sweep_notes"] = SWEEP_NOTES
        page["sweep_headers"] = ["#", *headers, *(c.header for c in SWEEP_COLUMNS)]
        page["sweep_rows"] = [[f"{s.index + 1}{'*' if s.index == content.sweep_current else ''}", *axis,
                               *(c.cell(s) for c in SWEEP_COLUMNS)] for s, axis in zip(sweep.settings, axes)]
        labels = [f"#{s.index + 1} {s.label(sweep.varied)}" for s in sweep.settings]
        page["sweep_figure"] = Markup(figures.sweep_figure(sweep, labels))
    evaluation = content.evaluation
    if evaluation is not None and evaluation.result.settings and evaluation.result.queries:
        result = evaluation.result
        labels = [f"#{s.index + 1} {s.label(result.varied)}" for s in result.settings]
        headers, axes = axis_cells(result.varied, [s.options for s in result.settings])
        page["eval_heading"] = evaluation_heading(result)
        page["eval_legend"] = evaluation_legend(result, evaluation.current)
        page["eval_headers"] = headers
        page["eval_rows"] = list(zip(result.settings, axes))
        page["eval_metrics"] = HEADLINE_METRICS
        page["eval_best"] = {name: result.best(name) for name in HEADLINE_METRICS}
        page["interval_figure"] = Markup(figures.interval_figure(result, FIGURE_METRICS, labels))
        page["figure_metrics"] = FIGURE_METRICS
        numbers = [s.index for s in result.settings]
        page["tradeoff_head"], page["tradeoff_rows"] = tradeoff_rows(result.varied, [s.options for s in result.settings],
                                                                     numbers, evaluation.front)
        page["tradeoff_heading"] = tradeoff_heading(evaluation.front)
        page["front_summary"] = front_summary(evaluation.front, numbers)
        page["masked_note"] = masked_note(evaluation.front)
        page["pareto_figure"] = Markup(figures.pareto_figure(result, evaluation.front, labels))
        page["recommendation"] = (recommendation_lines(result, evaluation.recommendation)
                                  if evaluation.recommendation is not None else [])
        page["advice"] = source_advice_lines(result.varied, evaluation.advice, evaluation.warning)
    if content.walkthrough is not None:
        page["walk_json"] = script_json(content.walkthrough.to_json())
    return _environment().get_template("report.html").render(**page)


def write_report(content: ReportContent, path: str) -> int:
    """Render and write the report atomically; returns its size in bytes. Raises OutputError."""
    from ..workspace.atomic import write_atomic

    data = render(content).encode("utf-8")
    write_atomic(path, data)
    return len(data)
