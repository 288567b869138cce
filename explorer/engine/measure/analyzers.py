"""Batch analyzers for the quality measures (``chunk-explorer stats``): they run in the
worker, right after a file is chunked, and send back only the measures. Module-level
functions, so worker processes can receive them (``analyze=`` of
:func:`explorer.engine.batch.chunk_batch`)."""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any

from ..model import Chunk
from ..options import ChunkOptions
from ..parse import ParsedFile
from .per_setting import chunk_setting
from .quality import measure_file


def analyze_metrics(parsed: ParsedFile, chunks: list[Chunk], options: ChunkOptions,
                    seconds: dict[str, float]) -> Any:
    """The file's quality measures (:func:`explorer.engine.measure.quality.measure_file`)."""
    return measure_file(parsed, chunks, options, seconds=seconds)


def analyze_metrics_with_lines(parsed: ParsedFile, chunks: list[Chunk], options: ChunkOptions,
                               seconds: dict[str, float]) -> Any:
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
