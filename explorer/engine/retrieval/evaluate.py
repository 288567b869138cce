"""The evaluation: chunk the files under each setting, retrieve, score, compare.

    result = evaluate([("a.py", data), ...], [ChunkOptions(max_size=500), ChunkOptions(max_size=2000)])
    for setting in result.settings:
        print(setting.options.max_size, setting.metrics["recall@5"], setting.delta["recall@5"].separated)

Steps: (1) every file is read, parsed once and, with doc queries, its query docs
found and masked (with use queries, its definitions and its calls and type uses
found: :mod:`.calls`), then re-parsed masked and chunked under every setting, in a
process pool (:func:`~explorer.engine.batch.chunk_batch_stream`); the query set is
built once (a use is paired with the one definition of its name in another file).
(2) Per setting, in this process: the chunks' indexed text (what a pipeline embeds:
``contextualized_text`` for context modes ``minimal`` and ``full``, overlap lines
included; ``text`` for ``none``) goes to the retriever, every query is ranked (a use
query without the chunks that hold its own lines) and scored (:mod:`.relevance`). (3) Means with bootstrap
intervals and paired differences against the reference setting (:mod:`.statistics`).

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
from dataclasses import dataclass, field, replace
from functools import partial

import numpy as np

from ..api import parse
from ..batch import BatchFile, BatchResult, BatchRunner, chunk_batch_stream, default_jobs
from ..batch.skips import SkippedInput
from ..cancel import Cancelled, ShouldStop, stop_asked
from ..measure.per_setting import chunk_settings
from ..model import Chunk
from ..options import ChunkOptions
from ..parse import ParsedFile, edited_notebook
from ..structure import extract_structure
from ..text import SourceText
from .calls import USE_SOURCES, Definition, Use, definitions, find_uses, import_aliases
from .history import GONE, HISTORY, CommitQuery, HistoryDefinition, HistoryFunnel, definitions_of, names_target
from .masking import Edit, MaskedSource, mask
from .queries import (
    DocQueryDraft,
    Query,
    QueryFileError,
    QuerySpec,
    TargetSpan,
    check_specs,
    doc_queries,
    normalize_path,
    query_key,
    unique_texts,
)
from .ranking import Retriever
from .relevance import METRIC_NAMES, RANK_DEPTH, TOP, is_hit, score_query
from .results import (
    CHUNKING,
    RETRIEVING,
    SCORING,
    EvalConfig,
    EvalProgress,
    EvalResult,
    QueryOutcome,
    RetrievedChunk,
    SettingEval,
)
from .statistics import Bootstrap

#: The built-in query sources: the code's docs, calls of its functions, uses of its types,
#: and the repository's history (commit messages and the definitions they changed).
QUERY_SOURCES: tuple[str, ...] = ("docs", *USE_SOURCES, HISTORY)
#: The tokenizer costs are counted with when the settings name none (if installed).
COST_TOKENIZER = "cl100k_base"
#: A use's query: its line and the lines before it, this many in all.
USE_CONTEXT_LINES = 5
#: Fewer queries than this: the intervals are wide; say so.
MIN_QUERIES = 300
#: Queries are ranked at least this deep, so a miss still has a rank to show.
MIN_DEPTH = 50
#: The ranking never goes deeper than this for the budget.
MAX_DEPTH = 256


# -- step 1: in the worker processes ------------------------------------------------------
@dataclass(slots=True)
class FileChunks:
    """What a worker sends back for one file: its doc queries, the edits that mask
    them, and per setting its chunks (masked-file bytes) and their indexed text."""

    drafts: list[DocQueryDraft]
    edits: list[tuple[int, int, bytes]]
    spans: list[list[tuple[int, int, int]]]  # per setting: (start, end, nws)
    texts: list[list[str]]  # per setting
    sizes: list[list[int]] = field(default_factory=list)  # per setting: each chunk's size in its unit
    definitions: list[Definition] = field(default_factory=list)  # what uses in other files can target
    uses: list[Use] = field(default_factory=list)  # calls and type names (original bytes)
    named: list[HistoryDefinition] = field(default_factory=list)  # by qualified name: what commits can target
    costs: list[list[int]] = field(default_factory=list)  # per setting: each chunk's indexed text, in the cost unit


def indexed_text(chunk: Chunk, options: ChunkOptions) -> str:
    """What a pipeline embeds for a chunk under ``options``."""
    return chunk.text if options.context_mode == "none" else chunk.contextualized_text


def chunk_for_eval(
    settings: tuple[ChunkOptions, ...], docs: bool, min_words: int,
    parsed: ParsedFile, chunks: list[Chunk], options: ChunkOptions, seconds: dict[str, float],
    *, uses: bool = False, history: bool = False, cost_tokenizer: str | None = None,
) -> FileChunks:
    """Batch analyzer (runs in a worker): find and mask the doc queries (with ``uses``
    find the definitions and the calls and type uses; with ``history`` the definitions by
    qualified name), then chunk the masked file under every setting and measure each
    chunk's indexed text in the cost unit (``cost_tokenizer``'s tokens, else nws)."""
    from ..sizing import measure_for

    drafts: list[DocQueryDraft] = []
    edits: list[Edit] = []
    found_definitions: list[Definition] = []
    found_uses: list[Use] = []
    named: list[HistoryDefinition] = []
    if (docs or uses or history) and (parsed.tree is not None or parsed.regions):
        structure = extract_structure(parsed)
        if docs:
            drafts, edits = doc_queries(structure, min_words=min_words)
        if uses and parsed.tree is not None:
            found_definitions = definitions(structure)
            if found_definitions or structure.level == "full":
                found_uses = find_uses(parsed.tree.root_node, structure, import_aliases(structure))
        if history and parsed.tree is not None:
            named = definitions_of(structure)
    tree = parsed
    if edits:
        masked = mask(parsed.source.data, edits)
        # A notebook's document (its cells' sources) is read back as a notebook.
        data = edited_notebook(parsed, masked.masked, masked.to_masked) if parsed.cells else masked.masked
        tree = parse(parsed.path, data, replace(options, language=parsed.language))
        edits = list(masked.edits)
    result = FileChunks(drafts, [(e.start, e.end, e.replacement) for e in edits], [], [], [], found_definitions,
                        found_uses, named)
    measure = measure_for("tokens" if cost_tokenizer else "nws", cost_tokenizer).text
    for made in chunk_settings(tree, settings, parsed_language=options.language):
        texts = [indexed_text(c, made.options) for c in made.chunks]
        result.spans.append([(c.byte_range.start, c.byte_range.end, c.nws) for c in made.chunks])
        result.texts.append(texts)
        result.sizes.append([c.size for c in made.chunks])
        result.costs.append([measure(text) for text in texts])
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
    """A query's target in its file's masked bytes; for a query made from the code
    (a use), where that code is (``own_file`` -1: nowhere), so its chunks can be left
    out of the query's ranking. ``more``: further targets, ``(file, start, end, nws)``
    (a commit that changed several definitions); they never overlap one another."""

    file: int
    start: int
    end: int
    nws: int
    own_file: int = -1
    own_start: int = 0
    own_end: int = 0
    more: tuple[tuple[int, int, int, int], ...] = ()

    @property
    def spans(self) -> tuple[tuple[int, int, int, int], ...]:
        """Every target as ``(file, start, end, nws)``, the first one first."""
        return ((self.file, self.start, self.end, self.nws), *self.more)

    @property
    def total_nws(self) -> int:
        return self.nws + sum(span[3] for span in self.more)


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
    #: Files found binary or not UTF-8 while chunking: skipped, with the reason.
    not_text: list[SkippedInput] = field(default_factory=list)
    seconds: float = 0.0
    jobs: int = 1
    complete: bool = True
    #: The history's screening, when history queries were added.
    history: HistoryFunnel | None = None
    #: What the costs count: a tokenizer's name, or "nws".
    cost_unit: str = "nws"
    #: The positive control: each query ranked among the chunks of its own targets only.
    isolate: bool = False


def named_definitions(prepared: Prepared) -> dict[str, dict[str, list[HistoryDefinition]]]:
    """The evaluated files' definitions by path, then qualified name (what history
    queries are matched against)."""
    names: dict[str, dict[str, list[HistoryDefinition]]] = {}
    for corpus_file in prepared.files:
        by_name: dict[str, list[HistoryDefinition]] = {}
        for definition in corpus_file.chunks.named:
            by_name.setdefault(definition.name, []).append(definition)
        names[corpus_file.path] = by_name
    return names


def cost_tokenizer(settings: Sequence[ChunkOptions], config: EvalConfig) -> str | None:
    """What costs are counted with: the configured tokenizer, else the settings' own,
    else :data:`COST_TOKENIZER` when its package is installed; None: nws."""
    from ..tokens import TokenizerError, get_counter

    wanted = config.cost_tokenizer or next((s.tokenizer for s in settings if s.tokenizer), None)
    if wanted is not None:
        return wanted
    try:
        get_counter(COST_TOKENIZER)
    except TokenizerError:
        return None
    return COST_TOKENIZER


def prepare(
    files: Sequence[tuple[str, bytes]],
    settings: Sequence[ChunkOptions],
    *,
    queries: str | Sequence[QuerySpec] = "docs",
    query_source: str | None = None,
    config: EvalConfig | None = None,
    jobs: int | None = None,
    on_progress: Callable[[EvalProgress], None] | None = None,
    should_stop: ShouldStop | None = None,
    history: Sequence[CommitQuery] | None = None,
    history_funnel: HistoryFunnel | None = None,
    run_batch: BatchRunner = chunk_batch_stream,
) -> Prepared:
    """Step 1: chunk every file under every setting (in parallel) and build the queries.

    ``files``: ``(path, content)`` pairs (paths as the query file names them);
    ``queries``: built-in sources (:data:`QUERY_SOURCES`, comma-separated: ``"docs"``,
    ``"docs,calls,types"``) or parsed query-file lines. With ``history`` among the
    sources, the files' definitions are kept by qualified name, and the commits of
    ``history`` (read by the caller: the engine reads no repository) become queries
    (:func:`add_history_queries`; without it, add them later). Raises ValueError for no
    settings or an unknown source, and :class:`QueryFileError` for query-file lines that
    name unknown files or lines. ``run_batch`` runs the chunking batch (a results cache
    answers the files it knows)."""
    config = config or EvalConfig()
    resolved = tuple(dict.fromkeys(settings))
    if not resolved:
        raise ValueError("an evaluation needs at least one setting")
    wanted_sources = parse_sources(queries) if isinstance(queries, str) else ()
    docs = "docs" in wanted_sources
    uses = any(name in USE_SOURCES for name in wanted_sources)
    from_history = HISTORY in wanted_sources
    jobs = default_jobs() if jobs is None else int(jobs)
    started = time.perf_counter()
    names = [normalize_path(path) for path, _ in files]
    contents = {name: data for name, (_, data) in zip(names, files)}
    source_name = ",".join(wanted_sources) if wanted_sources else (query_source or "file")
    counted_with = cost_tokenizer(resolved, config)
    prepared = Prepared(resolved, [], [], [], source_name, jobs=jobs, cost_unit=counted_with or "nws")
    specs: list[QuerySpec] = [] if isinstance(queries, str) else list(queries)
    if specs:  # a bad query file fails before any work
        wanted = {spec.path for spec in specs if spec.path in contents}
        _check_specs(specs, {path: SourceText(contents[path], path).line_count for path in wanted})
    # The batch's own chunking is thrown away: one chunk per file keeps it cheap.
    batch_options = ChunkOptions.build(resolved[0], max_size=1 << 30, strategy="ast", context_mode="none",
                                       overlap_lines=0)
    analyzer = partial(chunk_for_eval, resolved, docs, config.min_doc_words, uses=uses, history=from_history,
                       cost_tokenizer=counted_with)
    batch = [BatchFile(code=data, name=name) for name, data in zip(names, (d for _, d in files))]

    def progress(done: int, total: int | None, result: BatchResult) -> None:
        if on_progress is not None:
            on_progress(EvalProgress(CHUNKING, done, total, path=result.path))

    stream = run_batch(batch, jobs=jobs, on_progress=progress, analyze=analyzer, keep_chunks=False,
                       options=batch_options)
    try:
        for item in stream:
            _collect(item, contents, prepared)
            if stop_asked(should_stop):
                prepared.complete = False
                break
    finally:
        close = getattr(stream, "close", None)  # a generator: closing it stops the pool
        if close is not None:
            close()
    if docs:
        _doc_queries(prepared)
    if uses:
        _use_queries(prepared, [name for name in wanted_sources if name in USE_SOURCES])
    if from_history and history is not None:
        add_history_queries(prepared, history, history_funnel)
    if not wanted_sources:
        _file_queries(prepared, specs)
    prepared.seconds = time.perf_counter() - started
    return prepared


def _collect(item: BatchResult, contents: dict[str, bytes], prepared: Prepared) -> None:
    if not item.ok:
        if item.not_text:
            prepared.not_text.append(SkippedInput.not_text(item.path, item.error_kind, item.error))
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


def parse_sources(text: str) -> tuple[str, ...]:
    """The built-in sources named in ``text`` (comma-separated), in :data:`QUERY_SOURCES`
    order. Raises ValueError for an unknown name or none."""
    names = [part.strip() for part in text.split(",") if part.strip()]
    unknown = [name for name in names if name not in QUERY_SOURCES]
    if unknown or not names:
        raise ValueError(f"query sources are {', '.join(QUERY_SOURCES)} (comma-separated), not {text!r}")
    return tuple(name for name in QUERY_SOURCES if name in names)


def _use_queries(prepared: Prepared, sources: list[str]) -> None:
    """Queries from uses (see :mod:`.calls`): the lines up to a use in one file are the
    query, the used definition in another file the target. A name defined more than
    once in the corpus (an overload, two classes' ``get``) is skipped: its target would be
    a guess. One query per source, file, scope and name: the first use."""
    by_name: dict[str, list[tuple[int, Definition]]] = {}
    for i, corpus_file in enumerate(prepared.files):
        for definition in corpus_file.chunks.definitions:
            by_name.setdefault(definition.name, []).append((i, definition))
    seen: set[tuple[str, int, int, str]] = set()
    for i, corpus_file in enumerate(prepared.files):
        for use in corpus_file.chunks.uses:
            targets = by_name.get(use.name)
            if use.source not in sources or targets is None or len(targets) != 1:
                continue
            file, definition = targets[0]
            key = (use.source, i, use.scope, use.name)
            if file == i or definition.kind not in USE_SOURCES[use.source] or key in seen:
                continue
            seen.add(key)
            text = corpus_file.original_text
            line = text.line_of(use.start)
            own_start, own_end = text.line_start(max(0, line - USE_CONTEXT_LINES + 1)), text.line_end(line)
            query = text.slice(own_start, own_end).strip()
            masked = corpus_file.masked
            _add_query(prepared, file, definition.start, definition.end, query, definition.name, definition.kind,
                       use.source, own=(i, masked.to_masked(own_start), masked.to_masked(own_end)))


def add_history_queries(prepared: Prepared, commits: Sequence[CommitQuery],
                        funnel: HistoryFunnel | None = None) -> None:
    """The commits' queries (newest first), each asking for the definitions it changed
    that the evaluated tree still has, matched by path and qualified name (every
    definition of that name: a property's getter and setter, overloads). A target inside
    another target of the same commit is left out (the outer one holds it). A commit none
    of whose definitions is left gives no query (counted as gone). ``funnel`` (the
    history's screening) is completed with the matching's counts and kept."""
    funnel = funnel if funnel is not None else HistoryFunnel()
    prepared.history = funnel
    names = named_definitions(prepared)
    index = {f.path: i for i, f in enumerate(prepared.files)}
    made = 0
    for commit in commits:
        found: list[tuple[int, HistoryDefinition]] = []
        for path, name in commit.targets:
            matches = names.get(path, {}).get(name, [])
            if not matches:
                funnel.dropped_targets += 1
            found += [(index[path], d) for d in matches]
        found = _outermost(found)
        spans = []
        for file, definition in found:
            corpus_file = prepared.files[file]
            start, end = corpus_file.masked.to_masked(definition.start), corpus_file.masked.to_masked(definition.end)
            nws = corpus_file.masked_text.nws(start, end)
            if nws:
                spans.append((file, definition, start, end, nws))
        if not spans:
            funnel.count(GONE)
            continue
        funnel.targets += len(spans)
        named = names_target(commit.text, [definition.name for _, definition, _, _, _ in spans])
        funnel.names_target += named
        targets = []
        for file, definition, _, _, _ in spans:
            corpus_file = prepared.files[file]
            first, last = corpus_file.original_text.line_range(definition.start, definition.end)
            targets.append(TargetSpan(corpus_file.path, definition.start, definition.end, first, last,
                                      definition.name, definition.kind))
        head = targets[0]
        prepared.queries.append(Query(commit.text, head.path, head.start, head.end, head.line_start, head.line_end,
                                      head.name, head.kind, HISTORY, tuple(targets[1:]), commit.commit,
                                      commit.subject, named))
        (file, _, start, end, nws), *others = spans
        prepared.targets.append(Target(file, start, end, nws, more=tuple((f, s, e, n) for f, _, s, e, n in others)))
        made += 1
    funnel.queries = made


def _outermost(found: list[tuple[int, HistoryDefinition]]) -> list[tuple[int, HistoryDefinition]]:
    """The definitions not inside another one of the list (and each once), in file and
    source order."""
    ordered = sorted(dict.fromkeys(found, None), key=lambda item: (item[0], item[1].start, -item[1].end))
    kept: list[tuple[int, HistoryDefinition]] = []
    for file, definition in ordered:
        if kept and kept[-1][0] == file and kept[-1][1].start <= definition.start and definition.end <= kept[-1][1].end:
            continue
        kept.append((file, definition))
    return kept


def with_query_texts(prepared: Prepared, texts: Sequence[str]) -> Prepared:
    """The same files, targets and left-out lines asked with other words (one text per
    query, in order): the positive and negative controls of a query source (a line of
    the target must be found, random words must not)."""
    if len(texts) != len(prepared.queries):
        raise ValueError(f"expected {len(prepared.queries)} query texts, got {len(texts)}")
    return replace(prepared, queries=[replace(q, text=t) for q, t in zip(prepared.queries, texts)])


def with_shuffled_targets(prepared: Prepared, seed: int = 0) -> Prepared:
    """The negative control of a query source: every query asked as it is, but scored
    against another query's targets (a random permutation that moves every query, fixed
    ``seed``). What a source scores above this is what its texts say about *their own*
    targets; a query's own lines (a use) stay left out of its ranking."""
    count = len(prepared.queries)
    if count < 2:
        return prepared
    order = np.random.default_rng(seed).permutation(count)
    order = np.roll(order, 1)[np.argsort(order)]  # a cycle through the permutation: nothing stays in place
    queries, targets = [], []
    for q, other in enumerate(int(o) for o in order):
        query, source = prepared.queries[q], prepared.queries[other]
        queries.append(replace(query, path=source.path, start=source.start, end=source.end,
                               line_start=source.line_start, line_end=source.line_end, name=source.name,
                               kind=source.kind, more=source.more))
        own = prepared.targets[q]
        targets.append(replace(prepared.targets[other], own_file=own.own_file, own_start=own.own_start,
                               own_end=own.own_end))
    return replace(prepared, queries=queries, targets=targets)


def with_isolated_targets(prepared: Prepared) -> Prepared:
    """The positive control of a query source: each query ranked among the chunks of
    its own targets only (the target indexed alone). Every measure should be near its
    ceiling; one that is not says targets are empty, misplaced, or cut so that no
    chunk holds enough of them to count as a hit."""
    return replace(prepared, isolate=True)


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
               kind: str | None, origin: str, own: tuple[int, int, int] | None = None) -> None:
    corpus_file = prepared.files[file]
    masked_start, masked_end = corpus_file.masked.to_masked(start), corpus_file.masked.to_masked(end)
    nws = corpus_file.masked_text.nws(masked_start, masked_end)
    if nws == 0:
        return  # nothing to find (a blank span)
    first, last = corpus_file.original_text.line_range(start, end)
    prepared.queries.append(Query(text, corpus_file.path, start, end, first, last, name, kind, origin))
    prepared.targets.append(Target(file, masked_start, masked_end, nws, *(own or ())))


# -- step 2: one setting -------------------------------------------------------------------
@dataclass(slots=True)
class SettingRun:
    """One setting retrieved and scored: per-query measures (:data:`METRIC_NAMES`) and
    outcomes, the chunks indexed and their indexed text's size in the cost unit
    (``embedded``), the cost unit's size of each query's top 5 (``retrieved``), the
    ranking's depth, the retriever's notes and the seconds spent."""

    per_query: dict[str, np.ndarray]
    outcomes: list[QueryOutcome]
    chunks: int
    depth: int
    notes: dict[str, int]
    seconds: dict[str, float]
    embedded: int = 0
    retrieved: np.ndarray = field(default_factory=lambda: np.zeros(0))


def run_setting(
    prepared: Prepared,
    index: int,
    retriever: Retriever,
    *,
    config: EvalConfig | None = None,
    on_progress: Callable[[EvalProgress], None] | None = None,
    should_stop: ShouldStop | None = None,
) -> SettingRun:
    """Retrieve and score every query under setting ``index``. Raises
    :class:`~explorer.engine.cancel.Cancelled` when ``should_stop`` says so.

    A query with several targets (a commit that changed several definitions): a chunk
    is a hit when it is a hit for one of them; its overlap is what it shares with all of
    them, and recall at the budget the share of all of them covered."""
    config = config or EvalConfig()
    started = time.perf_counter()
    texts: list[str] = []
    owner: list[int] = []  # chunk -> file
    spans: list[tuple[int, int, int]] = []
    first_chunk: list[int] = []  # file -> its first chunk id
    by_unit = config.budget_unit != "nws"
    if by_unit and prepared.settings[index].size_unit != config.budget_unit:
        raise ValueError(f"a budget in {config.budget_unit} needs settings sized in {config.budget_unit}")
    costs: list[int] = []  # chunk -> what it spends of the budget
    embedded: list[int] = []  # chunk -> its indexed text in the cost unit
    for file_index, corpus_file in enumerate(prepared.files):
        first_chunk.append(len(texts))
        texts.extend(corpus_file.chunks.texts[index])
        file_spans = corpus_file.chunks.spans[index]
        spans.extend(file_spans)
        owner.extend([file_index] * len(file_spans))
        costs.extend(corpus_file.chunks.sizes[index] if by_unit else (nws for _, _, nws in file_spans))
        embedded.extend(corpus_file.chunks.costs[index] if corpus_file.chunks.costs else [0] * len(file_spans))
    depth = _depth(costs, config.budget)
    # A query made from the code: the chunks holding that code are left out of its ranking
    # (they would be found for the query's own words); rank deeper by as many as it can lose.
    own: list[list[int]] = [
        _overlapping(prepared.files[t.own_file].chunks.spans[index], first_chunk[t.own_file], t.own_start, t.own_end)
        if t.own_file >= 0 else [] for t in prepared.targets
    ]
    extra = max((len(o) for o in own), default=0)

    def step(done: int, total: int) -> None:
        if on_progress is not None:
            on_progress(EvalProgress(RETRIEVING, done, total, setting=index))

    ranking = retriever.search(texts, [q.text for q in prepared.queries], min(depth + extra, len(texts)) or depth,
                               on_progress=step, should_stop=should_stop)
    retrieved = time.perf_counter()
    per_query = {name: np.zeros(len(prepared.queries)) for name in METRIC_NAMES}
    top_cost = np.zeros(len(prepared.queries))
    outcomes: list[QueryOutcome] = []
    threshold = config.hit_threshold
    for q, target in enumerate(prepared.targets):
        overlaps: dict[int, int] = {}
        hits: set[int] = set()
        whole = True
        for file, start, end, nws in target.spans:
            shared = _overlaps(prepared.files[file], prepared.files[file].chunks.spans[index], first_chunk[file],
                               start, end)
            for chunk, overlap in shared.items():
                overlaps[chunk] = overlaps.get(chunk, 0) + overlap
                if is_hit(overlap, nws, spans[chunk][2], threshold):
                    hits.add(chunk)
            whole = whole and any(o >= nws for o in shared.values())
        ranked_ids = [int(c) for c in ranking.ids[q] if c >= 0]
        if own[q]:
            left_out = set(own[q])
            ranked_ids = [c for c in ranked_ids if c not in left_out][:depth]
        if prepared.isolate:  # the target indexed alone: its chunks, as the retriever ranked them
            taken = [c for c in ranked_ids if c in overlaps]
            ranked_ids = taken + sorted(set(overlaps) - set(taken))
        ranked = [(spans[c][2], overlaps.get(c, 0)) for c in ranked_ids]
        hit_flags = [c in hits for c in ranked_ids]
        rank, values = score_query(ranked, target.total_nws, len(hits), threshold=threshold, budget=config.budget,
                                   costs=[costs[c] for c in ranked_ids] if by_unit else None, hits=hit_flags)
        for name, value in values.items():
            per_query[name][q] = value
        top_cost[q] = sum(embedded[c] for c in ranked_ids[:TOP])
        top = tuple(
            _retrieved(prepared.files[owner[c]], spans[c], position + 1, nws_overlap, hit)
            for position, (c, (_, nws_overlap), hit) in enumerate(zip(ranked_ids[:TOP], ranked[:TOP], hit_flags))
        )
        outcomes.append(QueryOutcome(rank, top, whole))
        if on_progress is not None and (q + 1) % 200 == 0:
            on_progress(EvalProgress(SCORING, q + 1, len(prepared.targets), setting=index))
    seconds = {"retrieve": retrieved - started, "score": time.perf_counter() - retrieved}
    return SettingRun(per_query, outcomes, len(texts), depth, ranking.notes, seconds, sum(embedded), top_cost)


def _depth(sizes: list[int], budget: int) -> int:
    """How deep to rank so the budget can always be spent: the count of the smallest
    chunks that overflow it (at least :data:`MIN_DEPTH`, at most :data:`MAX_DEPTH`, and
    never more than there are chunks)."""
    if not sizes:
        return RANK_DEPTH
    smallest = np.sort(np.asarray(sizes))[: MAX_DEPTH + 1]
    needed = int(np.searchsorted(np.cumsum(smallest), budget, side="right")) + 1
    return min(max(MIN_DEPTH, needed), MAX_DEPTH, len(sizes))


def _overlapping(spans: list[tuple[int, int, int]], first: int, start: int, end: int) -> list[int]:
    """Ids of a file's chunks (sorted, disjoint ``spans``; ids from ``first``) that
    overlap the byte range [start, end)."""
    found = []
    at = max(0, bisect_left(spans, (start,)) - 1)
    while at < len(spans) and spans[at][0] < end:
        if spans[at][1] > start:
            found.append(first + at)
        at += 1
    return found


def _overlaps(corpus_file: CorpusFile, spans: list[tuple[int, int, int]], first: int, target_start: int,
              target_end: int) -> dict[int, int]:
    """Chunk id -> nws shared with a target, for the chunks of its file that overlap it."""
    nws = corpus_file.masked_text.sizer("nws")
    found: dict[int, int] = {}
    for chunk in _overlapping(spans, first, target_start, target_end):
        start, end, _ = spans[chunk - first]
        shared = nws(max(start, target_start), min(end, target_end))
        if shared:
            found[chunk] = shared
    return found


def _retrieved(corpus_file: CorpusFile, span: tuple[int, int, int], rank: int, overlap: int,
               hit: bool) -> RetrievedChunk:
    start, end, nws = span
    masked = corpus_file.masked
    original_start, original_end = masked.to_original(start), masked.to_original(end, end=True)
    first, last = corpus_file.original_text.line_range(original_start, original_end)
    return RetrievedChunk(rank, corpus_file.path, original_start, original_end, first, last, nws, overlap, hit)


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
    should_stop: ShouldStop | None = None,
) -> EvalResult:
    """Evaluate every setting (see the module docstring). ``reference``: the index of
    the setting the others are compared with. ``retriever``: BM25 by default."""
    config = config or EvalConfig()
    if not 0 <= reference < len(settings):
        raise ValueError(f"reference must index one of the {len(settings)} settings, not {reference}")
    if retriever is None:
        from .bm25 import BM25Retriever  # on first need: importing bm25s takes a while

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
    should_stop: ShouldStop | None = None,
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
        complete=prepared.complete, history=prepared.history, cost_unit=prepared.cost_unit,
    )
    if not prepared.queries:
        result.warnings.append("no queries: nothing to measure")
    elif len(prepared.queries) < MIN_QUERIES:
        result.warnings.append(
            f"only {len(prepared.queries)} queries (fewer than {MIN_QUERIES}): the intervals are wide; "
            "differences are likely to be within them")
    sources = prepared.query_source.split(",")
    if "docs" in sources and len(sources) > 1 and prepared.masked_docs:
        result.warnings.append(
            f"docs are masked for every source: the {', '.join(s for s in sources if s != 'docs')} figures are on "
            "code without its docs; ask for those sources alone to measure them on the code as indexed")
    if prepared.history is not None:
        if prepared.history.problem:
            result.warnings.append(f"no history queries: {prepared.history.problem}")
        result.warnings += [note for note in prepared.history.notes if note.startswith("A shallow clone")]
    bootstrap = Bootstrap(len(prepared.queries), resamples=config.resamples, seed=config.seed)
    order = [reference] + [i for i in range(len(prepared.settings)) if i != reference]
    reference_values: dict[str, np.ndarray] | None = None
    done: list[SettingEval] = []
    for index in order if result.complete else []:
        if stop_asked(should_stop):
            result.complete = False
            break
        try:
            run = run_setting(prepared, index, retriever, config=config, on_progress=on_progress,
                              should_stop=should_stop)
        except Cancelled:
            result.complete = False
            break
        per_query = run.per_query
        if reference_values is None:
            reference_values = run.per_query
        setting = SettingEval(
            index, prepared.settings[index], run.chunks,
            {name: bootstrap.estimate(values) for name, values in per_query.items()},
            {name: bootstrap.paired(values, reference_values[name]) for name, values in per_query.items()},
            per_query, run.outcomes, run.depth, run.notes, run.seconds, run.embedded, run.retrieved,
            bootstrap.estimate(run.retrieved),
        )
        done.append(setting)
        if on_setting is not None:
            on_setting(setting)
    result.settings = sorted(done, key=lambda s: s.index)
    result.reference = next((i for i, s in enumerate(result.settings) if s.index == reference), 0)
    result.seconds = time.perf_counter() - started
    return result
