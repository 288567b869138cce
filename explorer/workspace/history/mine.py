"""Mining a repository's history for queries: one ``git log`` pass, the engine's rules,
the engine's structure of each changed file as the commit left it.

    mined = mine_history("src", evaluated_names, HistoryRules(limit=500), known=known)
    for query in mined.queries:
        print(query.subject, query.targets)

Steps: (1) the newest ``rules.commits`` commits are read in one ``git log`` pass
(:mod:`.git`) and screened by their message, author and diff alone
(:func:`~explorer.engine.retrieval.history.screen`: merges, bots, reverts, releases,
short messages, no code, renames, formatting, generated code, tests only, too many
files). (2) For the commits left, newest first, each changed code file's content after
the commit is read (one ``git cat-file --batch`` process) and parsed on every core
(:func:`~explorer.engine.retrieval.history.file_definitions`); the innermost definitions
holding a changed line are the commit's targets
(:func:`~explorer.engine.retrieval.history.touched`); a file renamed since is named as
it is now (renames are followed from the newest commit back). A commit whose targets are none or
too many gives no query; with ``known`` (the evaluated tree's definitions, by path and
qualified name), neither does one whose targets are all gone from the tree. (3) Mining
stops once ``rules.limit`` queries are found: the newest eligible commits.

A file's content never changes under its git id, so its definitions are kept
(:mod:`.cache`: in the process, and on disk unless told not to): an explorer that
evaluates again, or a second run, reads the log again (about a second for a few thousand
commits) but parses only what is new.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass, field, replace

from ...engine.cancel import ShouldStop
from ...engine.files import DEFAULT_MAX_BYTES
from ...engine.languages import detect_language
from ...engine.retrieval.history import (
    DUPLICATE,
    GONE,
    NO_DEFINITION,
    OVER_LIMIT,
    REASONS,
    TOO_MANY_DEFINITIONS,
    Commit,
    CommitQuery,
    FileChange,
    HistoryDefinition,
    HistoryFunnel,
    HistoryRules,
    file_definitions,
    message_text,
    screen,
    target_changes,
    touched,
)
from ...engine.retrieval.queries import query_key
from ...version import tool_version
from .cache import DefinitionCache, default_cache_path
from .git import BlobReader, HistoryUnavailable, Repository, find_repository, read_log

#: Bumped when what a file's definitions are changes (kept definitions are then parsed again).
MAPPING_VERSION = 2
#: ``cache_path`` for the default place on disk.
DEFAULT_CACHE = "default"

#: ``on_progress(stage, done, total)``: stage ``"reading"`` (commits) or ``"parsing"``
#: (changed files; total None while unknown).
HistoryProgress = Callable[[str, int, "int | None"], None]


@dataclass(slots=True)
class MinedHistory:
    """The queries a history gave (newest first), how the commits were screened, and
    ``problem``: why there was no history to read (no git, not a repository, no
    commits), or None."""

    queries: list[CommitQuery] = field(default_factory=list)
    funnel: HistoryFunnel = field(default_factory=HistoryFunnel)
    problem: str | None = None
    repository: Repository | None = None
    complete: bool = True


@dataclass(slots=True)
class _Candidate:
    commit: Commit
    changes: list[FileChange]
    names: list[list[str] | None]  # per change: the names touched, None until parsed


def mine_history(
    root: str,
    evaluated: Collection[str],
    rules: HistoryRules | None = None,
    *,
    known: Callable[[str, str], bool] | None = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
    jobs: int | None = None,
    on_progress: HistoryProgress | None = None,
    should_stop: ShouldStop | None = None,
    cache_path: str | None = DEFAULT_CACHE,
) -> MinedHistory:
    """Queries from the history of the repository holding ``root`` (see the module
    docstring). ``evaluated``: the evaluated files' paths, relative to ``root``;
    ``known(path, qualified_name)``: whether the evaluated tree still has that
    definition; ``cache_path``: where parsed definitions are kept (:data:`DEFAULT_CACHE`:
    ``$XDG_CACHE_HOME/chunk-explorer/history.sqlite``; None: in this process only).
    Never raises for a missing history: ``problem`` says why."""
    rules = rules or HistoryRules()
    started = time.perf_counter()
    mined = MinedHistory()
    funnel = mined.funnel
    try:
        repository = mined.repository = find_repository(root)
    except HistoryUnavailable as exc:
        mined.problem = str(exc)
        return mined
    funnel.head, funnel.shallow = repository.head, repository.shallow
    stop = should_stop or (lambda: False)
    evaluated = evaluated if isinstance(evaluated, (set, frozenset, dict)) else set(evaluated)
    candidates: list[_Candidate] = []
    moved: dict[str, str | None] = {}  # a path as older commits name it -> its path now (None: gone)
    try:
        for commit in read_log(root, repository, rules.commits, should_stop=stop):
            commit = _followed(commit, moved)
            funnel.commits += 1
            reason = screen(commit, rules, evaluated)
            if reason is not None:
                funnel.count(reason)
            else:
                changes = target_changes(commit, evaluated)
                candidates.append(_Candidate(commit, changes, [None] * len(changes)))
            if on_progress is not None and funnel.commits % 250 == 0:
                on_progress("reading", funnel.commits, rules.commits)
    except HistoryUnavailable as exc:
        mined.problem = str(exc)
        return mined
    if stop():
        mined.complete = False
        return mined
    if repository.shallow:
        funnel.notes.append(f"A shallow clone: only {funnel.commits:,} commits of history are here "
                            "(`git fetch --unshallow` reads the rest).")
    cache = DefinitionCache(default_cache_path() if cache_path == DEFAULT_CACHE else cache_path,
                            f"{tool_version()}/{MAPPING_VERSION}")
    try:
        _map(repository, candidates, rules, known, mined, max_bytes, jobs, on_progress, stop, cache)
    finally:
        cache.close()
    if cache.problem:
        funnel.notes.append(cache.problem)
    if not mined.queries and not mined.problem and mined.complete:
        mined.problem = (f"none of the {funnel.commits:,} commits read gives a query: " + _main_reasons(funnel)
                         if funnel.commits else "no commit touches the evaluated files")
    funnel.queries = len(mined.queries)
    funnel.seconds = time.perf_counter() - started
    return mined


def _followed(commit: Commit, moved: dict[str, str | None]) -> Commit:
    """The commit with each changed file named as it is named now: renames made by newer
    commits (read first) are followed, and a file a newer commit deleted is no longer
    there (its path, an empty string, names no evaluated file). ``moved`` learns this
    commit's own renames and deletions, for the older commits read next."""
    changes = []
    for change in commit.changes:
        now = moved.get(change.path, change.path)
        if change.status == "renamed" and change.old_path:
            moved[change.old_path] = now
        elif change.status == "deleted":
            moved[change.path] = None
        changes.append(change if now == change.path else replace(change, path=now or ""))
    return replace(commit, changes=tuple(changes))


def _map(repository: Repository, candidates: list[_Candidate], rules: HistoryRules,
         known: Callable[[str, str], bool] | None, mined: MinedHistory, max_bytes: int, jobs: int | None,
         on_progress: HistoryProgress | None, stop: ShouldStop, cache: DefinitionCache) -> None:
    """Step 2: each candidate's changed files' definitions (from the cache, else parsed in
    a pool, newest commit first) and the names its changes touched, until the limit."""
    texts: set[str] = set()
    keys = [[(change.blob or "", _language(change.path)) for change in c.changes] for c in candidates]
    definitions = cache.get_many(list({key for row in keys for key in row if key[0]}))
    fresh: list[tuple[tuple[str, str], list[HistoryDefinition]]] = []
    sent: list[tuple[int, int, list[str]]] = []  # what went to the pool, in order, with the file's lines
    done = 0  # candidates finalised, in order

    with BlobReader(repository.toplevel) as reader:
        def lines_of(change: FileChange) -> tuple[bytes, list[str]]:
            data = (reader.read(change.blob, max_bytes) if change.blob else None) or b""
            return data, data.decode("utf-8", "replace").split("\n")

        def resolve(c: int) -> bool:
            """Name what the cache knows of candidate ``c``; whether all of it is named."""
            candidate = candidates[c]
            for k, change in enumerate(candidate.changes):
                if candidate.names[k] is None and (keys[c][k] in definitions or not change.blob):
                    _, lines = lines_of(change)
                    candidate.names[k] = touched(definitions.get(keys[c][k], []), change, lines)
            return all(n is not None for n in candidate.names)

        def finalise_ready() -> bool:
            """Finalise the candidates known in full, in order; True once the limit is reached."""
            nonlocal done
            while done < len(candidates) and len(mined.queries) < rules.limit and resolve(done):
                _finalise(candidates[done], rules, known, mined, texts)
                done += 1
            return len(mined.queries) >= rules.limit

        def contents() -> Iterator[tuple[str, bytes]]:
            for c, candidate in enumerate(candidates):
                for k, change in enumerate(candidate.changes):
                    if candidate.names[k] is not None or keys[c][k] in definitions or not change.blob:
                        continue
                    if stop() or len(mined.queries) >= rules.limit:
                        return
                    data, lines = lines_of(change)
                    sent.append((c, k, lines))
                    yield change.path, data

        if not finalise_ready():
            results = file_definitions(contents(), jobs=jobs)
            try:
                for position, found in enumerate(results):
                    c, k, lines = sent[position]
                    if found is not None:
                        definitions[keys[c][k]] = found
                        fresh.append((keys[c][k], found))
                    candidates[c].names[k] = touched(found or [], candidates[c].changes[k], lines)
                    sent[position] = (c, k, [])
                    if on_progress is not None and (position + 1) % 50 == 0:
                        on_progress("parsing", position + 1, None)
                    if finalise_ready() or stop():
                        break
            finally:
                results.close()
            finalise_ready()
    cache.put_many(fresh)
    if done < len(candidates):
        if len(mined.queries) >= rules.limit:
            mined.funnel.count(OVER_LIMIT, len(candidates) - done)
        else:  # stopped before every commit was looked at
            mined.complete = False


def _language(path: str) -> str:
    return detect_language(path) or ""


def _finalise(candidate: _Candidate, rules: HistoryRules, known: Callable[[str, str], bool] | None,
              mined: MinedHistory, texts: set[str]) -> None:
    funnel = mined.funnel
    targets = [(change.path, name) for change, names in zip(candidate.changes, candidate.names) for name in names or ()]
    if not targets:
        funnel.count(NO_DEFINITION)
        return
    if len(targets) > rules.max_definitions:
        funnel.count(TOO_MANY_DEFINITIONS)
        return
    if known is not None:
        kept = [t for t in targets if known(*t)]
        if not kept:
            funnel.count(GONE)
            funnel.dropped_targets += len(targets)
            return
        funnel.dropped_targets += len(targets) - len(kept)
        targets = kept
    commit = candidate.commit
    text = message_text(commit.message)
    key = query_key(text)
    if key in texts:  # the newest commit with this message keeps it
        funnel.count(DUPLICATE)
        return
    texts.add(key)
    mined.queries.append(CommitQuery(commit.sha, commit.subject, text, tuple(targets), commit.time))


def _main_reasons(funnel: HistoryFunnel) -> str:
    top = sorted(((n, r) for r, n in funnel.counts.items() if n), reverse=True)[:3]
    return "; ".join(f"{n:,} {REASONS[r]}" for n, r in top) + " (see the history options to loosen the rules)"

