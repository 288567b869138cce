"""Sweeping a codebase: the paths are walked as every command walks them (.gitignore,
excludes, size cap), then the engine measures the settings over the files found
(:func:`explorer.engine.measure.sweep.sweep`, which never walks)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..engine.batch import BatchFile, ProgressCallback
from ..engine.cancel import ShouldStop
from ..engine.measure.sweep import DEFAULT_EMBEDDING_DIM, SweepResult, sweep
from ..engine.options import ChunkOptions
from .results_cache import ResultsCache, runner_of
from .walk import PathArg, WalkOptions, WalkPlan, plan_of


def sweep_paths(
    paths: PathArg | Sequence[PathArg] | WalkPlan,
    settings: Sequence[ChunkOptions | Mapping[str, Any]],
    *,
    walk: WalkOptions | None = None,
    base: ChunkOptions | None = None,
    jobs: int | None = None,
    on_progress: ProgressCallback | None = None,
    should_stop: ShouldStop | None = None,
    embedding_dim: int = DEFAULT_EMBEDDING_DIM,
    cache: ResultsCache | None = None,
) -> SweepResult:
    """Measure every setting over the files under ``paths`` (directories walked with
    ``walk``), or over the files of a ready ``WalkPlan``. The result's ``root`` and
    ``skipped`` are the walk's (plus files found binary while chunking). ``cache``: the
    results kept between runs (an unchanged file is not measured again); None: none.
    Raises FileNotFoundError for a path that does not exist, ValueError for bad settings."""
    files_plan = plan_of(paths, walk)
    return sweep(
        [BatchFile(path=f.path, name=f.rel) for f in files_plan.files], settings,
        base=base, root=files_plan.root, skipped=files_plan.skipped, jobs=jobs,
        on_progress=on_progress, should_stop=should_stop, embedding_dim=embedding_dim,
        run_batch=runner_of(cache),
    )
