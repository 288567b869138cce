"""Parameter sweep: chunk a codebase under several settings and compare the trade-offs.

    files = [BatchFile(path="src/a.py", name="a.py"), ("b.ts", "export const b = 1;\n")]
    result = sweep(files, settings_grid(ChunkOptions(), {"max_size": [500, 1000, 2000]}))
    for row in result.settings:
        print(row.options.max_size, row.chunks, row.summary.overall.tiny_pct, row.index_bytes)

The engine never walks: ``explorer.workspace.sweep.sweep_paths`` walks directories
(.gitignore, excludes) and calls this with the files found.

Each file is read and parsed once per distinct ``language`` among the settings, then
re-chunked and measured for every setting: chunking is cheap next to parsing. Files
go to a process pool (:mod:`explorer.engine.batch`, which also isolates crashes and
reports errors per file); each worker does all settings for its file and sends back
only measures, never chunks. A ``lines`` setting packs lines but is measured against
the same syntax tree, so its split definitions are comparable with the AST settings.

Every measure comes from :mod:`explorer.engine.measure.quality` (pooled per setting with
``summarize``). The sweep adds one estimate of its own, the **index size**::

    index_bytes = chunks * embedding_dim * 4      # one float32 vector per chunk
                + contextualized_bytes            # UTF-8 of every contextualizedText

With the default 1024 dimensions a vector is 4 KiB. The text is what an index stores
next to each vector to show or re-rank hits. Index structures (graph links, ids,
metadata) are left out: the figure is a floor, meant for comparing settings.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from itertools import product
from typing import Any

from ..batch import BatchFile, BatchResult, BatchRunner, ProgressCallback, chunk_batch_stream, default_jobs
from ..batch.skips import SkippedInput, SkipRecord, count_reasons
from ..cancel import ShouldStop, stop_asked
from ..options import ChunkOptions
from .analyzers import FileSweep, analyze_settings
from .per_setting import setting_label, varied_fields
from .quality import FileMetrics, Summary, summarize

#: The max sizes a sweep tries when none are given, per size unit.
DEFAULT_MAX_SIZES = {
    "nws": (500, 1000, 1500, 2000, 3000),
    "chars": (1000, 2000, 3000, 4000, 6000),
    "lines": (25, 50, 75, 100, 150),
    "tokens": (256, 384, 512, 1024, 2048),
}

#: Dimensions of the embedding vectors the index size is estimated for.
DEFAULT_EMBEDDING_DIM = 1024
FLOAT32_BYTES = 4

#: What a sweep measures: a file to read (``BatchFile(path=..., name=...)``, read in the
#: worker with the safe reader) or code in memory (``(filepath, code)`` or a BatchFile).
SweepInput = BatchFile | tuple[str, str | bytes]


def settings_grid(base: ChunkOptions | None, axes: Mapping[str, Sequence[Any]]) -> list[ChunkOptions]:
    """Every combination of the values in ``axes`` (a ChunkOptions field -> values),
    applied to ``base``; the first axis varies slowest. Duplicates are dropped.
    Raises ValueError for an unknown field or an invalid value."""
    base = base or ChunkOptions()
    names = list(axes)
    values = [list(axes[name]) for name in names]
    for name, listed in zip(names, values):
        if not listed:
            raise ValueError(f"no values given for {name}")
    grid: list[ChunkOptions] = []
    for combination in product(*values):
        options = ChunkOptions.build(base, **dict(zip(names, combination)))
        if options not in grid:
            grid.append(options)
    return grid


def chunking_of(options: ChunkOptions) -> ChunkOptions:
    """The setting that chunks and embeds exactly as ``options`` does, with what has no
    effect left at its default: under context ``none`` nothing but the chunk's text is
    embedded, so the overlap changes no measure (chunks, sizes, what is indexed)."""
    if options.context_mode == "none" and options.overlap_lines:
        return replace(options, overlap_lines=0)
    return options


@dataclass(frozen=True, slots=True)
class Merged:
    """A grid point left out because it cannot differ from a kept one (``same_as``, an
    index of the kept settings)."""

    options: ChunkOptions
    same_as: int
    why: str = "under context none nothing but the chunk's text is embedded, so the overlap changes nothing"

    def to_dict(self) -> dict[str, Any]:
        return {"options": self.options.to_dict(), "sameAs": self.same_as, "why": self.why}


def distinct_settings(settings: Sequence[ChunkOptions]) -> tuple[list[ChunkOptions], list[Merged]]:
    """The settings that can differ (the first of each group, in order), and the others,
    each with the kept setting it is the same as (see :func:`chunking_of`)."""
    kept: list[ChunkOptions] = []
    seen: dict[ChunkOptions, int] = {}
    merged: list[Merged] = []
    for options in settings:
        key = chunking_of(options)
        if key in seen:
            merged.append(Merged(options, seen[key]))
        else:
            seen[key] = len(kept)
            kept.append(options)
    return kept, merged


# -- results ----------------------------------------------------------------------------
@dataclass(slots=True)
class SettingResult:
    """The pooled measures of one setting over every file that was chunked."""

    index: int  # position in the sweep, from 0
    options: ChunkOptions
    summary: Summary
    contextualized_bytes: int
    embedding_dim: int = DEFAULT_EMBEDDING_DIM
    chunk_seconds: float = 0.0  # chunking + measuring, summed over the workers
    #: Definitions larger than max_size, so cut into pieces (:func:`~explorer.engine.measure.problems.cut_too_big`),
    #: and all definitions: what a small size costs, next to ``split_definitions`` (which fit).
    cut_too_big: int = 0
    definitions: int = 0

    @property
    def chunks(self) -> int:
        return self.summary.overall.chunks

    @property
    def vector_bytes(self) -> int:
        return self.chunks * self.embedding_dim * FLOAT32_BYTES

    @property
    def index_bytes(self) -> int:
        """Estimated index size: see the module docstring for the formula."""
        return self.vector_bytes + self.contextualized_bytes

    @property
    def cut_too_big_pct(self) -> float | None:
        """Definitions cut because too big, in % of all definitions."""
        return 100.0 * self.cut_too_big / self.definitions if self.definitions else None

    @property
    def split_definitions(self) -> int:
        """Definitions that fit in one chunk but that no chunk holds (``any_split``)."""
        return self.summary.overall.any_split

    def label(self, varied: Sequence[str]) -> str:
        """``max_size=1000 overlap_lines=5`` for the fields that differ in the sweep."""
        return setting_label(self.options, varied, self.index)

    def to_dict(self) -> dict[str, Any]:
        overall = self.summary.overall

        def r(value: float | None) -> float | None:
            return None if value is None else round(value, 3)

        return {
            "index": self.index,
            "options": self.options.to_dict(),
            "chunks": self.chunks,
            "size": overall.size_stats(),
            "tinyPct": r(overall.tiny_pct),
            "overPct": r(overall.over_pct),
            "splitDefinitions": self.split_definitions,
            "definitions": self.definitions,
            "cutTooBig": self.cut_too_big,
            "cutTooBigPct": r(self.cut_too_big_pct),
            "splitAnyPct": r(overall.split_any_pct),
            "splitTopPct": r(overall.split_top_pct),
            "docSplitPct": r(overall.doc_split_pct),
            "cleanPct": r(overall.clean_pct),
            "contextualizedBytes": self.contextualized_bytes,
            "vectorBytes": self.vector_bytes,
            "indexBytes": self.index_bytes,
            "chunkSeconds": round(self.chunk_seconds, 3),
            "summary": self.summary.to_dict(),
        }


@dataclass(slots=True)
class SweepResult:
    root: str | None
    settings: list[SettingResult]
    files: int = 0  # files measured under every setting
    bytes: int = 0
    skipped: list[SkipRecord] = field(default_factory=list)  # the caller's (a walk's), then binary files
    failed: list[BatchResult] = field(default_factory=list)
    seconds: float = 0.0  # wall time of the whole sweep
    parse_seconds: float = 0.0  # reading + parsing, summed over the workers
    jobs: int = 1
    embedding_dim: int = DEFAULT_EMBEDDING_DIM
    complete: bool = True  # False when stopped early

    @property
    def varied(self) -> list[str]:
        return varied_fields([s.options for s in self.settings])

    def to_dict(self) -> dict[str, Any]:
        return {
            "root": self.root,
            "varied": self.varied,
            "embeddingDim": self.embedding_dim,
            "indexSizeFormula": "chunks * embeddingDim * 4 + contextualizedBytes",
            "settings": [s.to_dict() for s in self.settings],
            "run": {
                "files": self.files,
                "bytes": self.bytes,
                "skipped": count_reasons(self.skipped),
                "failed": [{"path": r.path, "error": {"kind": r.error_kind, "message": r.error}} for r in self.failed],
                "seconds": round(self.seconds, 3),
                "parseSeconds": round(self.parse_seconds, 3),
                "jobs": self.jobs,
                "complete": self.complete,
            },
        }


# -- running ------------------------------------------------------------------------------
def sweep(
    files: Iterable[SweepInput],
    settings: Sequence[ChunkOptions | Mapping[str, Any]],
    *,
    base: ChunkOptions | None = None,
    root: str | None = None,
    skipped: Iterable[SkipRecord] = (),
    jobs: int | None = None,
    on_progress: ProgressCallback | None = None,
    should_stop: ShouldStop | None = None,
    embedding_dim: int = DEFAULT_EMBEDDING_DIM,
    run_batch: BatchRunner = chunk_batch_stream,
) -> SweepResult:
    """Measure every setting over ``files``.

    ``files``: :class:`BatchFile` (a ``path`` to read, or ``code``) or ``(filepath, code)``
    tuples; walking a directory is the caller's part (``workspace.sweep_paths`` does it).
    ``settings``: ``ChunkOptions`` or dicts of overrides of ``base``. ``root`` and the
    caller's ``skipped`` records are carried into the result for its report.
    ``on_progress`` is called as ``(completed, total, BatchResult)`` per file;
    ``should_stop()`` is checked after each file (a stopped sweep has ``complete=False``
    and covers the files done so far). ``run_batch`` runs the batch (a results cache
    answers the files it knows). Invalid settings raise ValueError before any work."""
    resolved = tuple(_as_options(s, base) for s in settings)
    resolved = tuple(dict.fromkeys(resolved))  # drop duplicates, keep order
    if not resolved:
        raise ValueError("a sweep needs at least one setting")
    if isinstance(embedding_dim, bool) or not isinstance(embedding_dim, int) or embedding_dim < 1:
        raise ValueError(f"embedding_dim must be a positive integer, not {embedding_dim!r}")
    jobs = default_jobs() if jobs is None else int(jobs)
    batch = [_batch_file(item) for item in files]

    started = time.perf_counter()
    per_setting: list[list[FileMetrics]] = [[] for _ in resolved]
    text_bytes = [0] * len(resolved)
    chunk_seconds = [0.0] * len(resolved)
    too_big = [[0, 0] for _ in resolved]  # per setting: definitions cut because too big, all definitions
    result = SweepResult(root, [], skipped=list(skipped), jobs=jobs, embedding_dim=embedding_dim)
    parse_options = replace(resolved[0], strategy="ast")  # the tree serves every setting
    stream = run_batch(
        batch, jobs=jobs, on_progress=on_progress, analyze=partial(analyze_settings, resolved),
        keep_chunks=False, options=parse_options,
    )
    try:
        for item in stream:
            _collect(item, result, per_setting, text_bytes, chunk_seconds, too_big)
            if stop_asked(should_stop):
                result.complete = False
                break
    finally:
        close = getattr(stream, "close", None)  # a generator: closing it stops the pool
        if close is not None:
            close()
    result.seconds = time.perf_counter() - started
    result.settings = [
        SettingResult(i, options, summarize(per_setting[i]), text_bytes[i], embedding_dim, chunk_seconds[i],
                      *too_big[i])
        for i, options in enumerate(resolved)
    ]
    return result


def _collect(item: BatchResult, result: SweepResult, per_setting: list[list[FileMetrics]],
             text_bytes: list[int], chunk_seconds: list[float], too_big: list[list[int]]) -> None:
    if not item.ok:
        if item.not_text:
            result.skipped.append(SkippedInput.not_text(item.path, item.error_kind, item.error))
        else:
            result.failed.append(item)
        return
    found: FileSweep = item.analysis
    result.files += 1
    result.bytes += item.bytes
    result.parse_seconds += found.parse_seconds
    for i, measures in enumerate(found.measures):
        per_setting[i].append(measures)
        text_bytes[i] += found.contextualized_bytes[i]
        chunk_seconds[i] += found.chunk_seconds[i]
        too_big[i][0] += found.cut_too_big[i]
        too_big[i][1] += found.definitions[i]


def _as_options(setting: ChunkOptions | Mapping[str, Any], base: ChunkOptions | None) -> ChunkOptions:
    if isinstance(setting, ChunkOptions):
        return setting
    if isinstance(setting, Mapping):
        return ChunkOptions.build(base, **setting)
    raise TypeError(f"a sweep setting must be ChunkOptions or a dict of options, not {type(setting).__name__}")


def _batch_file(item: SweepInput) -> BatchFile:
    if isinstance(item, BatchFile):
        return item
    if isinstance(item, tuple) and len(item) == 2:
        return BatchFile(code=item[1], name=os.fspath(item[0]))
    raise TypeError(f"a sweep input must be a BatchFile or (filepath, code), not {type(item).__name__}")
