"""The results cache at its edges: the cap setting's message and its spaces, where an entry
lives and with which permissions, what the folder's listing and pruning leave (an exact
fit, temporary files of a writer that died), what is kept of each kind of result, when a
folder cannot be used, which analyzers are cached, and the progress of a batch answered
partly from the cache."""

from __future__ import annotations

import os
import stat
import time
from functools import partial
from pathlib import Path

import pytest

from explorer.engine.batch import BatchFile, BatchResult, chunk_batch_stream
from explorer.engine.measure.analyzers import analyze_problems, analyze_quality
from explorer.engine.options import ChunkOptions
from explorer.workspace.results_cache import (
    CAP_VARIABLE,
    Entry,
    ResultsCache,
    cap_bytes,
)

OPTIONS = ChunkOptions(max_size=60)
KEY = "ab" + "c" * 62


def files_in(root: Path) -> list[BatchFile]:
    return [BatchFile(path=str(p), name=p.name) for p in sorted(root.iterdir())]


def tree(root: Path, count: int) -> Path:
    root.mkdir()
    for n in range(count):
        (root / f"m{n}.py").write_text(f"def f{n}(x):\n    return x + {n}\n")
    return root


def answered(cache: ResultsCache, files: list[BatchFile], progress: list | None = None, **kwargs) -> list[BatchResult]:
    def seen(done: int, total: int | None, result: BatchResult) -> None:
        if progress is not None:
            progress.append((done, total, result.index, result.path))

    kwargs.setdefault("analyze", analyze_problems)
    return list(cache.stream(files, jobs=1, keep_chunks=False, options=OPTIONS, on_progress=seen, **kwargs))


def test_the_cap_setting_message_and_spaces(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CAP_VARIABLE, "  ")
    assert cap_bytes() == 256_000_000
    monkeypatch.setenv(CAP_VARIABLE, " 1\n")
    assert cap_bytes() == 1_000_000
    monkeypatch.setenv(CAP_VARIABLE, " 0 ")
    with pytest.raises(ValueError) as caught:
        cap_bytes()
    assert str(caught.value) == (
        "CHUNK_EXPLORER_CACHE_MB='0': give the cache's size cap as a whole number of megabytes, 1 or more "
        "(default 256), or turn the cache off with CHUNK_EXPLORER_CACHE=off"
    )
    monkeypatch.setenv(CAP_VARIABLE, "3")
    assert ResultsCache("/nowhere").cap == 3_000_000
    assert ResultsCache("/nowhere", cap=5).cap == 5


def test_an_entry_lives_in_a_private_shard_of_its_key(tmp_path: Path) -> None:
    folder = tmp_path / "results"
    cache = ResultsCache(str(folder), cap=10**9)
    assert cache.enabled and not ResultsCache(None).enabled
    assert cache.path_of(KEY) == str(folder / "ab" / (KEY + ".entry"))
    assert cache.get(KEY) is None
    entry = Entry("python", 3, 0.25, {"n": 1})
    cache.put(KEY, entry)
    cache.put("ab" + "d" * 62, entry)  # a second entry of the same shard
    cache.put("ef" + "d" * 62, Entry("go", 4, 0.5, "x", "why", "binary"))
    assert cache.written == 3 and cache.problem is None
    assert cache.get(KEY) == entry
    assert cache.get("ef" + "d" * 62) == Entry("go", 4, 0.5, "x", "why", "binary")
    assert sorted(os.listdir(folder)) == ["ab", "ef"]
    assert sorted(os.listdir(folder / "ab")) == sorted([KEY + ".entry", "ab" + "d" * 62 + ".entry"])
    for made in (folder, folder / "ab", folder / "ef"):
        assert stat.S_IMODE(made.stat().st_mode) == 0o700
    assert ResultsCache(None).get(KEY) is None


def test_an_analysis_that_cannot_be_pickled_is_not_kept(tmp_path: Path) -> None:
    cache = ResultsCache(str(tmp_path / "results"), cap=10**9)
    cache.put(KEY, Entry("python", 3, 0.25, lambda: 1))
    assert (cache.written, cache.problem) == (0, None)
    assert cache.get(KEY) is None
    cache.put(KEY, Entry("python", 3, 0.25, 1))  # and the cache goes on keeping the others
    assert cache.written == 1 and cache.get(KEY) == Entry("python", 3, 0.25, 1)


def test_a_large_entry_is_stored_compressed_a_small_one_as_it_is(tmp_path: Path) -> None:
    cache = ResultsCache(str(tmp_path / "results"), cap=10**9)
    small, large = Entry("python", 1, 0.0, "word " * 10), Entry("python", 2, 0.0, "word " * 20_000)
    cache.put(KEY, small)
    cache.put("cd" + "0" * 62, large)
    assert b"word word word" in Path(cache.path_of(KEY)).read_bytes()
    assert os.path.getsize(cache.path_of("cd" + "0" * 62)) < 2_000  # 100 kB of text
    assert (cache.get(KEY), cache.get("cd" + "0" * 62)) == (small, large)


def test_the_listing_takes_entries_only_and_clears_what_a_dead_writer_left(tmp_path: Path) -> None:
    folder = tmp_path / "results"
    cache = ResultsCache(str(folder), cap=10**9)
    cache.put(KEY, Entry("python", 1, 0.0, 1))
    shard = folder / "ab"
    now = time.time()
    for name, age in ((".old.tmp", 3610), (".fresh.tmp", 3590), ("notes.txt", 10**6)):
        (shard / name).write_bytes(b"x")
        os.utime(shard / name, (now - age, now - age))
    (folder / "stray.entry").write_bytes(b"x")  # not in a shard
    (shard / "sub.entry").mkdir()
    os.symlink(shard, folder / "cd")  # a link is not a shard
    listed = cache.entries()
    assert sorted(path for path, _, _ in listed) == sorted([cache.path_of(KEY), str(shard / "sub.entry")])
    assert sorted(os.listdir(shard)) == sorted([".fresh.tmp", "notes.txt", KEY + ".entry", "sub.entry"])
    info = os.stat(cache.path_of(KEY))
    assert [(size, used) for path, size, used in listed if path == cache.path_of(KEY)] == [
        (info.st_size, info.st_mtime)
    ]
    assert ResultsCache(None).entries() == []
    assert ResultsCache(str(tmp_path / "none")).entries() == []


def test_pruning_stops_at_an_exact_fit_and_counts_what_it_removed(tmp_path: Path) -> None:
    folder = tmp_path / "results"
    writer = ResultsCache(str(folder), cap=10**9)
    keys = [f"{n:02d}" + "0" * 62 for n in range(4)]
    for age, key in enumerate(keys):
        writer.put(key, Entry("python", age, 0.0, "same size"))
        os.utime(writer.path_of(key), (1_000_000 + age, 1_000_000 + age))
    size = os.path.getsize(writer.path_of(keys[0]))
    assert ResultsCache(str(folder), cap=4 * size).prune() == 0
    assert ResultsCache(str(folder), cap=4 * size - 1).prune() == 1  # the oldest
    assert sorted(path for path, _, _ in writer.entries()) == [writer.path_of(k) for k in keys[1:]]
    assert ResultsCache(str(folder), cap=size).prune() == 2
    assert [path for path, _, _ in writer.entries()] == [writer.path_of(keys[3])]  # the newest
    assert ResultsCache(str(folder), cap=0).prune() == 1
    assert writer.entries() == []


def test_a_folder_under_a_file_is_said_and_every_file_is_chunked(tmp_path: Path) -> None:
    root = tree(tmp_path / "repo", 2)
    blocker = tmp_path / "blocker"
    blocker.write_text("not a folder")
    folder = str(blocker / "results")
    cache = ResultsCache(folder, cap=10**9)
    results = answered(cache, files_in(root))
    assert [r.ok for r in results] == [True, True]
    assert (cache.hits, cache.misses, cache.written) == (0, 0, 0)
    assert cache.problem is not None
    assert cache.problem.startswith(f"results are not kept in {folder} (")
    assert "Not a directory" in cache.problem and cache.problem.endswith("); every file is chunked")
    # Written directly, the same: the first failure is said, and nothing is tried again.
    direct = ResultsCache(folder, cap=10**9)
    direct.put(KEY, Entry("python", 1, 0.0, 1))
    assert direct.written == 0 and direct.problem is not None and "Not a directory" in direct.problem
    assert direct.problem.startswith(f"results are not kept in {folder} (")
    blocker.unlink()
    direct.put(KEY, Entry("python", 1, 0.0, 1))
    assert direct.written == 0 and not os.path.exists(folder)


def test_a_folder_others_can_only_write_into_by_group_is_not_read(tmp_path: Path) -> None:
    root = tree(tmp_path / "repo", 1)
    folder = tmp_path / "results"
    folder.mkdir(mode=0o700)
    folder.chmod(0o720)
    cache = ResultsCache(str(folder), cap=10**9)
    answered(cache, files_in(root))
    assert (cache.misses, cache.written) == (0, 0)
    assert cache.problem == (
        f"results are not kept in {folder}: others can write into it (chmod go-w, or choose another "
        "CHUNK_EXPLORER_CACHE); every file is chunked"
    )
    folder.chmod(0o755)  # readable by others is fine: only writing is not
    trusted = ResultsCache(str(folder), cap=10**9)
    answered(trusted, files_in(root))
    assert (trusted.misses, trusted.written, trusted.problem) == (1, 1, None)


@pytest.mark.parametrize(
    "analyze",
    [
        partial(analyze_problems, object()),  # an argument shown by its address
        lambda *args: None,
        partial(lambda *args: None),
    ],
    ids=["address", "lambda", "partial-lambda"],
)
def test_an_analyzer_without_a_stable_name_is_not_cached(tmp_path: Path, analyze) -> None:
    cache = ResultsCache(str(tmp_path / "results"), cap=10**9)
    cache.stream(files_in(tree(tmp_path / "repo", 1)), jobs=1, analyze=analyze, keep_chunks=False, options=OPTIONS)
    assert (cache.hits, cache.misses) == (0, 0)


def test_an_analyzer_with_other_arguments_misses_and_the_same_ones_hit(tmp_path: Path) -> None:
    files = files_in(tree(tmp_path / "repo", 2))
    cache = ResultsCache(str(tmp_path / "results"), cap=10**9)
    answered(cache, files, analyze=partial(analyze_quality, baseline=True))
    answered(cache, files, analyze=partial(analyze_quality, baseline=False))
    assert (cache.hits, cache.misses) == (0, 4)
    answered(cache, files, analyze=partial(analyze_quality, baseline=True))
    assert (cache.hits, cache.misses) == (2, 4)


def test_a_batch_on_another_engine_goes_to_the_batch_as_it_is(tmp_path: Path) -> None:
    cache = ResultsCache(str(tmp_path / "results"), cap=10**9)
    cache.stream(
        files_in(tree(tmp_path / "repo", 1)),
        jobs=1,
        analyze=analyze_problems,
        keep_chunks=False,
        options=OPTIONS,
        engine="ray",
    )  # never iterated: Ray is not started
    assert (cache.hits, cache.misses) == (0, 0) and not (tmp_path / "results").exists()


def test_a_batch_answered_in_part_reports_every_file_once_in_order(tmp_path: Path) -> None:
    root = tree(tmp_path / "repo", 5)
    cache = ResultsCache(str(tmp_path / "results"), cap=10**9)
    files = files_in(root)
    answered(cache, [files[1], files[3]])
    progress: list = []
    results = answered(cache, files, progress)
    assert (cache.hits, cache.misses, cache.written) == (2, 5, 5)
    assert [(r.index, r.path) for r in results] == [(n, f"m{n}.py") for n in range(5)]
    assert [(done, total) for done, total, _, _ in progress] == [(n, 5) for n in range(1, 6)]
    assert [(index, path) for _, _, index, path in progress[:2]] == [(1, "m1.py"), (3, "m3.py")]
    assert sorted((index, path) for _, _, index, path in progress) == [(n, f"m{n}.py") for n in range(5)]
    fresh = list(chunk_batch_stream(files, jobs=1, analyze=analyze_problems, keep_chunks=False, options=OPTIONS))
    assert [(r.path, r.ok, r.language, r.bytes, r.analysis) for r in results] == [
        (r.path, r.ok, r.language, r.bytes, r.analysis) for r in fresh
    ]


def test_a_hit_keeps_its_results_shape(tmp_path: Path) -> None:
    """A hit's result says what the chunking said: no chunks kept, an error only for a
    failure the content decides."""
    root = tmp_path / "repo"
    root.mkdir()
    (root / "a.py").write_text("def a():\n    return 1\n")
    (root / "b.bin").write_bytes(b"\x00\x01\x02")
    cache = ResultsCache(str(tmp_path / "results"), cap=10**9)
    first = answered(cache, files_in(root))
    second = answered(cache, files_in(root))
    assert cache.hits == 2
    for miss, hit in zip(first, second):
        assert (hit.path, hit.ok, hit.chunks, hit.error, hit.error_kind, hit.language, hit.bytes) == (
            miss.path,
            miss.ok,
            miss.chunks,
            miss.error,
            miss.error_kind,
            miss.language,
            miss.bytes,
        )
    assert second[0].ok and second[0].chunks == [] and second[1].error_kind == "binary"
    assert second[1].chunks is None and second[1].error


def test_leaving_early_still_keeps_the_folder_to_its_cap(tmp_path: Path) -> None:
    root = tree(tmp_path / "repo", 4)
    probe = ResultsCache(str(tmp_path / "probe"), cap=10**9)
    answered(probe, files_in(root))
    biggest = max(size for _, size, _ in probe.entries())
    cache = ResultsCache(str(tmp_path / "results"), cap=biggest)
    stream = cache.stream(files_in(root), jobs=1, analyze=analyze_problems, keep_chunks=False, options=OPTIONS)
    taken = [next(stream), next(stream)]
    stream.close()
    assert [r.path for r in taken] == ["m0.py", "m1.py"]
    assert cache.written == 2 and len(cache.entries()) == 1


def hang_on_marker(parsed, chunks, options, seconds) -> int:
    """An analyzer that hangs on one file, as a runaway parser would."""
    if "HANG_HERE" in parsed.source.text:
        time.sleep(10)
    return len(chunks)


def test_the_files_it_chunks_keep_their_time_limit_and_a_time_out_is_not_kept(tmp_path: Path) -> None:
    root = tree(tmp_path / "repo", 2)
    (root / "slow.py").write_text("y = 1  # HANG_HERE\n")
    cache = ResultsCache(str(tmp_path / "results"), cap=10**9)
    for _ in range(2):
        results = answered(cache, files_in(root), analyze=hang_on_marker, timeout=0.5)
        assert [(r.path, r.error_kind) for r in results] == [("m0.py", None), ("m1.py", None), ("slow.py", "timeout")]
        assert "0.5 s" in str(results[2].error)
    assert (cache.hits, cache.misses, cache.written) == (2, 4, 2)  # the time-out is tried again


def word_tokenizer(path: Path, words: list[str]) -> str:
    from tokenizers import Tokenizer, models, pre_tokenizers

    vocab = {"[UNK]": 0, **{word: n + 1 for n, word in enumerate(words)}}
    tokenizer = Tokenizer(models.WordLevel(vocab, unk_token="[UNK]"))
    tokenizer.pre_tokenizer = pre_tokenizers.Whitespace()
    tokenizer.save(str(path))
    return str(path)


def test_another_tokenizer_file_at_the_same_path_misses(tmp_path: Path) -> None:
    files = files_in(tree(tmp_path / "repo", 2))
    spec = word_tokenizer(tmp_path / "tokenizer.json", ["def", "return"])
    os.utime(spec, ns=(1_000_000_000, 1_000_000_000))
    options = ChunkOptions(max_size=60, size_unit="tokens", tokenizer=spec)
    cache = ResultsCache(str(tmp_path / "results"), cap=10**9)
    stream = partial(cache.stream, jobs=1, analyze=analyze_problems, keep_chunks=False, options=options)
    assert all(r.ok for r in stream(files))
    assert all(r.ok for r in stream(files))
    assert (cache.hits, cache.misses) == (2, 2)
    word_tokenizer(tmp_path / "tokenizer.json", ["def", "return", "x"])  # another model's file, same name
    os.utime(spec, ns=(2_000_000_000, 2_000_000_000))
    list(stream(files))
    assert (cache.hits, cache.misses) == (2, 4)
    list(stream(files))
    assert (cache.hits, cache.misses) == (4, 4)


def test_leaving_a_pooled_batch_early_stops_its_workers(tmp_path: Path) -> None:
    import multiprocessing

    root = tree(tmp_path / "repo", 40)
    cache = ResultsCache(str(tmp_path / "results"), cap=10**9)
    stream = cache.stream(files_in(root), jobs=2, analyze=analyze_problems, keep_chunks=False, options=OPTIONS)
    assert next(stream).path == "m0.py"
    assert multiprocessing.active_children()  # the pool runs
    stream.close()
    assert multiprocessing.active_children() == []


def chunk_count(parsed, chunks, options, seconds, *, scale: int = 1) -> int:
    return len(chunks) * scale


def line_count(parsed, chunks, options, seconds, *, scale: int = 1) -> int:
    return parsed.source.text.count("\n") * scale + 1000


def renamed_problems(parsed, chunks, options, seconds):
    return ("another module's", analyze_problems(parsed, chunks, options, seconds))


# An analyzer of another module that happens to carry the same name (as two packages'
# ``analyze`` functions would): its results are not the other's.
renamed_problems.__qualname__ = renamed_problems.__name__ = "analyze_problems"


def test_analyzers_with_the_same_arguments_are_told_apart_by_function_and_module(tmp_path: Path) -> None:
    files = files_in(tree(tmp_path / "repo", 2))
    cache = ResultsCache(str(tmp_path / "results"), cap=10**9)
    chunks = [r.analysis for r in answered(cache, files, analyze=partial(chunk_count, scale=2))]
    lines = [r.analysis for r in answered(cache, files, analyze=partial(line_count, scale=2))]
    assert (cache.hits, cache.misses) == (0, 4)
    assert chunks == [2, 2] and lines == [1004, 1004]
    answered(cache, files, analyze=analyze_problems)
    renamed = answered(cache, files, analyze=renamed_problems)
    assert (cache.hits, cache.misses) == (0, 8)
    assert [r.analysis[0] for r in renamed] == ["another module's"] * 2


def test_a_tokenizer_file_named_in_the_analyzers_arguments_is_part_of_the_key(tmp_path: Path) -> None:
    """A sweep's or an evaluation's tokenizer comes in the analyzer's arguments, not in the
    batch's options: another file at that path misses too."""
    files = files_in(tree(tmp_path / "repo", 2))
    spec = word_tokenizer(tmp_path / "tokenizer.json", ["def"])
    os.utime(spec, ns=(1_000_000_000, 1_000_000_000))
    cache = ResultsCache(str(tmp_path / "results"), cap=10**9)
    analyze = partial(tokenized_count, settings=[(60, spec)])
    answered(cache, files, analyze=analyze)
    answered(cache, files, analyze=analyze)
    assert (cache.hits, cache.misses) == (2, 2)
    word_tokenizer(tmp_path / "tokenizer.json", ["def", "return"])
    os.utime(spec, ns=(2_000_000_000, 2_000_000_000))
    answered(cache, files, analyze=analyze)
    assert (cache.hits, cache.misses) == (2, 4)


def tokenized_count(parsed, chunks, options, seconds, *, settings) -> int:
    return len(chunks) + len(settings)


def pid_of(parsed, chunks, options, seconds) -> int:
    return os.getpid()


def test_one_job_runs_every_file_in_this_process(tmp_path: Path) -> None:
    files = files_in(tree(tmp_path / "repo", 4))
    cache = ResultsCache(str(tmp_path / "results"), cap=10**9)
    assert [r.analysis for r in answered(cache, files, analyze=pid_of)] == [os.getpid()] * 4  # missed
    kept = cache.stream(files, jobs=1, analyze=pid_of, keep_chunks=True, options=OPTIONS)  # not cached
    assert [r.analysis for r in kept] == [os.getpid()] * 4


def test_a_bad_time_limit_fails_before_any_work(tmp_path: Path) -> None:
    cache = ResultsCache(str(tmp_path / "results"), cap=10**9)
    with pytest.raises(ValueError, match="timeout must be a positive number of seconds, not 0"):
        cache.stream(
            files_in(tree(tmp_path / "repo", 1)), jobs=1, analyze=analyze_problems, keep_chunks=False, timeout=0
        )
