"""The evaluation: chunk the files under each setting, retrieve, score, compare.

    result = evaluate([("a.py", data), ...], [ChunkOptions(max_size=500), ChunkOptions(max_size=2000)])
    for setting in result.settings:
        print(setting.options.max_size, setting.metrics["recall@5"], setting.delta["recall@5"].separated)

Steps: (1) every file is read, parsed once and, with doc queries, its query docs
found and masked, then re-parsed masked and chunked under every setting, in a
process pool (:func:`~explorer.engine.batch.chunk_batch_stream`); the query set is
built once. (2) Per setting, in this process: the chunks' indexed text (what a
pipeline embeds: ``contextualized_text`` for context modes ``minimal`` and
``full``, overlap lines included; ``text`` for ``none``) goes to the retriever,
every query is ranked and scored (:mod:`.relevance`). (3) Means with bootstrap
intervals and paired differences against the reference setting (:mod:`.metrics`).

Everything is a pure function of its inputs (fixed seed): the same files, settings
and options give the same figures. ``on_progress`` gets :class:`EvalProgress`;
``should_stop()`` is polled between files, settings and embedding batches: a stopped
run returns what it finished with ``complete=False``. ``on_setting`` gets each
:class:`SettingEval` as soon as it is scored (the reference is scored first, so
every one arrives with its differences).
"""

from __future__ import annotations

import time
from bisect import bisect_left
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields, replace
from functools import partial
from typing import Any

import numpy as np

from ..batch import BatchFile, BatchResult, chunk_batch_stream, default_jobs
from ..model import Chunk
from ..options import ChunkOptions
from ..parse import ParsedFile
from ..text import SourceText
from .masking import Edit, MaskedSource, mask
from .metrics import CONFIDENCE, DEFAULT_RESAMPLES, DEFAULT_SEED, Bootstrap, Estimate
from .queries import (
    DEFAULT_MIN_WORDS, DocQueryDraft, Query, QueryFileError, QuerySpec, check_specs, doc_queries,
    normalize_path, query_key, unique_texts,
)
from .ranking import Cancelled, Retriever
from .relevance import DEFAULT_BUDGET, DEFAULT_THRESHOLD, METRIC_NAMES, RANK_DEPTH, TOP, is_hit, score_query

#: Progress stages.
CHUNKING, RETRIEVING, SCORING = "chunking", "retrieving", "scoring"
#: Fewer queries than this: the intervals are wide; say so.
MIN_QUERIES = 300
#: Queries are ranked at least this deep, so a miss still has a rank to show.
MIN_DEPTH = 50
#: The ranking never goes deeper than this for the budget.
MAX_DEPTH = 256


@dataclass(frozen=True, slots=True)
class EvalConfig:
    """How queries are made and scored."""

    budget: int = DEFAULT_BUDGET
    hit_threshold: float = DEFAULT_THRESHOLD
    min_doc_words: int = DEFAULT_MIN_WORDS
    resamples: int = DEFAULT_RESAMPLES
    seed: int = DEFAULT_SEED

    def __post_init__(self) -> None:
        if isinstance(self.budget, bool) or not isinstance(self.budget, int) or self.budget < 1:
            raise ValueError(f"budget must be a whole number >= 1, not {self.budget!r}")
        if not 0 < self.hit_threshold <= 1:
            raise ValueError(f"hit threshold must be above 0 and at most 1, not {self.hit_threshold!r}")
        if self.min_doc_words < 1 or self.resamples < 1:
            raise ValueError("min_doc_words and resamples must be >= 1")


@dataclass(frozen=True, slots=True)
class EvalProgress:
    """``stage`` is :data:`CHUNKING` (``done``/``total`` files, ``path`` the last one),
    :data:`RETRIEVING` (per ``setting``: units of the retriever's work, e.g. chunks
    embedded) or :data:`SCORING` (per ``setting``: queries scored)."""

    stage: str
    done: int
    total: int | None
    setting: int | None = None
    path: str | None = None


@dataclass(frozen=True, slots=True)
class RetrievedChunk:
    """One of a query's top chunks, in the *original* file's coordinates (bytes end
    exclusive, lines 0-based inclusive); ``overlap``: nws shared with the target."""

    rank: int
    path: str
    start: int
    end: int
    line_start: int
    line_end: int
    nws: int
    overlap: int
    hit: bool


@dataclass(frozen=True, slots=True)
class QueryOutcome:
    """A query under one setting: the rank of its first hit (1-based; ``None`` when no
    hit is within the ranking's depth, ``SettingEval.depth``, at least 50), its top 5
    chunks, and whether one chunk holds the whole target (``whole``: False when the
    setting cut the definition)."""

    rank: int | None
    top: tuple[RetrievedChunk, ...]
    whole: bool = True


@dataclass(slots=True)
class SettingEval:
    """One setting's results. ``metrics``: mean and interval per measure;
    ``delta``: paired difference against the reference (zeros for the reference);
    ``per_query``: each measure per query (in ``EvalResult.queries`` order);
    ``outcomes``: ranks and top chunks per query."""

    index: int
    options: ChunkOptions
    chunks: int
    metrics: dict[str, Estimate]
    delta: dict[str, Estimate]
    per_query: dict[str, np.ndarray]
    outcomes: list[QueryOutcome]
    depth: int = RANK_DEPTH
    notes: dict[str, int] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)

    def label(self, varied: Sequence[str]) -> str:
        return " ".join(f"{name}={getattr(self.options, name)}" for name in varied) or f"setting {self.index + 1}"

    def to_dict(self) -> dict[str, Any]:
        options = self.options
        return {
            "index": self.index,
            "max_size": options.max_size,
            "size_unit": options.size_unit,
            "strategy": options.strategy,
            "context_mode": options.context_mode,
            "overlap_lines": options.overlap_lines,
            "options": options.to_dict(),
            "chunks": self.chunks,
            "metrics": {name: estimate.to_dict() for name, estimate in self.metrics.items()},
            "delta": {name: {**estimate.to_dict(), "separated": estimate.separated}
                      for name, estimate in self.delta.items()},
            "notes": dict(self.notes),
            "seconds": {name: round(value, 3) for name, value in self.seconds.items()},
        }


@dataclass(slots=True)
class EvalResult:
    queries: list[Query]
    settings: list[SettingEval]
    reference: int
    config: EvalConfig
    retriever: str
    query_source: str
    files: int = 0
    bytes: int = 0
    masked_docs: int = 0
    dropped_duplicates: int = 0
    failed: list[tuple[str, str]] = field(default_factory=list)  # (path, message)
    not_text: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    seconds: float = 0.0
    chunk_seconds: float = 0.0  # wall time of the chunking step
    jobs: int = 1
    complete: bool = True

    @property
    def varied(self) -> list[str]:
        options = [s.options for s in self.settings]
        if len(options) < 2:
            return ["max_size"]
        return [f.name for f in fields(ChunkOptions) if len({getattr(o, f.name) for o in options}) > 1]

    def best(self, metric: str) -> int | None:
        """The index (in ``settings``) of the best setting on a measure (the first on a tie)."""
        if not self.settings:
            return None
        return max(range(len(self.settings)), key=lambda i: (self.settings[i].metrics[metric].value, -i))

    def cut_comparisons(self) -> list[SubsetComparison]:
        """For each ``ast`` setting with a ``lines`` twin: ast against lines on the
        queries whose definition ``lines`` cuts and ``ast`` keeps whole."""
        out = []
        for ast, lines in strategy_pairs(self):
            queries = cut_by(self, lines, ast)
            if queries:
                out.append(compare_on(self, queries, ast, lines))
        return out

    def to_dict(self) -> dict[str, Any]:
        return {
            "queries": len(self.queries),
            "query_source": self.query_source,
            "retriever": self.retriever,
            "budget": self.config.budget,
            "hit_threshold": self.config.hit_threshold,
            "confidence": CONFIDENCE,
            "resamples": self.config.resamples,
            "seed": self.config.seed,
            "reference": self.reference,
            "varied": self.varied,
            "settings": [s.to_dict() for s in self.settings],
            "best": {name: self.best(name) for name in METRIC_NAMES} if self.settings else {},
            "cut_by_lines": [c.to_dict() for c in self.cut_comparisons()],
            "warnings": list(self.warnings),
            "run": {
                "files": self.files,
                "bytes": self.bytes,
                "masked_docs": self.masked_docs,
                "dropped_duplicate_queries": self.dropped_duplicates,
                "not_text": len(self.not_text),
                "failed": [{"path": p, "message": m} for p, m in self.failed],
                "seconds": round(self.seconds, 3),
                "chunk_seconds": round(self.chunk_seconds, 3),
                "jobs": self.jobs,
                "complete": self.complete,
            },
        }


# -- step 1: in the worker processes ------------------------------------------------------
@dataclass(slots=True)
class FileChunks:
    """What a worker sends back for one file: its doc queries, the edits that mask
    them, and per setting its chunks (masked-file bytes) and their indexed text."""

    drafts: list[DocQueryDraft]
    edits: list[tuple[int, int, bytes]]
    spans: list[list[tuple[int, int, int]]]  # per setting: (start, end, nws)
    texts: list[list[str]]  # per setting


def indexed_text(chunk: Chunk, options: ChunkOptions) -> str:
    """What a pipeline embeds for a chunk under ``options``."""
    return chunk.text if options.context_mode == "none" else chunk.contextualized_text


def chunk_for_eval(
    settings: tuple[ChunkOptions, ...], docs: bool, min_words: int,
    parsed: ParsedFile, chunks: list[Chunk], options: ChunkOptions, seconds: dict[str, float],
) -> FileChunks:
    """Batch analyzer (runs in a worker): find and mask the doc queries, then chunk
    the masked file under every setting."""
    from ..api import chunk_parsed, parse
    from ..parse import edited_notebook, parse_source
    from ..structure import extract_structure

    drafts: list[DocQueryDraft] = []
    edits: list[Edit] = []
    if docs and (parsed.tree is not None or parsed.regions):
        drafts, edits = doc_queries(extract_structure(parsed), min_words=min_words)
    tree = parsed
    if edits:
        masked = mask(parsed.source.data, edits)
        # A notebook's document (its cells' sources) is read back as a notebook.
        data = edited_notebook(parsed, masked.masked, masked.to_masked) if parsed.cells else masked.masked
        tree = parse(parsed.path, data, replace(options, language=parsed.language))
        edits = list(masked.edits)
    trees: dict[str | None, ParsedFile] = {None: tree, tree.language: tree}
    result = FileChunks(drafts, [(e.start, e.end, e.replacement) for e in edits], [], [])
    for setting in settings:
        source = trees.get(setting.language)
        if source is None:
            source = trees[setting.language] = parse_source(tree.source, tree.path, setting.language)
        if setting.strategy == "lines" and source.tree is not None:
            source = replace(source, tree=None, fallback="lines strategy")
        made = chunk_parsed(source, setting)
        result.spans.append([(c.byte_range.start, c.byte_range.end, c.nws) for c in made])
        result.texts.append([indexed_text(c, setting) for c in made])
    return result


# -- the corpus, in this process -----------------------------------------------------------
@dataclass(slots=True)
class CorpusFile:
    path: str
    masked: MaskedSource
    chunks: FileChunks
    _original: SourceText | None = None
    _masked_text: SourceText | None = None

    @property
    def original_text(self) -> SourceText:
        if self._original is None:
            self._original = SourceText(self.masked.original, self.path)
        return self._original

    @property
    def masked_text(self) -> SourceText:
        if self._masked_text is None:
            self._masked_text = (
                self.original_text if not self.masked.edits else SourceText(self.masked.masked, self.path)
            )
        return self._masked_text


@dataclass(frozen=True, slots=True)
class Target:
    """A query's target in its file's masked bytes."""

    file: int
    start: int
    end: int
    nws: int


@dataclass(slots=True)
class Prepared:
    """Step 1's output: the files chunked under every setting and the query set."""

    settings: tuple[ChunkOptions, ...]
    files: list[CorpusFile]
    queries: list[Query]
    targets: list[Target]
    query_source: str
    bytes: int = 0
    masked_docs: int = 0
    dropped_duplicates: int = 0
    failed: list[tuple[str, str]] = field(default_factory=list)
    not_text: list[str] = field(default_factory=list)
    seconds: float = 0.0
    jobs: int = 1
    complete: bool = True


def prepare(
    files: Sequence[tuple[str, bytes]],
    settings: Sequence[ChunkOptions],
    *,
    queries: str | Sequence[QuerySpec] = "docs",
    query_source: str | None = None,
    config: EvalConfig | None = None,
    jobs: int | None = None,
    on_progress: Callable[[EvalProgress], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> Prepared:
    """Step 1: chunk every file under every setting (in parallel) and build the queries.

    ``files``: ``(path, content)`` pairs (paths as the query file names them);
    ``queries``: ``"docs"`` or parsed query-file lines. Raises ValueError for no
    settings, and :class:`QueryFileError` for query-file lines that name unknown files
    or lines."""
    config = config or EvalConfig()
    resolved = tuple(dict.fromkeys(settings))
    if not resolved:
        raise ValueError("an evaluation needs at least one setting")
    docs = isinstance(queries, str)
    if docs and queries != "docs":
        raise ValueError(f"queries must be 'docs' or query-file lines, not {queries!r}")
    jobs = default_jobs() if jobs is None else int(jobs)
    started = time.perf_counter()
    names = [normalize_path(path) for path, _ in files]
    contents = {name: data for name, (_, data) in zip(names, files)}
    prepared = Prepared(resolved, [], [], [], "docs" if docs else (query_source or "file"), jobs=jobs)
    specs: list[QuerySpec] = [] if isinstance(queries, str) else list(queries)
    if specs:  # a bad query file fails before any work
        wanted = {spec.path for spec in specs if spec.path in contents}
        _check_specs(specs, {path: SourceText(contents[path], path).line_count for path in wanted})
    # The batch's own chunking is thrown away: one chunk per file keeps it cheap.
    batch_options = ChunkOptions.build(resolved[0], max_size=1 << 30, strategy="ast", context_mode="none",
                                       overlap_lines=0)
    analyzer = partial(chunk_for_eval, resolved, docs, config.min_doc_words)
    batch = [BatchFile(code=data, name=name) for name, data in zip(names, (d for _, d in files))]

    def progress(done: int, total: int | None, result: BatchResult) -> None:
        if on_progress is not None:
            on_progress(EvalProgress(CHUNKING, done, total, path=result.path))

    stream = chunk_batch_stream(batch, jobs=jobs, on_progress=progress, analyze=analyzer, keep_chunks=False,
                                options=batch_options)
    try:
        for item in stream:
            _collect(item, contents, prepared)
            if should_stop is not None and should_stop():
                prepared.complete = False
                break
    finally:
        close = getattr(stream, "close", None)  # a generator: closing it stops the pool
        if close is not None:
            close()
    if docs:
        _doc_queries(prepared)
    else:
        _file_queries(prepared, specs)
    prepared.seconds = time.perf_counter() - started
    return prepared


def _collect(item: BatchResult, contents: dict[str, bytes], prepared: Prepared) -> None:
    if not item.ok:
        if item.not_text:
            prepared.not_text.append(item.path)
        else:
            prepared.failed.append((item.path, item.error or "failed"))
        return
    found: FileChunks = item.analysis
    data = contents[item.path]
    masked = mask(data, [Edit(s, e, r) for s, e, r in found.edits])
    prepared.files.append(CorpusFile(item.path, masked, found))
    prepared.bytes += len(data)
    prepared.masked_docs += len(found.edits)


def _doc_queries(prepared: Prepared) -> None:
    drafts = [(i, d) for i, f in enumerate(prepared.files) for d in f.chunks.drafts]
    unique = unique_texts(d.text for _, d in drafts)
    for i, draft in drafts:
        if query_key(draft.text) not in unique:
            prepared.dropped_duplicates += 1
            continue
        _add_query(prepared, i, draft.start, draft.end, draft.text, draft.name, draft.kind, "docs")


def _check_specs(specs: list[QuerySpec], line_counts: dict[str, int]) -> None:
    problems = check_specs(specs, line_counts)
    if problems:
        more = f" (and {len(problems) - 5} more)" if len(problems) > 5 else ""
        raise QueryFileError("; ".join(problems[:5]) + more)


def _file_queries(prepared: Prepared, specs: list[QuerySpec]) -> None:
    by_path = {f.path: i for i, f in enumerate(prepared.files)}
    # files that turned out binary or failed: their queries cannot be scored
    _check_specs(specs, {f.path: f.original_text.line_count for f in prepared.files})
    for spec in specs:
        i = by_path[spec.path]
        text = prepared.files[i].original_text
        start, end = text.line_start(spec.start_line - 1), text.line_end(spec.end_line - 1)
        _add_query(prepared, i, start, end, spec.text, None, None, prepared.query_source)


def _add_query(prepared: Prepared, file: int, start: int, end: int, text: str, name: str | None,
               kind: str | None, origin: str) -> None:
    corpus_file = prepared.files[file]
    masked_start, masked_end = corpus_file.masked.to_masked(start), corpus_file.masked.to_masked(end)
    nws = corpus_file.masked_text.nws(masked_start, masked_end)
    if nws == 0:
        return  # nothing to find (a blank span)
    first, last = corpus_file.original_text.line_range(start, end)
    prepared.queries.append(Query(text, corpus_file.path, start, end, first, last, name, kind, origin))
    prepared.targets.append(Target(file, masked_start, masked_end, nws))


# -- step 2: one setting -------------------------------------------------------------------
def run_setting(
    prepared: Prepared,
    index: int,
    retriever: Retriever,
    *,
    config: EvalConfig | None = None,
    on_progress: Callable[[EvalProgress], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> tuple[dict[str, np.ndarray], list[QueryOutcome], int, int, dict[str, int], dict[str, float]]:
    """Retrieve and score every query under setting ``index``: ``(per-query measures,
    outcomes, chunks, depth, retriever notes, seconds)``. Raises :class:`Cancelled`."""
    config = config or EvalConfig()
    started = time.perf_counter()
    texts: list[str] = []
    owner: list[int] = []  # chunk -> file
    spans: list[tuple[int, int, int]] = []
    first_chunk: list[int] = []  # file -> its first chunk id
    for file_index, corpus_file in enumerate(prepared.files):
        first_chunk.append(len(texts))
        texts.extend(corpus_file.chunks.texts[index])
        file_spans = corpus_file.chunks.spans[index]
        spans.extend(file_spans)
        owner.extend([file_index] * len(file_spans))
    depth = _depth([nws for _, _, nws in spans], config.budget)

    def step(done: int, total: int) -> None:
        if on_progress is not None:
            on_progress(EvalProgress(RETRIEVING, done, total, setting=index))

    ranking = retriever.search(texts, [q.text for q in prepared.queries], depth, on_progress=step,
                               should_stop=should_stop)
    retrieved = time.perf_counter()
    per_query = {name: np.zeros(len(prepared.queries)) for name in METRIC_NAMES}
    outcomes: list[QueryOutcome] = []
    threshold = config.hit_threshold
    for q, target in enumerate(prepared.targets):
        corpus_file = prepared.files[target.file]
        overlaps = _overlaps(corpus_file, corpus_file.chunks.spans[index], first_chunk[target.file], target)
        relevant = sum(1 for c, o in overlaps.items() if is_hit(o, target.nws, spans[c][2], threshold))
        ranked_ids = [int(c) for c in ranking.ids[q] if c >= 0]
        ranked = [(spans[c][2], overlaps.get(c, 0)) for c in ranked_ids]
        rank, values = score_query(ranked, target.nws, relevant, threshold=threshold, budget=config.budget)
        for name, value in values.items():
            per_query[name][q] = value
        top = tuple(
            _retrieved(prepared.files[owner[c]], spans[c], position + 1, nws_overlap, target.nws, threshold)
            for position, (c, (_, nws_overlap)) in enumerate(zip(ranked_ids[:TOP], ranked[:TOP]))
        )
        outcomes.append(QueryOutcome(rank, top, any(o >= target.nws for o in overlaps.values())))
        if on_progress is not None and (q + 1) % 200 == 0:
            on_progress(EvalProgress(SCORING, q + 1, len(prepared.targets), setting=index))
    seconds = {"retrieve": retrieved - started, "score": time.perf_counter() - retrieved}
    return per_query, outcomes, len(texts), depth, ranking.notes, seconds


def _depth(sizes: list[int], budget: int) -> int:
    """How deep to rank so the budget can always be spent: the count of the smallest
    chunks that overflow it (at least :data:`MIN_DEPTH`, at most :data:`MAX_DEPTH`, and
    never more than there are chunks)."""
    if not sizes:
        return RANK_DEPTH
    smallest = np.sort(np.asarray(sizes))[: MAX_DEPTH + 1]
    needed = int(np.searchsorted(np.cumsum(smallest), budget, side="right")) + 1
    return min(max(MIN_DEPTH, needed), MAX_DEPTH, len(sizes))


def _overlaps(corpus_file: CorpusFile, spans: list[tuple[int, int, int]], first: int, target: Target) -> dict[int, int]:
    """Chunk id -> nws shared with the target, for the chunks of its file that overlap it."""
    nws = corpus_file.masked_text.sizer("nws")
    found: dict[int, int] = {}
    at = bisect_left(spans, (target.start,))
    at = max(0, at - 1)
    while at < len(spans) and spans[at][0] < target.end:
        start, end, _ = spans[at]
        if end > target.start:
            shared = nws(max(start, target.start), min(end, target.end))
            if shared:
                found[first + at] = shared
        at += 1
    return found


def _retrieved(corpus_file: CorpusFile, span: tuple[int, int, int], rank: int, overlap: int, target_nws: int,
               threshold: float) -> RetrievedChunk:
    start, end, nws = span
    masked = corpus_file.masked
    original_start, original_end = masked.to_original(start), masked.to_original(end, end=True)
    first, last = corpus_file.original_text.line_range(original_start, original_end)
    return RetrievedChunk(rank, corpus_file.path, original_start, original_end, first, last, nws, overlap,
                          is_hit(overlap, target_nws, nws, threshold))


# -- on a subset of the queries -----------------------------------------------------------
@dataclass(frozen=True, slots=True)
class SubsetComparison:
    """``setting`` against ``reference`` (positions in ``EvalResult.settings``) on some
    queries only: the paired differences, with intervals over those queries."""

    setting: int
    reference: int
    queries: list[int]
    delta: dict[str, Estimate]

    def to_dict(self) -> dict[str, Any]:
        return {"setting": self.setting, "reference": self.reference, "queries": len(self.queries),
                "delta": {name: {**e.to_dict(), "separated": e.separated} for name, e in self.delta.items()}}


def compare_on(result: EvalResult, queries: Sequence[int], setting: int, reference: int) -> SubsetComparison:
    """Paired differences of ``setting`` against ``reference`` on the given queries
    (indices into ``result.queries``), bootstrapped with the run's seed."""
    chosen = np.asarray(list(queries), dtype=np.int64)
    bootstrap = Bootstrap(len(chosen), resamples=result.config.resamples, seed=result.config.seed)
    ours, theirs = result.settings[setting].per_query, result.settings[reference].per_query
    delta = {name: bootstrap.paired(ours[name][chosen], theirs[name][chosen]) for name in ours}
    return SubsetComparison(setting, reference, [int(q) for q in chosen], delta)


def cut_by(result: EvalResult, cutting: int, keeping: int) -> list[int]:
    """The queries whose target setting ``keeping`` holds in one chunk and setting
    ``cutting`` splits (positions in ``result.settings``): where the two strategies differ."""
    kept, cut = result.settings[keeping].outcomes, result.settings[cutting].outcomes
    return [q for q in range(len(result.queries)) if kept[q].whole and not cut[q].whole]


def strategy_pairs(result: EvalResult) -> list[tuple[int, int]]:
    """``(ast, lines)`` positions of settings that differ only in their strategy."""
    pairs = []
    for i, a in enumerate(result.settings):
        for j, b in enumerate(result.settings):
            if a.options.strategy == "ast" and b.options.strategy == "lines" \
                    and replace(b.options, strategy="ast") == a.options:
                pairs.append((i, j))
    return pairs


# -- the whole evaluation ------------------------------------------------------------------
def evaluate(
    files: Sequence[tuple[str, bytes]],
    settings: Sequence[ChunkOptions],
    *,
    queries: str | Sequence[QuerySpec] = "docs",
    query_source: str | None = None,
    retriever: Retriever | None = None,
    config: EvalConfig | None = None,
    reference: int = 0,
    jobs: int | None = None,
    on_progress: Callable[[EvalProgress], None] | None = None,
    on_setting: Callable[[SettingEval], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> EvalResult:
    """Evaluate every setting (see the module docstring). ``reference``: the index of
    the setting the others are compared with. ``retriever``: BM25 by default."""
    config = config or EvalConfig()
    if not 0 <= reference < len(settings):
        raise ValueError(f"reference must index one of the {len(settings)} settings, not {reference}")
    if retriever is None:
        from .bm25 import BM25Retriever

        retriever = BM25Retriever()
    started = time.perf_counter()
    prepared = prepare(files, settings, queries=queries, query_source=query_source, config=config, jobs=jobs,
                       on_progress=on_progress, should_stop=should_stop)
    reference = prepared.settings.index(settings[reference])
    return evaluate_prepared(prepared, retriever, config=config, reference=reference, on_progress=on_progress,
                             on_setting=on_setting, should_stop=should_stop, started=started)


def evaluate_prepared(
    prepared: Prepared,
    retriever: Retriever,
    *,
    config: EvalConfig | None = None,
    reference: int = 0,
    on_progress: Callable[[EvalProgress], None] | None = None,
    on_setting: Callable[[SettingEval], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
    started: float | None = None,
) -> EvalResult:
    """Steps 2 and 3 over a :func:`prepare` result (e.g. to try another retriever)."""
    config = config or EvalConfig()
    started = time.perf_counter() if started is None else started
    result = EvalResult(
        prepared.queries, [], reference, config, retriever.name, prepared.query_source,
        files=len(prepared.files), bytes=prepared.bytes, masked_docs=prepared.masked_docs,
        dropped_duplicates=prepared.dropped_duplicates, failed=list(prepared.failed),
        not_text=list(prepared.not_text), chunk_seconds=prepared.seconds, jobs=prepared.jobs,
        complete=prepared.complete,
    )
    if not prepared.queries:
        result.warnings.append("no queries: nothing to measure")
    elif len(prepared.queries) < MIN_QUERIES:
        result.warnings.append(
            f"only {len(prepared.queries)} queries (fewer than {MIN_QUERIES}): the intervals are wide; "
            "differences are likely to be within them")
    bootstrap = Bootstrap(len(prepared.queries), resamples=config.resamples, seed=config.seed)
    order = [reference] + [i for i in range(len(prepared.settings)) if i != reference]
    reference_values: dict[str, np.ndarray] | None = None
    done: list[SettingEval] = []
    for index in order if result.complete else []:
        if should_stop is not None and should_stop():
            result.complete = False
            break
        try:
            per_query, outcomes, chunks, depth, notes, seconds = run_setting(
                prepared, index, retriever, config=config, on_progress=on_progress, should_stop=should_stop)
        except Cancelled:
            result.complete = False
            break
        if reference_values is None:
            reference_values = per_query
        setting = SettingEval(
            index, prepared.settings[index], chunks,
            {name: bootstrap.estimate(values) for name, values in per_query.items()},
            {name: bootstrap.paired(values, reference_values[name]) for name, values in per_query.items()},
            per_query, outcomes, depth, notes, seconds,
        )
        done.append(setting)
        if on_setting is not None:
            on_setting(setting)
    result.settings = sorted(done, key=lambda s: s.index)
    result.reference = next((i for i, s in enumerate(result.settings) if s.index == reference), 0)
    result.seconds = time.perf_counter() - started
    return result
