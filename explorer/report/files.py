"""The report's files: each file's source cut into its chunks, with each chunk's header
(the text embedded before its code), its problems (the repository view's), and the
chunks of the compare's second side; the quality measures of both sides.

One batch pass over the walk (every core): the analyzer runs in the workers and returns
only what the report draws.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import partial

from ..engine.batch import BatchFile, ProgressCallback, chunk_batch_stream
from ..engine.batch.skips import SkippedInput, SkipRecord
from ..engine.measure.per_setting import chunk_setting
from ..engine.measure.problems import PROBLEM_KINDS, WEIGHTS, FileProblems, Problem, find_problems
from ..engine.measure.quality import FileMetrics, Summary, measure_file, summarize
from ..engine.model import Chunk
from ..engine.options import ChunkOptions
from ..engine.parse import ParsedFile
from ..workspace.walk import WalkPlan

#: The second side when none is asked for: the line-packing baseline.
LINES = "lines"
#: Source kept in one report, at most (characters): the files with most problems first.
DEFAULT_MAX_SOURCE = 4_000_000


@dataclass(frozen=True, slots=True)
class ChunkBlock:
    """One chunk as drawn: its code (a slice of the source), the header embedded before it."""

    index: int
    start: int  # code points into the file's source
    end: int
    first_line: int  # 1-based line of its first character
    header: str
    size: int
    embedded_size: int
    problems: tuple[Problem, ...] = ()


@dataclass(frozen=True, slots=True)
class FileSection:
    """A file of the report: its chunks tile ``source`` exactly (the blocks are slices of it)."""

    number: int
    path: str
    language: str | None
    source: str
    blocks: tuple[ChunkBlock, ...]
    problems: FileProblems
    #: The second side's chunks, as UTF-16 offsets into the source (what the page slices).
    second: tuple[tuple[int, int], ...]

    @property
    def anchor(self) -> str:
        return f"f{self.number}"

    def code(self, block: ChunkBlock) -> str:
        return self.source[block.start:block.end]

    def line_numbers(self, block: ChunkBlock) -> str:
        """The 1-based numbers of the lines the block's code spans, one a line."""
        count = self.source.count("\n", block.start, max(block.start, block.end - 1)) + 1
        return "\n".join(str(block.first_line + k) for k in range(count))


@dataclass(slots=True)
class FilesPart:
    """What the report's files section and its compare show."""

    root: str
    options: ChunkOptions
    second_options: ChunkOptions
    second_label: str
    sections: list[FileSection]
    summary: Summary
    second_summary: Summary
    #: Files left out of the page (over the source cap), and files that failed: (path, why).
    left_out: list[str] = field(default_factory=list)
    failed: list[tuple[str, str]] = field(default_factory=list)
    #: Every input left out, by the walk (ignored, excluded, too large...) or when read (not text).
    skipped: list[SkipRecord] = field(default_factory=list)

    def worst_problems(self) -> list[tuple[FileSection, Problem]]:
        """Every problem drawn, worst kind first (the repository view's weights), then by file and line."""
        order = {kind: k for k, kind in enumerate(PROBLEM_KINDS)}
        found = [(s, p) for s in self.sections for p in s.problems.problems]
        return sorted(found, key=lambda sp: (-WEIGHTS[sp[1].kind], order[sp[1].kind], sp[0].path, sp[1].line))

    def worst_files(self) -> list[FileSection]:
        return sorted((s for s in self.sections if s.problems.problems), key=lambda s: (-s.problems.score, s.path))


def second_side(options: ChunkOptions, compare: str) -> tuple[ChunkOptions, str]:
    """The compare's second side: ``lines`` (the baseline), or another max size (AST)."""
    if compare == LINES:
        return replace(options, strategy="lines"), "lines (baseline)"
    size = int(compare)
    return replace(options, strategy="ast", max_size=size), f"AST · max {size:,} {options.size_unit}"


def analyze_report(parsed: ParsedFile, chunks: list[Chunk], options: ChunkOptions, seconds: dict[str, float],
                   *, second: ChunkOptions) -> tuple[FileMetrics, FileProblems, FileMetrics, list[tuple[int, int]], str]:
    """In a worker: the file's measures and problems, the second side's measures and
    chunk ranges (code points), and the source the ranges index."""
    other = chunk_setting(parsed, second)
    return (measure_file(parsed, chunks, options, seconds=seconds), find_problems(parsed, chunks, options),
            measure_file(parsed, other, second), [(c.char_range.start, c.char_range.end) for c in other],
            parsed.source.text)


def utf16_offsets(text: str, ranges: Sequence[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """Code-point ranges as the UTF-16 offsets a browser's strings use."""
    if text.isascii():
        return tuple(ranges)
    marks = sorted({edge for pair in ranges for edge in pair})
    units, at, done = {}, 0, 0
    for mark in marks:
        done += sum(2 if ord(ch) > 0xFFFF else 1 for ch in text[at:mark])
        units[mark], at = done, mark
    return tuple((units[a], units[b]) for a, b in ranges)


def build_files(files_plan: WalkPlan, options: ChunkOptions, compare: str = LINES, *, jobs: int | None = None,
                max_source: int = DEFAULT_MAX_SOURCE,
                on_progress: ProgressCallback | None = None) -> FilesPart:
    """Chunk every file of the walk, measure both sides, and keep the sections to draw."""
    second, label = second_side(options, compare)
    batch = [BatchFile(path=f.path, name=f.rel) for f in files_plan.files]
    measured, second_measured = [], []
    sections: list[FileSection] = []
    failed: list[tuple[str, str]] = []
    skipped: list[SkipRecord] = list(files_plan.skipped)
    stream = chunk_batch_stream(batch, jobs=jobs, on_progress=on_progress, options=options,
                                analyze=partial(analyze_report, second=second))
    for walked, result in zip(files_plan.files, stream):
        if not result.ok or result.analysis is None:
            if result.not_text:
                skipped.append(SkippedInput.not_text(walked.rel, result.error_kind, result.error))
            else:
                failed.append((walked.rel, result.error or "failed"))
            continue
        metrics, problems, other_metrics, other_ranges, source = result.analysis
        measured.append(metrics)
        second_measured.append(other_metrics)
        by_chunk: dict[int, list[Problem]] = {}
        for problem in problems.problems:
            by_chunk.setdefault(problem.chunk, []).append(problem)
        blocks = tuple(
            ChunkBlock(c.index, c.char_range.start, c.char_range.end, c.line_range.start + 1,
                       c.contextualized_text[:len(c.contextualized_text) - len(c.text)], c.size, c.embedded_size,
                       tuple(by_chunk.get(k, ())))
            for k, c in enumerate(result.chunks or ()))
        sections.append(FileSection(len(sections), walked.rel, result.language, source, blocks, problems,
                                    utf16_offsets(source, other_ranges)))
    kept, left_out = _within(sections, max_source)
    return FilesPart(files_plan.root, options, second, label, kept, summarize(measured), summarize(second_measured),
                     left_out, failed, skipped)


def _within(sections: list[FileSection], max_source: int) -> tuple[list[FileSection], list[str]]:
    """The sections whose source fits the cap, the worst files first; the rest by path."""
    total = sum(len(s.source) for s in sections)
    if total <= max_source:
        return sections, []
    kept_numbers, used = set(), 0
    for section in sorted(sections, key=lambda s: (-s.problems.score, s.path)):
        if used + len(section.source) <= max_source:
            kept_numbers.add(section.number)
            used += len(section.source)
    kept = [s for s in sections if s.number in kept_numbers]
    return kept, [s.path for s in sections if s.number not in kept_numbers]
