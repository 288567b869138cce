"""Incremental re-chunking: only what changed since the last run, as upserts and deletes.

A state file remembers, for each file of the last run, its status (size, mtime, ctime,
inode), its content hash and the ids of its chunks, with the fingerprint of the settings
that made them. The next run:

- stats every file the walk takes; a file whose status is unchanged is taken as
  unchanged without being read;
- hashes a file whose status changed; the same hash means unchanged (only its new status
  is remembered), a different one means the file is chunked again;
- emits, as JSONL records, ``{"op": "upsert", "change": ..., ...the chunk record...}``
  for every chunk of a new or changed file (``change``: ``new`` when its embedded text is
  new to the index, ``moved`` when the same text is now at other lines of the file,
  ``metadata`` when it is where it was and only other fields changed, as the file's hash)
  and ``{"op": "delete", "id": ..., "path": ...}`` for every id
  that is gone (a changed file's old chunks, every chunk of a deleted file);
- re-chunks every file when the settings (or the chunk-explorer version) changed since
  the state was written, and says so.

A rename is a delete and an add: the path is part of a chunk's id, so the renamed file's
chunks get new ids. A file that cannot be read (or chunked) this time keeps its previous
chunks and its previous state entry: nothing is deleted or repeated for it.

The state is replaced atomically, only by :meth:`IncrementalRun.commit`, after the caller
consumed every record: a run interrupted at any point leaves the previous state. Before a
file's records are emitted, their ids are appended to a journal beside the state
(``STATE.journal``, :mod:`.journal`); the next run reads what an unfinished run journaled
and sends every chunk of those files again and a delete for every journaled id they no
longer make, so the index converges whatever part of the killed run's output was applied
and however the tree changed since. The commit removes the journal. A lock file
beside the state (``STATE.lock``, held with ``flock``, released by the system even when
the process is killed, removed by the run that holds it) makes a second run on the same
state refuse to start.

Use from Python::

    with open_incremental(["repo"], "repo.state.json") as run:
        for record in run.records():
            index.apply(record.to_dict())
        run.commit()
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import IO, TYPE_CHECKING, Any

from ..engine.batch import POOL_THRESHOLD, kept_from_workers, run_jobs
from ..engine.batch.skips import SkipReason
from ..engine.files import DEFAULT_MAX_BYTES, UnreadableFileError, read_regular_file
from ..engine.options import ChunkOptions
from ..version import tool_version
from .atomic import OutputError, check_writable, write_atomic
from .export import chunk_records, json_bytes
from .ids import content_hash, settings_fingerprint
from .journal import NO_PATH, Journal, JournalError, journal_path, read_journal
from .walk import WalkedFile, WalkOptions, WalkPlan, plan

if TYPE_CHECKING:
    from ..engine.batch import BatchResult, ProgressCallback

__all__ = [
    "STATE_FORMAT", "STATE_VERSION", "StateError", "FileState", "ChunkState", "IndexRecord", "RunSummary",
    "IncrementalRun", "open_incremental", "read_state",
]

STATE_FORMAT = "chunk-explorer-state"
STATE_VERSION = 1
#: A file modified this close to the run (nanoseconds) may change again within the same
#: timestamp tick without its status changing: its status is not trusted next time.
RACY_NS = 2_000_000_000
#: A state file larger than this is refused rather than read (about 20 million chunk ids).
STATE_MAX_BYTES = 1 << 30
#: The hash of a file whose chunks an unfinished run may have changed in the index: no
#: content has it, so the file is chunked again, and every chunk it makes is sent as new.
UNSURE = ""


#: The way out of an unusable state that keeps the index: rebuild the state from its ids.
_OR_RECONCILE = ", or rebuild it with --reconcile IDS (the ids the index holds)"


class StateError(ValueError):
    """The state file cannot be used (corrupt, another version, another root, locked);
    the message says which file and what to do. Nothing was written. ``rebuildable``: the
    state's content is unusable, and a run given the ids the index holds may rebuild it."""

    def __init__(self, message: str, *, rebuildable: bool = False) -> None:
        super().__init__(message)
        self.rebuildable = rebuildable


@dataclass(slots=True)
class FileState:
    """What the state remembers of one file. ``stat`` is (size, mtime_ns, ctime_ns, inode),
    or None when it must not be trusted (the file was changing during the run).
    ``places``: for each id, a short digest of where its chunk is in the file (its
    ranges), to tell a moved chunk from one whose file only changed elsewhere;
    None in a state written before it was recorded."""

    stat: tuple[int, int, int, int] | None
    hash: str
    language: str | None
    ids: list[str]
    places: list[str] | None = None

    def to_json(self) -> dict[str, Any]:
        entry: dict[str, Any] = {"stat": list(self.stat) if self.stat else None, "hash": self.hash,
                                 "language": self.language, "ids": self.ids}
        if self.places is not None:
            entry["places"] = self.places
        return entry


@dataclass(slots=True)
class ChunkState:
    root: str
    fingerprint: str
    options: dict[str, Any]
    tool: str
    files: dict[str, FileState] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "format": STATE_FORMAT, "version": STATE_VERSION, "tool": self.tool, "root": self.root,
            "fingerprint": self.fingerprint, "options": self.options,
            "files": {rel: entry.to_json() for rel, entry in sorted(self.files.items())},
        }


def read_state(path: str, root: str) -> ChunkState | None:
    """The state in ``path`` for ``root``; None if there is no such file (a first run).
    Raises :class:`StateError` for anything else than a valid state of this root."""
    try:
        raw = read_regular_file(path, STATE_MAX_BYTES)
    except FileNotFoundError:
        return None
    except UnreadableFileError as exc:
        if exc.reason == "not found":
            return None
        raise StateError(f"cannot read state file {path}: {exc.reason}; give another --state file") from None
    except OSError as exc:
        raise StateError(f"cannot read state file {path}: {exc.strerror or exc}") from None
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise StateError(f"state file {path} is corrupt (not JSON); remove it to re-index everything" + _OR_RECONCILE,
                         rebuildable=True) from None
    if not isinstance(data, dict) or data.get("format") != STATE_FORMAT:
        raise StateError(f"{path} is not a chunk-explorer state file; give another --state file")
    if data.get("version") != STATE_VERSION:
        raise StateError(f"state file {path} has version {data.get('version')!r}, this chunk-explorer reads "
                         f"version {STATE_VERSION}; remove it to re-index everything" + _OR_RECONCILE,
                         rebuildable=True)
    # A recorded root that is gone is a moved (or re-cloned) checkout: paths in the state
    # are relative to the root, and content hashes decide what changed, so it follows.
    if data.get("root") != root and isinstance(data.get("root"), str) and os.path.isdir(data["root"]):
        raise StateError(f"state file {path} was made for root {data.get('root')!r}, not {root!r}; "
                         "use one state file per root (or move that root away: a state follows its tree)")
    try:
        files = {}
        for rel, entry in data["files"].items():
            stat_ = entry["stat"]
            ids = entry["ids"]
            if not (isinstance(rel, str) and isinstance(entry["hash"], str) and isinstance(ids, list)
                    and all(isinstance(i, str) for i in ids)
                    and (stat_ is None or (len(stat_) == 4 and all(isinstance(n, int) for n in stat_)))):
                raise TypeError(rel)
            places = entry.get("places")
            if not (isinstance(places, list) and len(places) == len(ids) and all(isinstance(p, str) for p in places)):
                places = None  # not recorded (or damaged): same-text chunks are then said to have moved
            files[rel] = FileState(tuple(stat_) if stat_ else None, entry["hash"], entry.get("language"), ids,
                                   places)
        state = ChunkState(root, str(data["fingerprint"]), dict(data["options"]), str(data["tool"]), files)
    except (KeyError, TypeError, ValueError, AttributeError):
        raise StateError(f"state file {path} is corrupt (unexpected content); remove it to re-index everything" + _OR_RECONCILE,
                         rebuildable=True) from None
    return state


def with_journal(previous: ChunkState | None, journaled: dict[str, set[str]], root: str,
                 options: ChunkOptions) -> ChunkState | None:
    """``previous`` with what an unfinished run journaled: each journaled file's entry
    holds every id the index may have for it (the state's and the journaled ones) and the
    hash :data:`UNSURE`, so the run chunks it again, upserts what it makes and deletes the
    rest. An id journaled with no path (a reconcile's delete) makes its file unsure."""
    if not journaled:
        return previous
    state = previous or ChunkState(root, settings_fingerprint(options), options.to_dict(), tool_version())
    journaled = dict(journaled)
    pathless = journaled.pop(NO_PATH, set())
    if pathless:
        for rel, entry in state.files.items():
            if not pathless.isdisjoint(entry.ids):
                journaled.setdefault(rel, set())
    for rel, ids in journaled.items():
        before = state.files.get(rel)
        known = [] if before is None else before.ids
        extra = sorted(ids.difference(known))
        state.files[rel] = FileState(None, UNSURE, None if before is None else before.language, [*known, *extra])
    return state


@dataclass(frozen=True, slots=True)
class IndexRecord:
    """One line of the difference. ``line`` is its JSON (UTF-8, newline-terminated)."""

    op: str  # "upsert" or "delete"
    id: str
    path: str
    line: bytes

    def to_dict(self) -> dict[str, Any]:
        return dict(json.loads(self.line))


@dataclass(slots=True)
class RunSummary:
    """What a run did, for the caller's report."""

    files: int = 0  # files the walk took
    unchanged: int = 0
    touched: int = 0  # status changed, content did not
    chunked: int = 0  # new or changed files chunked
    deleted_files: int = 0
    upserts: int = 0
    new_texts: int = 0  # upserts whose embedded text is new to the index (change "new")
    deletes: int = 0
    rechunk_reason: str | None = None  # why every file was chunked again
    #: Files kept as they were because they could not be read or chunked: (path, message).
    kept: list[tuple[str, str]] = field(default_factory=list)
    seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "files": self.files, "unchanged": self.unchanged, "touched": self.touched, "chunked": self.chunked,
            "deletedFiles": self.deleted_files, "upserts": self.upserts, "newTexts": self.new_texts,
            "deletes": self.deletes,
            "rechunkAll": self.rechunk_reason, "kept": len(self.kept), "seconds": round(self.seconds, 3),
        }


#: Upserts' change field: the embedded text is new to the index; the same text is at
#: other lines of the file; the same text at the same place, only other fields changed
#: (the file's hash, the chunk's index or the file's chunk count).
CHANGES = ("new", "moved", "metadata")
_PLACE_KEYS = ("byteRange", "lineRange", "charRange")


def _place(record: dict[str, Any]) -> str:
    """A short digest of where a chunk record is in its file (its ranges)."""
    where = json.dumps([record.get(k) for k in _PLACE_KEYS], separators=(",", ":"))
    return hashlib.blake2b(where.encode(), digest_size=6).hexdigest()


def encode_upserts(parsed: Any, chunks: Sequence[Any], options: Any,
                   seconds: Any) -> tuple[str, list[str], list[str], list[bytes]]:
    """Batch analyzer: the file's hash (of the bytes chunked), its chunk ids, their
    places and their records' JSON (without ``op``), encoded in the worker."""
    file_hash = content_hash(parsed.source.data)
    records = chunk_records(parsed.path, parsed.language, chunks, options, file_hash)
    return (file_hash, [r["id"] for r in records], [_place(r) for r in records],
            [json_bytes(r) for r in records])


def _upsert_line(change: str, record_json: bytes) -> bytes:
    """The upsert line: ``op`` and ``change`` first, then the chunk record's fields."""
    return b'{"op": "upsert", "change": "' + change.encode() + b'", ' + record_json[1:] + b"\n"


def _delete(id_: str, rel: str) -> IndexRecord:
    return IndexRecord("delete", id_, rel, json_bytes({"op": "delete", "id": id_, "path": rel}) + b"\n")


def _status(st: os.stat_result) -> tuple[int, int, int, int]:
    return (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)


def _is_under(rel: str, prefixes: Sequence[str]) -> bool:
    return any(rel == p or rel.startswith(p + "/") or p == "" for p in prefixes)


class IncrementalRun:
    """One run against a state file; made by :func:`open_incremental`, which holds the
    lock. Iterate :meth:`records` to the end, then :meth:`commit`."""

    def __init__(self, state_path: str, files_plan: WalkPlan, options: ChunkOptions, previous: ChunkState | None,
                 *, jobs: int | None = None, on_progress: ProgressCallback | None = None,
                 timeout: float | None = None, engine: str = "local", ray_address: str | None = None,
                 shared_storage: bool = False, leave_out: Sequence[str] = (),
                 scope: Sequence[str] = ("",), held: frozenset[str] | None = None) -> None:
        self.state_path = state_path
        #: Reconciling: the ids the index holds (the state is rebuilt from the tree; the
        #: difference is taken against these instead).
        self.held = held
        if held is not None:
            previous = None
        #: The paths (relative to the root, "" for all of it) this run looks at: what the
        #: state holds elsewhere is left as it is, neither deleted nor chunked again.
        self.scope = tuple(scope)
        self.leave_out = leave_out  # files of the tree that are not chunked (the output)
        self.plan = files_plan
        self.options = options
        self.previous = previous
        self.summary = RunSummary()
        self._batch_args: dict[str, Any] = {"jobs": jobs, "on_progress": on_progress, "timeout": timeout,
                                            "engine": engine, "ray_address": ray_address,
                                            "shared_storage": shared_storage}
        self._new: ChunkState | None = None
        self.journal = Journal(journal_path(state_path))
        self._started_ns = time.time_ns()
        self.rechunk_reason = self._rechunk_reason()
        self.summary.rechunk_reason = self.rechunk_reason

    def _rechunk_reason(self) -> str | None:
        previous = self.previous
        if previous is None:
            return None
        if previous.fingerprint != settings_fingerprint(self.options):
            now = self.options.to_dict()
            changed = [f"{k} {previous.options.get(k)!r} -> {now.get(k)!r}"
                       for k in sorted(set(now) | set(previous.options)) if previous.options.get(k) != now.get(k)]
            return "settings changed since the state was written (" + (", ".join(changed) or "fingerprint") + ")"
        if previous.tool != tool_version():
            return f"chunk-explorer changed since the state was written ({previous.tool} -> {tool_version()})"
        return None

    def records(self) -> Iterator[IndexRecord]:
        """The difference, file by file in walk order, then the deleted files' ids."""
        started = time.perf_counter()
        options, summary = self.options, self.summary
        previous_files = {} if self.previous is None else self.previous.files
        trust_previous = self.rechunk_reason is None
        new = ChunkState(self.plan.root, settings_fingerprint(options), options.to_dict(), tool_version())
        excluded = {os.path.abspath(p) for p in (self.state_path, self.state_path + ".lock", self.journal.path,
                                                 *self.leave_out)}
        walked = [f for f in self.plan.files if os.path.abspath(f.path) not in excluded]
        summary.files = len(walked)
        # Places the walk could not look into this time: what the state holds there is kept.
        unreadable = [s.rel for s in self.plan.skipped if s.reason == SkipReason.UNREADABLE]

        to_chunk: list[tuple[WalkedFile, tuple[int, int, int, int], bytes | None]] = []
        for walked_file in walked:
            rel = walked_file.rel
            before = previous_files.get(rel)
            try:
                st = os.stat(walked_file.path)
            except OSError as exc:
                self._keep(new, rel, before, exc.strerror or str(exc))
                continue
            status = _status(st)
            if before is not None and trust_previous:
                if before.stat == status:
                    new.files[rel] = before
                    summary.unchanged += 1
                    continue
                try:
                    data = read_regular_file(walked_file.path, max(DEFAULT_MAX_BYTES, st.st_size))
                except OSError as exc:
                    self._keep(new, rel, before, getattr(exc, "reason", None) or exc.strerror or str(exc))
                    continue
                if content_hash(data) == before.hash:
                    new.files[rel] = FileState(self._trusted(status), before.hash, before.language, before.ids,
                                               before.places)
                    summary.touched += 1
                    continue
                to_chunk.append((walked_file, status, data))
            else:
                to_chunk.append((walked_file, status, None))

        yield from self._chunk(to_chunk, previous_files, new)

        walked_rels = {f.rel for f in walked}
        for rel, before in sorted(previous_files.items()):
            if rel in walked_rels:
                continue
            if not _is_under(rel, self.scope):  # outside the paths this run was given
                new.files[rel] = before
                continue
            if _is_under(rel, unreadable):
                self._keep(new, rel, before, "unreadable")
                continue
            summary.deleted_files += 1
            summary.deletes += len(before.ids)
            yield from self._journaled(rel, [_delete(id_, rel) for id_ in before.ids])
        if self.held is not None:  # held by the index, made by no file of the tree
            current = {id_ for entry in new.files.values() for id_ in entry.ids}
            gone = sorted(self.held - current)
            summary.deletes += len(gone)
            yield from self._journaled(NO_PATH, [
                IndexRecord("delete", id_, "", json_bytes({"op": "delete", "id": id_, "path": None}) + b"\n")
                for id_ in gone])
        summary.seconds = time.perf_counter() - started
        self._new = new

    def _journaled(self, rel: str, records: list[IndexRecord]) -> Iterator[IndexRecord]:
        """``records`` (of file ``rel``), once the journal says they are about to be emitted."""
        if records:
            try:
                self.journal.add(rel, [r.id for r in records])
            except JournalError as exc:
                raise StateError(f"{exc}; nothing of {rel} was emitted, run again once it can be written") from None
        yield from records

    def _trusted(self, status: tuple[int, int, int, int]) -> tuple[int, int, int, int] | None:
        """The status to remember, or None for a file modified so close to this run that a
        later change could keep the same timestamps: it is hashed again next time. The
        change time counts as much as the modification time: a tool that writes a file and
        sets an old mtime (``cp -p``, ``tar``, ``rsync -t``) leaves only the ctime recent, and
        a second such write within one tick of the clock would change neither."""
        return None if max(status[1], status[2]) >= self._started_ns - RACY_NS else status

    def _keep(self, new: ChunkState, rel: str, before: FileState | None, why: str) -> None:
        """A file not read or not chunked this time: its previous chunks stay as they are."""
        self.summary.kept.append((rel, why))
        if before is not None:
            new.files[rel] = before

    def _chunk(self, to_chunk: list[tuple[WalkedFile, tuple[int, int, int, int], bytes | None]],
               previous_files: dict[str, FileState], new: ChunkState) -> Iterator[IndexRecord]:
        if not to_chunk:
            return
        # Here, not at the top: a run with nothing to chunk never loads the chunker.
        from ..engine.batch import BatchFile, chunk_batch_stream

        batch = [BatchFile(path=f.path, name=f.rel, size=f.size, code=data) for f, _, data in to_chunk]
        args = dict(self._batch_args)
        if args["engine"] == "ray" and len(batch) < POOL_THRESHOLD:
            # Starting or joining Ray takes seconds (tens on a busy machine); the handful of
            # files a commit changes chunk here sooner, into the same records.
            args["engine"], args["ray_address"], args["shared_storage"] = "local", None, False
        args["jobs"] = run_jobs(args["jobs"], len(batch), args["engine"], args["ray_address"])  # as the export
        max_bytes = max([DEFAULT_MAX_BYTES, *(f.size for f, _, _ in to_chunk)])
        stream = chunk_batch_stream(batch, analyze=encode_upserts, keep_chunks=False, options=self.options,
                                    max_bytes=max_bytes, **args)
        try:
            for (walked_file, status, _), result in zip(to_chunk, stream):
                rel = walked_file.rel
                before = previous_files.get(rel)
                yield from self._journaled(rel, list(self._file_result(result, rel, status, before, new)))
        finally:
            stream.close()

    def _file_result(self, result: BatchResult, rel: str, status: tuple[int, int, int, int],
                     before: FileState | None, new: ChunkState) -> Iterator[IndexRecord]:
        summary = self.summary
        old_ids = [] if before is None else before.ids
        if result.ok:
            file_hash, ids, places, encoded = result.analysis
            summary.chunked += 1
            new.files[rel] = FileState(self._trusted(status), file_hash, result.language, ids, places)
            old_places: dict[str, str | None] = {}
            if before is not None and before.hash != UNSURE:  # an unsure file's ids may be missing: all new
                known: list[str | None] = list(before.places) if before.places else [None] * len(before.ids)
                old_places = dict(zip(before.ids, known))
            for id_, place, record_json in zip(ids, places, encoded):
                if self.held is not None:  # where the index has it is not known: "moved" updates it
                    change = "moved" if id_ in self.held else "new"
                else:
                    change = "new" if id_ not in old_places else "metadata" if old_places[id_] == place else "moved"
                summary.upserts += 1
                summary.new_texts += change == "new"
                yield IndexRecord("upsert", id_, rel, _upsert_line(change, record_json))
            kept = set(ids)
            gone = [i for i in old_ids if i not in kept]
        elif result.not_text:  # now binary or not UTF-8: no longer part of the index
            gone = old_ids
        else:
            self._keep(new, rel, before, result.error or result.error_kind or "error")
            return
        for id_ in gone:
            summary.deletes += 1
            yield _delete(id_, rel)

    def commit(self) -> None:
        """Replace the state file (atomically) with what this run saw. Only after every
        record was consumed: until then the previous state stays."""
        if self._new is None:
            raise RuntimeError("commit() before every record was read: the state would skip changes")
        try:
            write_atomic(self.state_path, json_bytes(self._new.to_json()))
        except OutputError as exc:
            raise StateError(str(exc)) from None
        # Killed between the two, the next run sends the journaled files again: nothing lost.
        self.journal.remove()


@contextlib.contextmanager
def _locked(state_path: str) -> Iterator[None]:
    lock_path = state_path + ".lock"
    try:
        import fcntl
    except ImportError:  # no flock on this system: runs are not protected from each other
        yield
        return
    while True:
        try:
            handle: IO[bytes] = open(lock_path, "ab")  # noqa: SIM115 (held until the run ends)
        except OSError as exc:
            raise StateError(f"cannot create lock file {lock_path}: {exc.strerror or exc}") from None
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.close()
            raise StateError(f"another run is using state file {state_path} (lock {lock_path} is held); "
                             "run again when it ends") from None
        if _same_file(handle.fileno(), lock_path):
            break
        # The run that held it removed the file between our open and our lock: the lock we hold
        # is on a name no other run can open, so take the one that is there now.
        handle.close()
    with handle:
        try:
            with kept_from_workers(handle.fileno()):  # a worker outliving this run must not hold it
                yield
        finally:
            # Removed while still held, so no lock file outlives the run; a run that opened the old
            # file meanwhile sees it is gone (the check above) and opens a new one.
            with contextlib.suppress(OSError):
                os.unlink(lock_path)
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


def _same_file(fd: int, path: str) -> bool:
    try:
        named = os.stat(path)
    except OSError:
        return False
    held = os.fstat(fd)
    return (held.st_dev, held.st_ino) == (named.st_dev, named.st_ino)


@contextlib.contextmanager
def open_incremental(
    paths: Sequence[str | os.PathLike[str]] | WalkPlan,
    state_path: str | os.PathLike[str],
    options: ChunkOptions | None = None,
    walk: WalkOptions | None = None,
    *,
    root: str | None = None,
    jobs: int | None = None,
    on_progress: ProgressCallback | None = None,
    timeout: float | None = None,
    engine: str = "local",
    ray_address: str | None = None,
    shared_storage: bool = False,
    leave_out: Sequence[str] = (),
    scope: Sequence[str] = ("",),
    held: frozenset[str] | None = None,
) -> Iterator[IncrementalRun]:
    """Lock ``state_path``, read and check it, and give the run. ``paths`` are walked
    as the CLI walks them (or a ready :class:`WalkPlan`); ``options``/``walk`` default to
    the settings file found for the root. ``scope``: the paths (relative to the root) the
    run re-indexes, when it is only part of the state's tree. ``held``: the ids the index
    holds, to rebuild the state and emit what makes the index right. Raises :class:`StateError` (nothing written)
    when the state cannot be used or another run holds it."""
    state_path = os.fspath(state_path)
    try:
        check_writable(state_path)
    except OutputError as exc:
        raise StateError(str(exc)) from None
    if isinstance(paths, WalkPlan):
        files_plan = paths
    else:
        names = [os.fspath(p) for p in paths]
        if options is None or walk is None:
            from .settings import load_settings
            from .walk import common_root

            settings = load_settings(root or common_root(names))
            options = options or settings.options
            walk = walk or settings.walk
        files_plan = plan(names, walk, root=root)
    options = options or ChunkOptions()
    _previous(state_path, files_plan.root, held)  # an unusable state is refused before the lock file is made
    with _locked(state_path):
        previous = _previous(state_path, files_plan.root, held)  # what another run may have committed meanwhile
        if held is None:  # the ids the index holds say it all: the journal is not needed
            try:
                journaled = read_journal(journal_path(state_path))
            except JournalError as exc:
                raise StateError(f"{exc}: the run it journaled was not finished, and which chunks of its "
                                 "output the index holds is unknown; rebuild the state with --reconcile IDS "
                                 "(the ids the index holds), or remove the state and the journal and "
                                 "re-index everything") from None
            previous = with_journal(previous, journaled, files_plan.root, options)
        run = IncrementalRun(state_path, files_plan, options, previous, jobs=jobs,
                             on_progress=on_progress, timeout=timeout, engine=engine, ray_address=ray_address,
                             shared_storage=shared_storage, leave_out=leave_out, scope=scope, held=held)
        try:
            yield run
        finally:
            run.journal.close()


def _previous(state_path: str, root: str, held: frozenset[str] | None) -> ChunkState | None:
    """The state to diff against; a corrupt one is no obstacle when the index's ids are
    given (the state is rebuilt from them)."""
    try:
        return read_state(state_path, root)
    except StateError as exc:
        if held is not None and exc.rebuildable:
            return None
        raise


def subset_scope(state_path: str | os.PathLike[str], paths: Sequence[str]) -> tuple[str, list[str]] | None:
    """When ``paths`` are all inside the root of the state in ``state_path`` (and not that
    root itself): that root and the paths relative to it, to re-index only them under the
    same state. None otherwise (no state yet, or another root: the run checks it)."""
    try:
        state = _read_any_root(os.fspath(state_path))
    except StateError:
        return None
    if state is None:
        return None
    root = state.root
    given = [os.path.abspath(p) for p in paths]
    if not given or not all(g == root or g.startswith(root.rstrip(os.sep) + os.sep) for g in given):
        return None
    rels = [os.path.relpath(g, root).replace(os.sep, "/") for g in given]
    if "." in rels:
        return None
    return root, rels


def _read_any_root(path: str) -> ChunkState | None:
    """The state in ``path`` whatever root it was made for."""
    try:
        raw = read_regular_file(path, STATE_MAX_BYTES)
        data = json.loads(raw.decode("utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    if not isinstance(data, dict) or not isinstance(data.get("root"), str):
        return None
    return read_state(path, data["root"])
