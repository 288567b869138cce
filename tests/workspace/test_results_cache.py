"""The results cache: a file whose content and settings are unchanged is answered from the
cache with the result a new chunking gives; anything that changes the result misses; entries
that cannot be read whole are rebuilt; the folder keeps to its cap; concurrent writers leave
a whole entry; ``off`` keeps nothing."""

from __future__ import annotations

import multiprocessing
import os
import random
import threading
from dataclasses import replace
from functools import partial
from pathlib import Path

import pytest

from explorer.engine.batch import BatchFile, BatchResult, chunk_batch_stream
from explorer.engine.measure.analyzers import analyze_problems, analyze_quality
from explorer.engine.measure.quality import FileMetrics
from explorer.engine.options import ChunkOptions
from explorer.serve.visitors import CACHE_FOLDER, ServeConfig, app_environment
from explorer.workspace.confine import Confinement
from explorer.workspace.results_cache import (
    CAP_VARIABLE,
    DEFAULT_CAP_MB,
    FOLDER,
    CacheSettingError,
    Entry,
    ResultsCache,
    _decode,
    _encode,
    cap_bytes,
)

ORDERS = '''"""Orders."""


def total(lines):
    result = 0
    for line in lines:
        result += line.price * line.quantity
    return result


class Order:
    def __init__(self, lines):
        self.lines = list(lines)

    def total(self):
        return total(self.lines)
'''


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "orders.py").write_text(ORDERS)
    (root / "pkg" / "small.py").write_text("x = 1\n")
    (root / "app.ts").write_text("export function main(): number {\n  return 42;\n}\n")
    (root / "notes.md").write_text("# Notes\n\n```python\ndef f():\n    return 1\n```\n")
    (root / "blob.py").write_bytes(b"\x00\x01binary")
    return root


def files_of(root: Path) -> list[BatchFile]:
    return [BatchFile(path=str(p), name=p.relative_to(root).as_posix()) for p in sorted(root.rglob("*")) if p.is_file()]


def run(cache: ResultsCache, root: Path, options: ChunkOptions | None = None, analyze=analyze_problems,
        progress: list | None = None) -> list[BatchResult]:
    def seen(done: int, total: int | None, result: BatchResult) -> None:
        if progress is not None:
            progress.append((done, total, result.index, result.path))

    return list(cache.stream(files_of(root), jobs=1, analyze=analyze, keep_chunks=False,
                             options=options or ChunkOptions(max_size=60), on_progress=seen))


def outcome(results: list[BatchResult]) -> list[tuple]:
    """What callers read of a result (the time spent aside: measures carry their own)."""
    return [(r.index, r.path, r.language, r.ok, r.error_kind, r.bytes, r.chunks, untimed(r.analysis)) for r in results]


def untimed(analysis: object) -> object:
    if isinstance(analysis, tuple):
        return tuple(untimed(part) for part in analysis)
    if isinstance(analysis, FileMetrics):
        return replace(analysis, seconds={})
    return analysis


def fresh(root: Path, options: ChunkOptions | None = None, analyze=analyze_problems) -> list[BatchResult]:
    return list(chunk_batch_stream(files_of(root), jobs=1, analyze=analyze, keep_chunks=False,
                                   options=options or ChunkOptions(max_size=60)))


def test_a_hit_gives_what_a_new_chunking_gives(repo: Path, tmp_path: Path) -> None:
    cache = ResultsCache(str(tmp_path / "results"))
    first = run(cache, repo)
    assert (cache.hits, cache.misses, cache.written) == (0, 5, 5)  # the binary file's too: its content decides
    progress: list = []
    second = run(cache, repo, progress=progress)
    assert (cache.hits, cache.misses) == (5, 5)
    assert [r.error_kind for r in second] == [None, "binary", None, None, None]
    assert outcome(second) == outcome(first) == outcome(fresh(repo))
    assert [r.seconds for r in second] == [r.seconds for r in first]  # as measured then
    assert any(r.analysis.problems for r in second if r.ok)  # something real was compared
    # Every file reported once, the count rising to the total, with its place in the input.
    assert [done for done, _, _, _ in progress] == [1, 2, 3, 4, 5]
    assert {total for _, total, _, _ in progress} == {5}
    assert sorted((index, path) for _, _, index, path in progress) == [(r.index, r.path) for r in first]


def test_a_changed_file_setting_name_or_analyzer_misses(repo: Path, tmp_path: Path) -> None:
    cache = ResultsCache(str(tmp_path / "results"))
    run(cache, repo)
    orders = repo / "pkg" / "orders.py"
    orders.write_text(ORDERS + "\n\ndef extra():\n    return [1, 2, 3]\n")
    before = cache.hits
    changed = run(cache, repo)
    assert cache.hits - before == 4
    assert outcome(changed) == outcome(fresh(repo))
    before = cache.hits
    bigger = run(cache, repo, ChunkOptions(max_size=2000))
    assert cache.hits == before
    assert outcome(bigger) == outcome(fresh(repo, ChunkOptions(max_size=2000)))
    assert outcome(bigger) != outcome(changed)
    # The same content under another name: the name is in every chunk's context.
    (repo / "pkg" / "small.py").rename(repo / "pkg" / "tiny.py")
    before = cache.hits
    run(cache, repo)
    assert cache.hits - before == 4
    before = cache.hits
    quality = run(cache, repo, analyze=partial(analyze_quality, baseline=True))
    assert cache.hits == before
    assert outcome(quality) == outcome(fresh(repo, analyze=partial(analyze_quality, baseline=True)))


@pytest.mark.parametrize("damage", ["truncated", "flipped", "empty", "other version", "garbage payload"])
def test_an_entry_that_cannot_be_read_whole_is_rebuilt(repo: Path, tmp_path: Path, damage: str) -> None:
    cache = ResultsCache(str(tmp_path / "results"))
    expected = outcome(run(cache, repo))
    entries = sorted(path for path, _, _ in cache.entries())
    assert len(entries) == 5
    for path in entries:
        data = Path(path).read_bytes()
        if damage == "truncated":
            data = data[: len(data) // 2]
        elif damage == "flipped":
            data = data[:-1] + bytes([data[-1] ^ 1])
        elif damage == "empty":
            data = b""
        elif damage == "other version":
            data = data[:4] + b"\x00\x63" + data[6:]
        else:  # a whole header, a payload that is not a pickle
            import hashlib
            import struct

            payload = b"not a pickle"
            data = struct.pack(">4sHBQ32s", b"CXRC", 1, 0, len(payload), hashlib.sha256(payload).digest()) + payload
        Path(path).write_bytes(data)
    before = cache.hits
    assert outcome(run(cache, repo)) == expected
    assert cache.hits == before  # nothing damaged was used
    assert all(_decode(Path(path).read_bytes()) is not None for path in entries)  # rebuilt in place
    before = cache.hits
    assert outcome(run(cache, repo)) == expected
    assert cache.hits - before == 5


def test_the_cap_evicts_the_least_recently_used(repo: Path, tmp_path: Path) -> None:
    folder = tmp_path / "results"
    cache = ResultsCache(str(folder))
    run(cache, repo)
    entries = cache.entries()
    sizes = {path: size for path, size, _ in entries}
    ordered = sorted(sizes)
    for age, path in enumerate(ordered):  # the first is the oldest
        os.utime(path, (1_000_000 + age, 1_000_000 + age))
    keep = sizes[ordered[-1]] + sizes[ordered[-2]]
    capped = ResultsCache(str(folder), cap=keep)
    assert capped.prune() == 3
    assert sorted(path for path, _, _ in capped.entries()) == ordered[-2:]
    # A run that writes prunes: the folder never stays over its cap.
    tiny = ResultsCache(str(tmp_path / "tiny"), cap=max(sizes.values()))
    run(tiny, repo)
    assert tiny.written == 5
    assert sum(size for _, size, _ in tiny.entries()) <= tiny.cap
    assert len(tiny.entries()) == 1


def test_a_hit_counts_as_a_use(repo: Path, tmp_path: Path) -> None:
    cache = ResultsCache(str(tmp_path / "results"))
    run(cache, repo)
    for path, _, _ in cache.entries():
        os.utime(path, (1_000_000, 1_000_000))
    run(cache, repo)
    assert all(used > 1_000_000 for _, _, used in cache.entries())


def test_the_cap_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(CAP_VARIABLE, raising=False)
    assert cap_bytes() == DEFAULT_CAP_MB * 1_000_000 == 256_000_000
    monkeypatch.setenv(CAP_VARIABLE, "12")
    assert cap_bytes() == 12_000_000
    for bad in ("0", "-3", "1.5", "lots"):
        monkeypatch.setenv(CAP_VARIABLE, bad)
        with pytest.raises(CacheSettingError, match="whole number of megabytes"):
            cap_bytes()
    assert ResultsCache(None).cap == 0  # off: the setting is not read


def _payload(marker: int) -> bytes:
    """Bytes that do not compress: an entry of 300 kB takes many writes to land."""
    return random.Random(marker).randbytes(300_000)


def _write_often(folder: str, key: str, marker: int, rounds: int) -> None:
    cache = ResultsCache(folder, cap=1 << 40)
    analysis = _payload(marker)
    for _ in range(rounds):
        cache.put(key, Entry("python", marker, 0.0, analysis))


def test_two_concurrent_writers_leave_a_whole_entry(tmp_path: Path) -> None:
    folder = str(tmp_path / "results")
    key = "ab" + "0" * 62
    cache = ResultsCache(folder, cap=1 << 40)
    # fork starts the writers at once (one thread here: nothing to inherit half-locked).
    context = multiprocessing.get_context("fork" if threading.active_count() == 1 else "spawn")
    writers = [context.Process(target=_write_often, args=(folder, key, marker, 20)) for marker in (1, 2)]
    for writer in writers:
        writer.start()
    seen = torn = 0
    path = cache.path_of(key)
    while any(writer.is_alive() for writer in writers):
        try:
            data = Path(path).read_bytes()
        except FileNotFoundError:
            continue
        seen += 1
        torn += _decode(data) is None
    for writer in writers:
        writer.join()
        assert writer.exitcode == 0
    print(f"{seen} reads, {torn} torn")
    assert torn == 0 and seen > 0
    entry = cache.get(key)
    assert entry is not None and entry.bytes in (1, 2) and entry.analysis == _payload(entry.bytes)
    assert sorted(os.listdir(os.path.dirname(path))) == [key + ".entry"]  # no temporary file left


def test_off_writes_nothing(repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("CHUNK_EXPLORER_CACHE", "off")
    cache = ResultsCache.default()
    assert cache.folder is None
    assert outcome(run(cache, repo)) == outcome(fresh(repo))
    assert (cache.hits, cache.written) == (0, 0)
    assert not (tmp_path / "xdg").exists()
    monkeypatch.delenv("CHUNK_EXPLORER_CACHE")
    assert ResultsCache.default(enabled=False).folder is None  # --no-cache
    assert ResultsCache.default().folder == str(tmp_path / "xdg" / "chunk-explorer" / FOLDER)


def test_a_served_app_keeps_results_only_in_its_write_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    served = tmp_path / "served"
    served.mkdir()
    write = tmp_path / "write"
    write.mkdir()
    for write_dir, expected in ((None, None), (str(write), str(write / CACHE_FOLDER / FOLDER))):
        environment = app_environment(ServeConfig(Confinement.of(str(served), write_dir)), base={})
        for name, value in environment.items():
            monkeypatch.setenv(name, value)
        assert ResultsCache.default().folder == expected


def test_unstable_analyzers_and_kept_chunks_go_to_the_batch_as_they_are(repo: Path, tmp_path: Path) -> None:
    cache = ResultsCache(str(tmp_path / "results"))
    for analyze, keep in ((lambda *a: 1, False), (analyze_problems, True), (None, False)):
        results = list(cache.stream(files_of(repo), jobs=1, analyze=analyze, keep_chunks=keep,
                                    options=ChunkOptions(max_size=60)))
        assert len(results) == 5
    assert (cache.hits, cache.misses, cache.written) == (0, 0, 0)
    assert not (tmp_path / "results").exists()


def test_bad_arguments_fail_before_any_work(repo: Path, tmp_path: Path) -> None:
    cache = ResultsCache(str(tmp_path / "results"))
    with pytest.raises(ValueError, match="max_size"):
        cache.stream(files_of(repo), jobs=1, analyze=analyze_problems, keep_chunks=False, max_size=0)
    with pytest.raises(ValueError, match="jobs"):
        cache.stream(files_of(repo), jobs=0, analyze=analyze_problems, keep_chunks=False)


def test_an_entry_round_trips() -> None:
    entry = Entry("python", 12, 0.5, {"problems": ["x" * 5000]})
    assert _decode(_encode(entry)) == entry


def test_a_changed_byte_that_still_unpickles_is_caught() -> None:
    data = bytearray(_encode(Entry("python", 12, 0.5, "a" * 1000)))
    middle = data.index(b"a" * 1000) + 500
    data[middle] = ord("b")  # still a valid pickle, of another string
    assert _decode(bytes(data)) is None


def test_a_folder_others_can_write_into_is_not_read(repo: Path, tmp_path: Path) -> None:
    folder = tmp_path / "results"
    run(ResultsCache(str(folder)), repo)
    assert (folder.stat().st_mode & 0o777) == 0o700  # created private
    folder.chmod(0o777)  # anyone could plant an entry (a pickle) here
    cache = ResultsCache(str(folder))
    assert outcome(run(cache, repo)) == outcome(fresh(repo))
    assert (cache.hits, cache.misses, cache.written) == (0, 0, 0)
    assert cache.problem is not None and "others can write into it" in cache.problem


def test_a_failure_that_may_pass_is_not_kept(repo: Path, tmp_path: Path) -> None:
    cache = ResultsCache(str(tmp_path / "results"))
    for _ in range(2):
        results = list(cache.stream(files_of(repo), jobs=1, analyze=analyze_problems, keep_chunks=False,
                                    options=ChunkOptions(max_size=60), max_bytes=40))
        assert [r.error_kind for r in results] == ["read", "binary", "read", "read", None]
    assert (cache.hits, cache.misses, cache.written) == (2, 8, 2)  # the read errors are tried again
