"""Evaluating retrieval over a codebase: the paths are walked as every command walks
them (.gitignore, excludes, size cap), the files read once, then the engine evaluates
the settings over them (:mod:`explorer.engine.retrieval`, which never walks). With the
``history`` query source, the repository's history is mined between the chunking and
the retrieval (:mod:`.history`: git is read here, never in the engine), against the
definitions the chunking found. The CLI's ``eval`` and ``sweep --retrieval`` and the
explorer's retrieval panel all run this.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from ..engine.cancel import ShouldStop
from ..engine.options import ChunkOptions
from ..engine.retrieval import (
    EvalConfig,
    EvalProgress,
    EvalResult,
    Prepared,
    QueryFileError,
    QuerySpec,
    Retriever,
    SettingEval,
    evaluate_prepared,
    prepare,
)
from ..engine.retrieval.evaluate import add_history_queries, named_definitions, parse_sources
from ..engine.retrieval.history import HISTORY, HistoryRules
from ..engine.retrieval.queries import normalize_path
from ..engine.retrieval.results import READING_HISTORY
from .history import mine_history
from .history.mine import DEFAULT_CACHE
from .results_cache import ResultsCache, runner_of
from .sources import read_sources
from .walk import PathArg, Skipped, WalkOptions, WalkPlan, plan_of

#: The context budget of recall@budget when none is given, per size unit (about 4,000
#: non-whitespace characters in each).
DEFAULT_BUDGETS = {"nws": 4000, "chars": 8000, "lines": 200, "tokens": 2000}


def budget_config(budget: int | None, settings: Sequence[ChunkOptions]) -> tuple[int, str]:
    """The budget and its unit: the settings' size unit when they share one, else nws;
    the unit's default when ``budget`` is None."""
    units = {s.size_unit for s in settings}
    unit = units.pop() if len(units) == 1 else "nws"
    return (DEFAULT_BUDGETS[unit] if budget is None else budget), unit


@dataclass(slots=True)
class PathsEvaluation:
    """An evaluation of the files under some paths: the engine's result, the walk, the
    files that could not be read, and (with ``keep_prepared``) the chunked corpus and
    query targets, for views that draw chunks."""

    result: EvalResult
    plan: WalkPlan
    unreadable: list[Skipped] = field(default_factory=list)
    prepared: Prepared | None = None


def evaluate_paths(
    paths: PathArg | Sequence[PathArg] | WalkPlan,
    settings: Sequence[ChunkOptions],
    *,
    walk: WalkOptions | None = None,
    queries: str | Sequence[QuerySpec] = "docs",
    query_source: str | None = None,
    retriever: Retriever | None = None,
    config: EvalConfig | None = None,
    reference: int = 0,
    jobs: int | None = None,
    on_progress: Callable[[EvalProgress], None] | None = None,
    on_setting: Callable[[SettingEval], None] | None = None,
    should_stop: ShouldStop | None = None,
    keep_prepared: bool = False,
    history: HistoryRules | None = None,
    history_cache: str | None = DEFAULT_CACHE,
    results_cache: ResultsCache | None = None,
) -> PathsEvaluation:
    """Evaluate ``settings`` (see :func:`explorer.engine.retrieval.evaluate`) over the
    files under ``paths`` (directories walked with ``walk``), or over the files of a
    ready ``WalkPlan``. ``reference`` indexes ``settings``. Query-file paths are
    resolved by :func:`resolve_query_paths`. ``history``: which commits give history
    queries (the defaults of :class:`HistoryRules` when None); ``history_cache``: where the
    definitions of files parsed from the history are kept (see :func:`mine_history`);
    ``results_cache``: the chunkings kept between runs (an unchanged file is not chunked
    again; None: none). Raises FileNotFoundError for a path that does not
    exist, ValueError for no settings, QueryFileError for a query file that names
    unknown files or lines; RuntimeError from the retriever (an endpoint that failed)."""
    files_plan = plan_of(paths, walk)
    if not settings:
        raise ValueError("an evaluation needs at least one setting")
    if not 0 <= reference < len(settings):
        raise ValueError(f"reference must index one of the {len(settings)} settings, not {reference}")
    max_bytes = (walk or WalkOptions()).max_file_size
    sources, unreadable = read_sources(files_plan, max_bytes)
    if not isinstance(queries, str):
        queries = resolve_query_paths(queries, [name for name, _ in sources], files_plan.root)
    if retriever is None:
        from ..engine.retrieval.bm25 import BM25Retriever

        retriever = BM25Retriever()
    config = config or EvalConfig()
    started = time.perf_counter()
    prepared = prepare(sources, settings, queries=queries, query_source=query_source, config=config, jobs=jobs,
                       on_progress=on_progress, should_stop=should_stop,
                       run_batch=runner_of(results_cache))
    if isinstance(queries, str) and HISTORY in parse_sources(queries) and prepared.complete:
        add_history(prepared, files_plan.root, history, max_bytes, jobs, on_progress, should_stop, history_cache)
    result = evaluate_prepared(prepared, retriever, config=config, reference=prepared.settings.index(settings[reference]),
                               on_progress=on_progress, on_setting=on_setting, should_stop=should_stop, started=started)
    return PathsEvaluation(result, files_plan, unreadable, prepared if keep_prepared else None)


def add_history(prepared: Prepared, root: str, rules: HistoryRules | None, max_bytes: int, jobs: int | None,
                on_progress: Callable[[EvalProgress], None] | None,
                should_stop: ShouldStop | None, cache_path: str | None = DEFAULT_CACHE) -> None:
    """Mine the history of the repository holding ``root`` for queries whose targets the
    chunked files still have, and add them to ``prepared``. No history (no git, not a
    repository, no eligible commit) leaves the other sources as they are; the funnel
    says why."""
    names = named_definitions(prepared)

    def known(path: str, name: str) -> bool:
        return name in names.get(path, {})

    def progressed(stage: str, done: int, total: int | None) -> None:
        if on_progress is not None:
            on_progress(EvalProgress(READING_HISTORY, done, total if stage == "reading" else None))

    mined = mine_history(root, names, rules, known=known, max_bytes=max_bytes, jobs=jobs, on_progress=progressed,
                         should_stop=should_stop, cache_path=cache_path)
    mined.funnel.problem = mined.problem
    if not mined.complete:
        prepared.complete = False
    add_history_queries(prepared, mined.queries, mined.funnel)


def resolve_query_paths(specs: Sequence[QuerySpec], names: Sequence[str], root: str,
                        cwd: str | None = None) -> list[QuerySpec]:
    """Query-file lines with each path as the evaluated file's name (relative to
    ``root``, forward slashes). A path may be relative to ``root``, relative to the
    current directory (``cwd``), or absolute; the first form that names an evaluated
    file wins. Raises QueryFileError naming the lines whose path names none, the forms
    accepted and the root used."""
    known = set(names)
    root = os.path.abspath(root)
    cwd = os.path.abspath(cwd or os.getcwd())
    resolved: list[QuerySpec] = []
    problems: list[str] = []
    for spec in specs:
        found = _evaluated_name(spec.path, known, root, cwd)
        if found is None:
            problems.append(f"line {spec.line_number}: no file {spec.path!r} among the files evaluated")
        else:
            resolved.append(spec if found == spec.path else replace(spec, path=found))
    if problems:
        more = f" (and {len(problems) - 5} more)" if len(problems) > 5 else ""
        raise QueryFileError("; ".join(problems[:5]) + more + f". A path may be relative to the evaluated root "
                             f"({root}), relative to the current directory ({cwd}), or absolute")
    return resolved


def _evaluated_name(path: str, known: set[str], root: str, cwd: str) -> str | None:
    if not os.path.isabs(path) and normalize_path(path) in known:
        return normalize_path(path)
    candidate = os.path.abspath(path if os.path.isabs(path) else os.path.join(cwd, path))
    name = normalize_path(os.path.relpath(candidate, root))
    return name if not name.startswith("../") and name in known else None
