"""Plain-text figures shared by the CLI and the explorer (no Rich, no Textual): the
number formats, counts with their noun, bars, the columns of the sweep table and the rows of
the retrieval trade-off both of them draw."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .terminal_text import visible

if TYPE_CHECKING:  # types only: the figures need no engine at run time
    from .engine.batch.skips import SkipRecord
    from .engine.measure.quality import GroupSummary
    from .engine.measure.sweep import SettingResult, SweepResult
    from .engine.options import ChunkOptions
    from .engine.retrieval import EvalResult
    from .engine.retrieval.pareto import ParetoFront
    from .engine.retrieval.recommend import Recommendation, SourceAdvice

#: Marks a cost on whose front a setting is.
ON_FRONT = "◆"

BLOCKS = " ▏▎▍▌▋▊▉█"  # eighths of a cell


def bar(value: float, peak: float, width: int) -> str:
    """A horizontal bar of ``width`` cells at full scale, in eighths of a cell."""
    if peak <= 0 or value <= 0:
        return " " * width
    eighths = max(1, round(value / peak * width * 8))
    full, rest = divmod(eighths, 8)
    return ("█" * full + (BLOCKS[rest] if rest else "")).ljust(width)


def byte_unit(count: float) -> tuple[str, float]:
    """The unit a byte count is written in (GB, MB, kB, B) and its scale."""
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if count >= scale:
            return unit, scale
    return "B", 1.0


def human_bytes(count: float) -> str:
    unit, scale = byte_unit(count)
    return f"{int(count)} B" if unit == "B" else f"{count / scale:.1f} {unit}"


def format_pct(value: float | None) -> str:
    """A percentage without its sign: two decimals under 10 (``0.25``), one from 10
    (``12.5``), ``0`` as ``0.0``; ``-`` when undefined (nothing to divide by)."""
    if value is None:
        return "-"
    return f"{value:.1f}" if value >= 10 or value == 0 else f"{value:.2f}"


def plural(count: int, noun: str, many: str | None = None) -> str:
    """``1 chunk``, ``0 chunks``, ``1,500 queries``: the count with thousands separators and
    ``noun`` (the singular), or ``many`` where the plural is not ``noun + "s"``."""
    return f"{count:,} {noun if count == 1 else (many or noun + 's')}"


def format_num(value: float | None) -> str:
    """A count or size with thousands separators, one decimal only when it is not
    whole (a median of an even count); ``-`` when undefined."""
    if value is None:
        return "-"
    return f"{value:,.0f}" if float(value).is_integer() else f"{value:,.1f}"


def embedded_line(options: ChunkOptions, chunks: int, over: int, largest: int) -> str:
    """One line on how the embedded text (header + overlap + code, what a pipeline embeds)
    relates to the limit under ``options``: what ``max_size`` binds, how many chunks'
    embedded text is over it, and the switch that changes it."""
    limit = f"{options.max_size:,} {options.size_unit}"
    if options.fit_embedded:
        how = (f"fit {options.fit}: the limit binds the embedded text, the header gives way first")
    else:
        how = (f"fit {options.fit}: the limit binds the code only; --fit embedded keeps the embedded text "
               "within it")
    counted = f"{over:,} of {plural(chunks, 'chunk')} over {limit}"
    if over:
        counted += f", the largest {largest:,}"
    return f"Embedded text (header + overlap + code): {counted} ({how})."


# -- what a run left out ---------------------------------------------------------------------
#: Names listed per reason before "and N more" (the JSON and JSONL outputs list every one).
LISTED_SKIPS = 10
#: Reasons whose detail says something the reason does not (the size against the cap, the error).
_DETAILED = frozenset({"too-large", "unreadable", "broken-symlink", "symlink-loop", "outside-root"})


def skipped_name(record: SkipRecord) -> str:
    """How a skipped input is named in every output: its path relative to the run's root
    (a directory with a trailing ``/``), as the JSON ``skipped`` list writes it."""
    return str(record.to_dict()["path"])


def skipped_lines(skipped: Sequence[SkipRecord], *, more: str = "", limit: int = LISTED_SKIPS) -> list[str]:
    """What a run left out, for people: a line of totals, then one line per reason naming
    its inputs (up to ``limit`` of them, then "and N more" and ``more``, where every one is
    listed). Names are made visible (one line, no control characters)."""
    if not skipped:
        return []
    by_reason: dict[str, list[SkipRecord]] = {}
    for record in skipped:
        by_reason.setdefault(record.reason, []).append(record)
    lines = [f"Skipped {plural(len(skipped), 'file or directory', 'files or directories')}:"]
    for reason, records in sorted(by_reason.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        names = []
        for record in records[:limit]:
            detail = str(record.to_dict().get("detail") or "") if reason in _DETAILED else ""
            names.append(visible(skipped_name(record)) + (f" ({visible(detail)})" if detail else ""))
        rest = len(records) - limit
        tail = f", and {rest:,} more{f' ({more})' if more else ''}" if rest > 0 else ""
        lines.append(f"  {len(records):,} {records[0].reason.wording}: {', '.join(names)}{tail}")
    return lines


def count_text(value: float | None, width: int | None = None) -> str:
    """A count or size as every face shows it: ``1,036`` (:func:`format_num`); where only
    ``width`` cells are free, never cut but shortened visibly: ``1036``, then ``1.0k``,
    ``12k``, ``1.2M``, and ``…`` when not even that fits. The one helper for numbers in
    columns (the chunk list, the repository view, teach's tree, the sweep)."""
    full = format_num(value)
    if width is None or len(full) <= width:
        return full
    assert value is not None
    plain = f"{value:.0f}" if float(value).is_integer() else f"{value:.1f}"
    if len(plain) <= width:
        return plain
    magnitude = abs(value)
    for scale, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if magnitude >= scale:
            scaled = value / scale
            for short in ((f"{scaled:.1f}{suffix}",) if abs(scaled) < 10 else ()) + (f"{scaled:.0f}{suffix}",):
                if len(short) <= width:
                    return short
            break
    return "…" if width >= 1 else ""


# -- the sweep table -------------------------------------------------------------------------
#: The fields a grid of settings varies, in table order (slowest first), and their headers.
AXIS_HEADERS: dict[str, str] = {
    "size_unit": "unit",
    "strategy": "strategy",
    "context_mode": "context",
    "max_size": "max",
    "overlap_lines": "overlap",
}


def axis_cells(varied: Sequence[str], options: Sequence[ChunkOptions]) -> tuple[list[str], list[list[str]]]:
    """The headers and, per setting, the values of the fields that vary (``max`` when
    none does); fields outside the grid's axes (e.g. a mixed-language run) come last."""
    names = [name for name in AXIS_HEADERS if name in varied] or ["max_size"]
    names += [name for name in varied if name not in AXIS_HEADERS]
    headers = [AXIS_HEADERS.get(name, name) for name in names]
    return headers, [[_axis_value(getattr(o, name)) for name in names] for o in options]


def _axis_value(value: object) -> str:
    # Sizes read as everywhere else (1,500), words as they are.
    return count_text(value) if isinstance(value, int) and not isinstance(value, bool) else str(value)


@dataclass(frozen=True, slots=True)
class Column:
    """A column of the sweep table: its header and the cell of one setting."""

    header: str
    cell: Callable[[SettingResult], str]


def _size(key: str) -> Callable[[SettingResult], str]:
    return lambda s: format_num(s.summary.overall.size_stats()[key])


def _count_and_pct(count: int, pct: float | None) -> str:
    """``203 (30.4%)``: a count and the share it is (``-`` when there is nothing to divide by)."""
    return f"{count:,} ({format_pct(pct)}{'' if pct is None else '%'})"


#: The measured columns of the sweep table (after the # and the varied fields), as the
#: CLI and the explorer both show them.
SWEEP_COLUMNS: tuple[Column, ...] = (
    Column("chunks", lambda s: f"{s.summary.overall.chunks:,}"),
    Column("min", _size("min")),
    Column("median", _size("median")),
    Column("p95", _size("p95")),
    Column("max", _size("max")),
    Column("tiny%", lambda s: format_pct(s.summary.overall.tiny_pct)),
    Column("over%", lambda s: format_pct(s.summary.overall.over_pct)),
    # What a small size costs: definitions larger than the limit, in pieces; beside them
    # those split although they fit (the engine never does: it should read 0).
    Column("cut too big", lambda s: _count_and_pct(s.cut_too_big, s.cut_too_big_pct)),
    Column("split (fit)", lambda s: _count_and_pct(s.split_definitions, s.summary.overall.split_any_pct)),
    Column("doc_split%", lambda s: format_pct(s.summary.overall.doc_split_pct)),
    Column("index", lambda s: human_bytes(s.index_bytes)),
)


#: What the two columns of definitions count, and what each percentage is of (the two
#: shares have different bases): shown under the sweep table in every face, a line each.
SWEEP_NOTES = (
    "cut too big: definitions larger than their room, cut into pieces (% of all definitions)",
    "split (fit): definitions that fit their room, yet no chunk holds whole (% of those that fit)",
)


#: How a varied field reads in a setting's label (the max size reads as the bare number).
_LABELS = {"overlap_lines": "overlap {}", "context_mode": "context {}", "strategy": "{}", "size_unit": "{}"}


def grid_label(options: Any, varied: Sequence[str]) -> str:
    """``1,000 · overlap 5 · lines``: the max size, then the other fields that vary in a grid
    of settings (the explorer's sweep, its retrieval panel and the queries view)."""
    parts = [f"{options.max_size:,}"]
    for name in varied:
        if name != "max_size":
            parts.append(_LABELS.get(name, name + " {}").format(getattr(options, name)))
    return " · ".join(parts)


def tradeoff_rows(varied: Sequence[str], options: Sequence[ChunkOptions], numbers: Sequence[int],
                  front: ParetoFront) -> tuple[list[str], list[list[str]]]:
    """The trade-off table's header and rows: per setting (``numbers``: their indices),
    the measure with its interval and each cost, :data:`ON_FRONT` where the setting is on
    that cost's front. The CLI and the explorer print these same cells."""
    from .engine.retrieval.pareto import COSTS, cost_label

    headers, axis_rows = axis_cells(varied, options)
    head = ["#", *headers, f"{front.measure} (95%)", *(cost_label(axis, front.unit) for axis in COSTS)]
    rows = []
    for point in front.points:
        value = point.value
        cells = [f"{numbers[point.position] + 1}", *axis_rows[point.position],
                 f"{100 * value.value:.1f} [{100 * value.low:.1f}–{100 * value.high:.1f}]"]
        for axis in COSTS:
            mark = f"{ON_FRONT} " if front.on_front(point.position, axis) else "  "
            if axis == "retrieved":
                cost = point.retrieved
                cells.append(f"{mark}{cost.value:,.0f} [{cost.low:,.0f}–{cost.high:,.0f}]")
            else:
                cells.append(f"{mark}{int(point.cost(axis)):,}")
        rows.append(cells)
    return head, rows


def sweep_heading(result: SweepResult) -> str:
    """The sweep table's title: how many files, the size unit, what the index size counts."""
    unit: str = result.settings[0].options.size_unit if "size_unit" not in result.varied else "unit"
    tokenizer = result.settings[0].options.tokenizer if result.settings else None
    if tokenizer:
        unit += f", tokens counted with {tokenizer}"
    return (f"Sweep of {plural(result.files, 'file')} (sizes in {unit}; "
            f"index = vectors of {result.embedding_dim} float32 + contextualized text)")


def evaluation_heading(result: EvalResult) -> str:
    """The evaluation's title: files, queries and their source, the retriever, the budget
    with its unit, the hit rule."""
    tokenizer = result.settings[result.reference].options.tokenizer if result.settings else None
    source = "from docs, masked" if result.query_source == "docs" else visible(result.query_source)
    return (f"Retrieval on {plural(result.files, 'file')}: {plural(len(result.queries), 'query', 'queries')} "
            f"({source}), {result.retriever}, budget {result.config.budget:,} {result.config.budget_unit}, "
            f"hit at {result.config.hit_threshold:g} overlap"
            + (f", sizes in tokens counted with {tokenizer}" if tokenizer else ""))


def evaluation_legend(result: EvalResult, current: int | None) -> str:
    """What the marks of the evaluation's ``#`` column mean."""
    reference = result.settings[result.reference].index + 1
    return f"r the reference (#{reference})" + ("; * the settings in effect now" if current is not None else "")


def tradeoff_heading(front: ParetoFront) -> str:
    """The trade-off's title: the measure, the unit of its costs, what ◆ marks."""
    unit = f"{front.unit} tokens" if front.unit != "nws" else "non-whitespace characters (no tokenizer installed)"
    return (f"Trade-off: {front.measure} against cost (sizes in {unit}). {ON_FRONT} on the front: no other "
            f"setting has as high a {front.measure} for less of that cost.")


def masked_note(front: ParetoFront) -> str:
    """Why the trade-off's chunks may differ from a sweep's: the code evaluated had its docs
    masked (doc queries); empty otherwise."""
    if not front.masked_docs:
        return ""
    return (f"Costs of the code as evaluated: {front.masked_docs:,} docs masked out (doc queries), so there are "
            "fewer chunks than the same setting makes of the files as they are.")


def front_summary(front: ParetoFront, numbers: Sequence[int]) -> str:
    """``Fronts, cheapest first: chunks #3; ...`` in one line."""
    from .engine.retrieval.pareto import COSTS, cost_label

    parts = [f"{cost_label(axis, front.unit)} {' → '.join(f'#{numbers[p] + 1}' for p in front.fronts[axis])}"
             for axis in COSTS]
    return "Fronts, cheapest first: " + "; ".join(parts) + "."


def source_advice_lines(varied: Sequence[str], advice: Sequence[SourceAdvice], warning: str | None) -> list[str]:
    """Each query source's own recommendation (with two groups or more), and the warning
    when they disagree, one line each."""
    if len(advice) < 2:
        return []
    objective = next((a.recommendation.objective for a in advice if a.recommendation), "top5")
    lines = [f"Per query source (--objective {objective}):"]
    for a in advice:
        if a.recommendation is None:
            lines.append(f"  {a.source} ({a.queries:,} queries): nothing to recommend")
            continue
        chosen = a.result.settings[a.recommendation.setting]
        head = "keep your current settings" if a.recommendation.keep_current else f"#{chosen.index + 1}"
        lines.append(f"  {a.source} ({a.queries:,} queries): {head} ({chosen.label(varied)}): "
                     f"{a.recommendation.reason}")
    if warning:
        lines.append(f"Warning: {warning}.")
    return lines


# -- the quality table (stats, and the report's compare) -------------------------------------
def throughput(group: GroupSummary) -> float | None:
    """MB/s over all the timed work of the group (parse + chunk)."""
    seconds = sum(group.seconds.values())
    return group.bytes / 1e6 / seconds if seconds > 0 else None


def _count(value: int) -> str:
    return f"{value:,}"


def _rate(value: float) -> str:
    return f"{value:.2f}"


#: (header, value from a GroupSummary, its format: the same as the explorer's figures).
QUALITY_COLUMNS: tuple[tuple[str, Callable[[GroupSummary], Any], Callable[[Any], str]], ...] = (
    ("files", lambda g: g.files, _count),
    ("chunks", lambda g: g.chunks, _count),
    ("min", lambda g: g.size_stats()["min"], format_num),
    ("median", lambda g: g.size_stats()["median"], format_num),
    ("p95", lambda g: g.size_stats()["p95"], format_num),
    ("max", lambda g: g.size_stats()["max"], format_num),
    ("over%", lambda g: g.over_pct, format_pct),
    ("emb_over%", lambda g: g.embedded_over_pct, format_pct),
    ("tiny%", lambda g: g.tiny_pct, format_pct),
    ("exact%", lambda g: g.exact_pct, format_pct),
    ("clean%", lambda g: g.clean_pct, format_pct),
    ("split_top%", lambda g: g.split_top_pct, format_pct),
    ("doc_split%", lambda g: g.doc_split_pct, format_pct),
    ("MB/s", throughput, _rate),
)


# -- the recommendation ------------------------------------------------------------------------
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


def recommendation_sentence(result: EvalResult, recommendation: Recommendation) -> str:
    """The advice and its reason in one sentence, where no head above says what to do (under
    the sweep's whiskers): ``Keep your current settings (#3): no setting is better ...``."""
    reason = recommendation.reason
    if recommendation.keep_current:
        return f"Keep your current settings (#{result.settings[recommendation.setting].index + 1}): {reason}"
    return reason[:1].upper() + reason[1:]


def _rank(rank: int | None) -> str:
    return "-" if rank is None else str(rank)


def options_text(options: Any) -> str:
    """The parameters in force, as the explorer's screens and notices name them:
    ``max 1,500 nws, overlap 0, context full, ast, fit auto`` (then the language and the
    tokenizer, when set)."""
    text = (f"max {options.max_size:,} {options.size_unit}, overlap {options.overlap_lines}, "
            f"context {options.context_mode}, {options.strategy}, fit {options.fit}")
    if options.language:
        text += f", language {options.language}"
    if options.tokenizer:
        text += f", tokenizer {options.tokenizer}"
    return text
