"""The measuring wing's batch analyzers: what a worker computes for the measuring commands
right after it chunks a file, so only the measures come back (``analyze=`` of
:func:`explorer.engine.batch.chunk_batch`). Module-level functions, so worker processes can
receive them.

- :func:`analyze_metrics`, :func:`analyze_metrics_with_lines`: the quality measures
  (``chunk-explorer stats``), with the line-packing baseline's beside them;
- :func:`analyze_problems`, :func:`analyze_quality`: a file's problems (the repository
  view), and its measures with its problems (``stats``);
- :func:`analyze_settings`: the file under every setting of a sweep.

The retrieval evaluation's analyzer is its own (``retrieval.evaluate.chunk_for_eval``: it
masks the queries before chunking), as are the exports' (they encode records).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace

from ..model import Chunk
from ..options import ChunkOptions
from ..parse import ParsedFile
from .per_setting import chunk_setting, chunk_settings
from .problems import FileProblems, cut_too_big, find_problems
from .quality import FileMetrics, definition_spans, measure_file


def analyze_metrics(parsed: ParsedFile, chunks: list[Chunk], options: ChunkOptions,
                    seconds: dict[str, float]) -> FileMetrics:
    """The file's quality measures (:func:`explorer.engine.measure.quality.measure_file`)."""
    return measure_file(parsed, chunks, options, seconds=seconds)


def analyze_metrics_with_lines(parsed: ParsedFile, chunks: list[Chunk], options: ChunkOptions,
                               seconds: dict[str, float]) -> tuple[FileMetrics, FileMetrics]:
    """``(measures, line-packing baseline measures)``: the baseline chunks the same
    source by packing lines and is measured against the same syntax tree."""
    lines_options = replace(options, strategy="lines")
    started = time.perf_counter()
    baseline = chunk_setting(parsed, lines_options)
    baseline_seconds = {"chunk": time.perf_counter() - started}
    return (
        measure_file(parsed, chunks, options, seconds=seconds),
        measure_file(parsed, baseline, lines_options, seconds=baseline_seconds),
    )


def analyze_problems(parsed: ParsedFile, chunks: list[Chunk], options: ChunkOptions,
                     seconds: dict[str, float]) -> FileProblems:
    """The file's problems (:func:`explorer.engine.measure.problems.find_problems`)."""
    return find_problems(parsed, chunks, options)


def analyze_quality(parsed: ParsedFile, chunks: list[Chunk], options: ChunkOptions, seconds: dict[str, float],
                    *, baseline: bool = False) -> tuple[FileMetrics, FileProblems, FileMetrics | None]:
    """The file's quality measures, its problems and (with ``baseline``) the measures of
    the line-packing baseline (:func:`analyze_metrics_with_lines`)."""
    if baseline:
        measures, lines = analyze_metrics_with_lines(parsed, chunks, options, seconds)
        return measures, find_problems(parsed, chunks, options), lines
    return measure_file(parsed, chunks, options, seconds=seconds), find_problems(parsed, chunks, options), None


@dataclass(slots=True)
class FileSweep:
    """What a worker sends back for one file of a sweep: its measures under each setting."""

    measures: list[FileMetrics]
    contextualized_bytes: list[int]
    chunk_seconds: list[float]
    parse_seconds: float
    cut_too_big: list[int] = field(default_factory=list)
    definitions: list[int] = field(default_factory=list)


def analyze_settings(
    settings: tuple[ChunkOptions, ...], parsed: ParsedFile, chunks: list[Chunk], options: ChunkOptions,
    seconds: dict[str, float],
) -> FileSweep:
    """``parsed`` and ``chunks`` come from the batch run with ``options`` (the first
    setting, parsed as AST); every setting is chunked from the same tree
    (:func:`~explorer.engine.measure.per_setting.chunk_settings`) and measured against it."""
    result = FileSweep([], [], [], seconds.get("parse", 0.0))
    found_definitions: dict[str | None, list[tuple[int, int, str, bool]]] = {}  # once per tree
    for made in chunk_settings(parsed, settings, parsed_language=options.language, chunked={options: chunks}):
        started = time.perf_counter()
        result.parse_seconds += made.parse_seconds
        spent = seconds.get("chunk", 0.0) if made.options == options else made.chunk_seconds
        result.measures.append(measure_file(made.tree, made.chunks, made.options))
        tree = made.tree
        if tree.root is not None and tree.language is not None and made.options.language not in found_definitions:
            found_definitions[made.options.language] = definition_spans(tree.root, tree.language)
        cut, total = cut_too_big(tree, made.chunks, made.options, found_definitions.get(made.options.language))
        result.cut_too_big.append(cut)
        result.definitions.append(total)
        result.contextualized_bytes.append(
            sum(len(c.contextualized_text.encode("utf-8", "surrogatepass")) for c in made.chunks))
        result.chunk_seconds.append(spent + time.perf_counter() - started)
    return result
