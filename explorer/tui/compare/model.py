"""Two chunkings of one file and their quality measures (pure: computed in a worker).

Both sides are measured against the same syntax tree with
:func:`explorer.engine.measure.quality.measure_file`, so a line-packed side gets split
definitions and cut kinds that are comparable with the AST side (as in the sweep).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from explorer.display import count_text
from explorer.engine.cancel import ShouldStop
from explorer.engine.measure.per_setting import chunk_setting
from explorer.engine.measure.quality import FileMetrics, GroupSummary, measure_file, summarize
from explorer.engine.options import ChunkOptions
from explorer.engine.parse import ParsedFile, parse_source

from ..document.load import structure_of
from ..document.model import Chunking, ChunkLayout, ChunkStats, LoadedFile

#: What the second side is: the line-packing baseline, or the AST chunker with other parameters.
BASELINE = "baseline"
SECOND_SET = "second set"


@dataclass(frozen=True, slots=True)
class SecondSide:
    """The second side, as changes to the first side's options."""

    kind: str = BASELINE
    #: Max size of the second set (None: the same as the first side).
    max_size: int | None = None

    def options(self, first: ChunkOptions) -> ChunkOptions:
        if self.kind == BASELINE:
            return replace(first, strategy="lines")
        return replace(first, strategy="ast", max_size=self.max_size or first.max_size)


@dataclass(frozen=True, slots=True, eq=False)
class Side:
    """One chunking of the file and how good it is."""

    options: ChunkOptions
    chunking: Chunking
    metrics: FileMetrics
    summary: GroupSummary

    @property
    def label(self) -> str:
        how = "AST" if self.options.strategy == "ast" else "lines (baseline)"
        return f"{how} · max {self.options.max_size:,} {self.options.size_unit}"


@dataclass(frozen=True, slots=True, eq=False)
class Comparison:
    file: LoadedFile
    first: Side
    second: Side


def tree_of(file: LoadedFile) -> ParsedFile:
    """The file parsed with its syntax tree (a file opened with the lines strategy has none)."""
    if file.parsed.tree is None and file.parse_options.strategy == "lines":
        return parse_source(file.source, file.parsed.path, file.parse_options.language, strategy="ast")
    return file.parsed


def chunk_side(file: LoadedFile, tree: ParsedFile, options: ChunkOptions) -> Side:
    if options.language != file.parse_options.language:
        tree = parse_source(file.source, file.parsed.path, options.language, strategy="ast")
    structure = None
    if options.strategy == "ast" and tree.tree is not None:
        structure = file.structure if tree is file.parsed else structure_of(tree)
    chunks = tuple(chunk_setting(tree, options, structure=structure))  # a lines side keeps the tree for measuring
    chunking = Chunking(options, chunks, ChunkLayout.of(chunks, file.source), ChunkStats.of(chunks, options), 0.0)
    metrics = measure_file(tree, chunks, options)
    return Side(options, chunking, metrics, summarize([metrics]).overall)


def compare(file: LoadedFile, first: ChunkOptions, second: ChunkOptions,
            should_stop: ShouldStop = lambda: False) -> Comparison | None:
    tree = tree_of(file)
    a = chunk_side(file, tree, first)
    if should_stop():
        return None
    return Comparison(file, a, chunk_side(file, tree, second))


# -- the measures shown side by side -------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Measure:
    name: str
    value: Callable[[Side], float | int | None]
    #: The value as shown: ``shown(side, compact)``; compact where columns are narrow
    #: (``35/146 (24%)``, ``1.3k``), shortened visibly but never cut.
    shown: Callable[[Side, bool], str]
    #: +1: more is better, -1: less is better, 0: neither.
    better: int


#: The widest a count is in a compact cell: ``1313``, then ``12k`` (count_text).
COMPACT_DIGITS = 4


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value:.0f}%" if value >= 10 or value == 0 else f"{value:.1f}%"


def _count(value: float, compact: bool) -> str:
    return count_text(round(value), COMPACT_DIGITS) if compact else f"{value:,.0f}"


def _count_pct(count: int, whole: int, pct: float | None, compact: bool) -> str:
    if not whole:
        return "-"
    if compact:
        return f"{_count(count, True)}/{_count(whole, True)} ({_pct(pct)})"
    return f"{count:,} of {whole:,} ({_pct(pct)})"


def _sizes(side: Side, compact: bool) -> str:
    stats = side.summary.size_stats()
    if stats["median"] is None:
        return "-"
    median, low, high = (_count(stats[key] or 0, compact) for key in ("median", "min", "max"))
    return f"{median} ({low}–{high})"


def _counted(get: Callable[[Side], int]) -> Callable[[Side, bool], str]:
    return lambda side, compact: _count(get(side), compact)


MEASURES: tuple[Measure, ...] = (
    Measure("chunks", lambda s: s.summary.chunks, _counted(lambda s: s.summary.chunks), 0),
    Measure("size median (min–max)", lambda s: None, _sizes, 0),
    Measure("over the limit", lambda s: s.summary.over, _counted(lambda s: s.summary.over), -1),
    Measure("tiny (< 50 nws)", lambda s: s.summary.tiny, _counted(lambda s: s.summary.tiny), -1),
    Measure("definitions split", lambda s: s.summary.any_split,
            lambda s, c: _count_pct(s.summary.any_split, s.summary.any_fit, s.summary.split_any_pct, c), -1),
    Measure("top-level split", lambda s: s.summary.top_split,
            lambda s, c: _count_pct(s.summary.top_split, s.summary.top_fit, s.summary.split_top_pct, c), -1),
    Measure("doc comments cut off", lambda s: s.summary.doc_split,
            lambda s, c: _count_pct(s.summary.doc_split, s.summary.doc_fit, s.summary.doc_split_pct, c), -1),
    Measure("clean cuts", lambda s: s.summary.clean_pct, lambda s, c: _pct(s.summary.clean_pct), 1),
    Measure("mid-line cuts", lambda s: s.summary.midline_pct, lambda s, c: _pct(s.summary.midline_pct), -1),
)


def verdict(measure: Measure, first: Side, second: Side) -> int:
    """+1 if the first side is better on this measure, -1 if the second is, 0 otherwise."""
    a, b = measure.value(first), measure.value(second)
    if measure.better == 0 or a is None or b is None or a == b:
        return 0
    return measure.better if a > b else -measure.better
