"""What a batch computed for a file, kept between runs: a file whose content and settings
are unchanged is never chunked twice.

The repository view, ``stats``, the sweep and ``eval`` run the engine's batch with an
analyzer that sends back only what they need per file (problems, measures, chunks under
every setting). :meth:`ResultsCache.stream` runs the same batch, with the same arguments
and results (:data:`~explorer.engine.batch.BatchRunner`): each file is read and hashed
here, the files it knows are answered from the cache, the others go to the batch, and
what they give is stored.

An entry's key is the SHA-256 of everything the result depends on: the file's content and
name (the language is detected from the name, the path is in every chunk's context), the
batch's options and the file's own, the analyzer with its arguments (the settings of a
sweep or an evaluation, the query sources), the package's version, the versions of the
grammars and tokenizers, a stamp of the engine's own code (a checkout edited in place
never reads results of the code before) and the content of a ``tokenizer.json``. Results
with an error are kept only when the content decides it (binary, not UTF-8, no grammar):
a read error, a time-out or a crash may not happen again.

On disk: one file per entry under ``$CHUNK_EXPLORER_CACHE/results`` (by default
``$XDG_CACHE_HOME/chunk-explorer/results``; ``CHUNK_EXPLORER_CACHE=off`` keeps nothing),
written to a temporary name and renamed into place, so two processes writing the same
entry leave one whole entry and a reader never sees half of one. An entry starts with a
format version and a checksum of what follows: one that is truncated, corrupt or of
another version is ignored and rebuilt. The folder is capped (:data:`DEFAULT_CAP_MB`, or
``CHUNK_EXPLORER_CACHE_MB``): after a run that wrote entries, the least recently used ones
are removed until it fits. Entries are pickles, as the workers send results: the folder
is created readable by its owner only.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import pickle
import struct
import time
import zlib
from collections.abc import Generator, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from ..engine.batch import (
    NOT_TEXT,
    UNSUPPORTED,
    Analyzer,
    BatchFile,
    BatchResult,
    BatchRunner,
    ProgressCallback,
    as_batch_file,
    checked_options,
    chunk_batch_stream,
)
from ..engine.batch.task import read_source
from ..engine.files import DEFAULT_MAX_BYTES
from ..engine.options import ChunkOptions
from ..engine.tokens import is_path_spec
from .atomic import write_atomic
from .cache_dir import cache_file

#: The folder of the results, inside the cache folder.
FOLDER = "results"
#: The environment variable that sets the cap, in megabytes (MB: 10^6 bytes).
CAP_VARIABLE = "CHUNK_EXPLORER_CACHE_MB"
#: The cap when the variable is unset.
DEFAULT_CAP_MB = 256
#: The entries' format: an entry of another format is ignored (and rebuilt).
FORMAT_VERSION = 1

_MAGIC = b"CXRC"
_HEADER = struct.Struct(">4sHBQ32s")  # magic, format version, compressed?, payload length, payload SHA-256
_COMPRESS_FROM = 2048  # payloads this large are compressed (the text of chunks shrinks about 4x)
_SUFFIX = ".entry"
#: A temporary file older than this is left from a process that died while writing.
_STALE_TEMPORARY_SECONDS = 3600.0


#: Failures kept like results: the same content and settings fail the same way (and a
#: repository's few binary files would otherwise start the worker pool on every scan).
_KEPT_FAILURES = frozenset({*NOT_TEXT, UNSUPPORTED})


class CacheSettingError(ValueError):
    """The cache's setting (``CHUNK_EXPLORER_CACHE_MB``) is not one the cache can use."""


def cap_bytes() -> int:
    """The cap of the results folder: ``$CHUNK_EXPLORER_CACHE_MB`` megabytes, else
    :data:`DEFAULT_CAP_MB`. Raises :class:`CacheSettingError` for a value that is not a
    positive whole number."""
    text = os.environ.get(CAP_VARIABLE, "").strip()
    if not text:
        return DEFAULT_CAP_MB * 1_000_000
    if not text.isdigit() or int(text) < 1:
        raise CacheSettingError(f"{CAP_VARIABLE}={text!r}: give the cache's size cap as a whole number of "
                                f"megabytes, 1 or more (default {DEFAULT_CAP_MB}), or turn the cache off with "
                                "CHUNK_EXPLORER_CACHE=off")
    return int(text) * 1_000_000


def default_folder() -> str | None:
    """Where results are kept: ``results`` in the cache folder; None when the disk cache is off."""
    return cache_file(FOLDER)


@dataclass(slots=True)
class Entry:
    """What a result is rebuilt from (the rest of a :class:`BatchResult` is the file's name)."""

    language: str | None
    bytes: int
    seconds: float
    analysis: Any
    error: str | None = None
    error_kind: str | None = None

    @classmethod
    def of(cls, result: BatchResult) -> Entry | None:
        """What to keep of ``result``: an analysis, or a failure that the content alone
        decides (not text, a language without a grammar); None for the others (a read
        error, a time-out, a crash may not happen again)."""
        if result.ok:
            return None if result.analysis is None else cls(result.language, result.bytes, result.seconds,
                                                            result.analysis)
        if result.error_kind in _KEPT_FAILURES:
            return cls(result.language, result.bytes, result.seconds, None, result.error, result.error_kind)
        return None

    def result(self, label: str, index: int) -> BatchResult:
        return BatchResult(label, self.language, [] if self.error is None else None, error=self.error,
                           error_kind=self.error_kind, bytes=self.bytes, seconds=self.seconds,
                           analysis=self.analysis, index=index)


class ResultsCache:
    """Batch results by key, in ``folder`` (None: nothing is kept, every file is chunked).
    ``hits``, ``misses`` and ``written`` count this object's work; ``problem`` says why
    entries stopped being written, if they did (an unwritable folder is no error: the
    run goes on and computes what it needs)."""

    def __init__(self, folder: str | None, cap: int | None = None):
        self.folder = folder
        self.cap = (cap_bytes() if folder is not None else 0) if cap is None else cap
        self.hits = self.misses = self.written = 0
        self.problem: str | None = None
        self._made: set[str] = set()

    @classmethod
    def default(cls, enabled: bool = True) -> ResultsCache:
        """The user's cache (:func:`default_folder`), or none when ``enabled`` is False (``--no-cache``)."""
        return cls(default_folder() if enabled else None)

    @property
    def enabled(self) -> bool:
        return self.folder is not None

    # -- entries -----------------------------------------------------------------------
    def path_of(self, key: str) -> str:
        assert self.folder is not None
        return os.path.join(self.folder, key[:2], key + _SUFFIX)

    def get(self, key: str) -> Entry | None:
        """The entry under ``key``, or None when there is none or it cannot be read whole."""
        if self.folder is None:
            return None
        path = self.path_of(key)
        try:
            with open(path, "rb") as handle:
                data = handle.read()
        except OSError:
            return None
        entry = _decode(data)
        if entry is not None:
            with contextlib.suppress(OSError):
                os.utime(path)  # used now: the last to be evicted
        return entry

    def put(self, key: str, entry: Entry) -> None:
        """Keep ``entry`` under ``key`` (nothing when the cache is off or cannot be written)."""
        if self.folder is None or self.problem is not None:
            return
        try:
            data = _encode(entry)
        except Exception:  # an analysis that cannot be pickled is simply not kept
            return
        path = self.path_of(key)
        try:
            directory = os.path.dirname(path)
            if directory not in self._made:
                os.makedirs(self.folder, mode=0o700, exist_ok=True)
                os.makedirs(directory, mode=0o700, exist_ok=True)
                self._made.add(directory)
            write_atomic(path, data, durable=False)  # a torn entry fails its checksum: no sync needed
        except OSError as exc:
            self.problem = f"results are not kept in {self.folder} ({exc}); every file is chunked"
            return
        self.written += 1

    def entries(self) -> list[tuple[str, int, float]]:
        """``(path, bytes, last used)`` of every entry on disk."""
        found: list[tuple[str, int, float]] = []
        if self.folder is None:
            return found
        try:
            shards = list(os.scandir(self.folder))
        except OSError:
            return found
        now = time.time()
        for shard in shards:
            if not shard.is_dir(follow_symlinks=False):
                continue
            try:
                files = list(os.scandir(shard.path))
            except OSError:
                continue
            for item in files:
                try:
                    info = item.stat(follow_symlinks=False)
                except OSError:
                    continue
                if item.name.endswith(_SUFFIX):
                    found.append((item.path, info.st_size, info.st_mtime))
                elif item.name.startswith(".") and now - info.st_mtime > _STALE_TEMPORARY_SECONDS:
                    with contextlib.suppress(OSError):
                        os.unlink(item.path)  # left by a process that died while writing
        return found

    def prune(self) -> int:
        """Remove the least recently used entries until the folder is within the cap;
        returns how many were removed."""
        entries = self.entries()
        total = sum(size for _, size, _ in entries)
        removed = 0
        for path, size, _ in sorted(entries, key=lambda e: e[2]):
            if total <= self.cap:
                break
            with contextlib.suppress(OSError):
                os.unlink(path)
                removed += 1
            total -= size
        return removed

    def _trusted(self) -> bool:
        """Whether the folder is on and only its owner, this user, can write into it (an
        entry is a pickle: reading one that someone else wrote would run their code)."""
        if self.folder is None:
            return False
        try:
            info = os.stat(self.folder)
        except FileNotFoundError:
            return True  # created private when the first entry is written
        except OSError as exc:
            self.problem = f"results are not kept in {self.folder} ({exc}); every file is chunked"
            self.folder = None
            return False
        owner = os.getuid() if hasattr(os, "getuid") else info.st_uid
        if info.st_uid != owner or info.st_mode & 0o022:
            self.problem = (f"results are not kept in {self.folder}: others can write into it "
                            "(chmod go-w, or choose another CHUNK_EXPLORER_CACHE); every file is chunked")
            self.folder = None
            return False
        return True

    # -- a batch answered from the cache -------------------------------------------------
    def stream(
        self,
        files: Iterable[Any],
        *,
        jobs: int | None = None,
        on_progress: ProgressCallback | None = None,
        analyze: Analyzer | None = None,
        keep_chunks: bool = True,
        timeout: float | None = None,
        max_bytes: int | None = DEFAULT_MAX_BYTES,
        engine: str = "local",
        ray_address: str | None = None,
        shared_storage: bool = False,
        **options: Any,
    ) -> Generator[BatchResult, None, None]:
        """:func:`~explorer.engine.batch.chunk_batch_stream`, with the files whose result is
        known answered from the cache. Only analyses are kept: a batch that keeps its
        chunks, has no analyzer, one whose arguments have no stable description, or runs
        on Ray is handed to the batch as it is; so is every batch when the folder can be
        written by others (its entries are not trusted)."""
        batch_options = checked_options(jobs, timeout, engine, **dict(options))  # bad arguments fail here
        described = None if analyze is None else _describe(analyze)
        if analyze is None or described is None or keep_chunks or engine != "local" or not self._trusted():
            return chunk_batch_stream(files, jobs=jobs, on_progress=on_progress, analyze=analyze,
                                      keep_chunks=keep_chunks, timeout=timeout, max_bytes=max_bytes,
                                      engine=engine, ray_address=ray_address, shared_storage=shared_storage,
                                      **options)
        setting = _setting_key(batch_options, described, analyze, max_bytes)
        return self._answered([as_batch_file(item) for item in files], setting, batch_options, jobs, on_progress,
                              analyze, timeout, max_bytes)

    def _answered(self, jobs_in: list[BatchFile], setting: bytes, options: ChunkOptions, jobs: int | None,
                  on_progress: ProgressCallback | None, analyze: Analyzer, timeout: float | None,
                  max_bytes: int | None) -> Generator[BatchResult, None, None]:
        total = len(jobs_in)
        known: dict[int, BatchResult] = {}
        missed: list[int] = []
        done = 0
        for index, job in enumerate(jobs_in):
            content = _content(job, max_bytes)
            entry = None if content is None else self.get(_key(setting, job, content))
            if entry is None:
                missed.append(index)
                continue
            result = entry.result(job.label, index)
            known[index] = result
            done += 1
            if on_progress is not None:
                on_progress(done, total, result)
        answered = len(known)  # (``known`` empties as its results are handed out)
        self.hits += answered
        self.misses += len(missed)
        keys: dict[int, str] = {}  # by position among the missed: the key of the content chunked

        def progressed(finished: int, _total: int | None, result: BatchResult) -> None:
            result.index = missed[result.index]
            if on_progress is not None:
                on_progress(answered + finished, total, result)

        misses = _Missed([jobs_in[i] for i in missed], max_bytes, setting, keys)
        stream = chunk_batch_stream(misses, jobs=jobs, on_progress=progressed, analyze=analyze, keep_chunks=False,
                                    timeout=timeout, max_bytes=max_bytes, options=options) if missed else iter(())
        try:
            position = 0
            for index in range(total):
                if index in known:
                    yield known.pop(index)
                    continue
                result = next(stream)
                result.index = index
                key = keys.pop(position, None)
                position += 1
                kept = None if key is None else Entry.of(result)
                if key is not None and kept is not None:
                    self.put(key, kept)
                yield result
        finally:
            close = getattr(stream, "close", None)
            if close is not None:
                close()  # stops the pool when the caller leaves early
            if self.written:
                self.prune()


def runner_of(cache: ResultsCache | None) -> BatchRunner:
    """What runs a batch: ``cache``'s :meth:`~ResultsCache.stream`, or the engine's batch without one."""
    return chunk_batch_stream if cache is None else cache.stream


class _Missed:
    """The files to chunk, read when the batch takes them (memory holds a window of
    them, not the repository): each is handed over as the content read, and the key of
    that content noted, so what is stored is what was chunked even if the file changed
    since it was hashed. A file that cannot be read goes as it was given: the batch
    reports why."""

    def __init__(self, jobs: list[BatchFile], max_bytes: int | None, setting: bytes, keys: dict[int, str]):
        self.jobs = jobs
        self.max_bytes = max_bytes
        self.setting = setting
        self.keys = keys

    def __len__(self) -> int:
        return len(self.jobs)

    def __iter__(self) -> Iterator[BatchFile]:
        for position, job in enumerate(self.jobs):
            content = _content(job, self.max_bytes)
            if content is None:
                yield job
                continue
            self.keys[position] = _key(self.setting, job, content)
            yield BatchFile(code=content, name=job.label, options=job.options, size=len(content))


def _content(job: BatchFile, max_bytes: int | None) -> str | bytes | None:
    try:
        return read_source(job, max_bytes)
    except OSError:
        return None


def _key(setting: bytes, job: BatchFile, content: str | bytes) -> str:
    digest = hashlib.sha256(setting)
    digest.update(job.label.encode("utf-8", "surrogatepass") + b"\0")
    digest.update(repr(sorted(job.options.items())).encode("utf-8", "surrogatepass") if job.options else b"-")
    if isinstance(content, str):
        digest.update(b"\0s" + content.encode("utf-8", "surrogatepass"))
    else:
        digest.update(b"\0b" + content)
    return digest.hexdigest()


def _setting_key(options: ChunkOptions, described: str, analyze: Analyzer, max_bytes: int | None) -> bytes:
    """What every file's key shares: the options, the analyzer and the code that runs them."""
    tokenizers = [_tokenizer_stamp(spec) for spec in _tokenizer_specs(options, analyze)]
    text = "\n".join([f"format {FORMAT_VERSION}", _code_stamp(), repr(options), described, f"max_bytes {max_bytes}",
                      *tokenizers])
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest()


def _describe(analyze: Analyzer) -> str | None:
    """The analyzer and its arguments as text that names the same work in every run, or
    None when it has none (a lambda, a nested function, an object shown by its address)."""
    func: Any = analyze
    args: tuple[Any, ...] = ()
    keywords: dict[str, Any] = {}
    while isinstance(func, functools.partial):
        args = func.args + args
        keywords = {**func.keywords, **keywords}
        func = func.func
    name = f"{getattr(func, '__module__', '?')}.{getattr(func, '__qualname__', '?')}"
    text = f"{name}|{args!r}|{sorted(keywords.items())!r}"
    if "<" in name or " at 0x" in text:
        return None
    return text


def _tokenizer_specs(options: ChunkOptions, analyze: Analyzer) -> list[str]:
    """The tokenizers named by the options and the analyzer's arguments (settings of a
    sweep, an evaluation's cost tokenizer)."""
    values: list[Any] = [options]
    while isinstance(analyze, functools.partial):
        values.extend(analyze.args)
        values.extend(analyze.keywords.values())
        analyze = analyze.func
    found: list[str] = []
    while values:
        value = values.pop()
        if isinstance(value, ChunkOptions):
            value = value.tokenizer
        if isinstance(value, (tuple, list)):
            values.extend(value)
        elif isinstance(value, str) and is_path_spec(value) and value not in found:
            found.append(value)
    return sorted(found)


def _tokenizer_stamp(spec: str) -> str:
    """A tokenizer file's content hash: the same path may hold another model's file."""
    try:
        info = os.stat(spec)
    except OSError:
        return f"tokenizer {spec} missing"
    return f"tokenizer {spec} {_file_digest(os.path.abspath(spec), info.st_size, info.st_mtime_ns)}"


@functools.lru_cache(maxsize=16)
def _file_digest(path: str, size: int, mtime_ns: int) -> str:
    digest = hashlib.sha256()
    try:
        with open(path, "rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
    except OSError as exc:
        return f"unreadable ({exc})"
    return digest.hexdigest()


@functools.cache
def _code_stamp() -> str:
    """The package's version, the versions of what chunks and counts (grammars,
    tokenizers), and the size and time of every engine module: a release, an upgraded
    grammar or an edited checkout never reads the results of the code before."""
    from importlib.metadata import PackageNotFoundError, version

    from ..version import tool_version

    parts = [f"chunk-explorer {tool_version()}"]
    for package in ("tree-sitter", "tree-sitter-language-pack", "bpe-openai", "tokenizers"):
        try:
            parts.append(f"{package} {version(package)}")
        except PackageNotFoundError:
            parts.append(f"{package} -")
    from .. import engine as engine_package

    engine = os.path.dirname(os.path.abspath(engine_package.__file__))
    for folder, subfolders, names in os.walk(engine):
        subfolders.sort()
        for name in sorted(names):
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                with contextlib.suppress(OSError):
                    info = os.stat(path)
                    parts.append(f"{os.path.relpath(path, engine)} {info.st_size} {info.st_mtime_ns}")
    return "\n".join(parts)


def _encode(entry: Entry) -> bytes:
    payload = pickle.dumps((entry.language, entry.bytes, entry.seconds, entry.analysis, entry.error,
                            entry.error_kind), protocol=pickle.HIGHEST_PROTOCOL)
    compressed = len(payload) >= _COMPRESS_FROM
    if compressed:
        payload = zlib.compress(payload, 1)
    return _HEADER.pack(_MAGIC, FORMAT_VERSION, compressed, len(payload), hashlib.sha256(payload).digest()) + payload


def _decode(data: bytes) -> Entry | None:
    """The entry in ``data``, or None when it is not one whole entry of this format."""
    if len(data) < _HEADER.size:
        return None
    magic, version, compressed, length, checksum = _HEADER.unpack_from(data)
    payload = data[_HEADER.size:]
    if magic != _MAGIC or version != FORMAT_VERSION or len(payload) != length:
        return None
    if hashlib.sha256(payload).digest() != checksum:
        return None
    try:
        return Entry(*pickle.loads(zlib.decompress(payload) if compressed else payload))
    except Exception:  # written by another build of the classes: rebuilt
        return None
