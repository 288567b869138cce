"""The batch API: ordered results, per-file errors, real worker processes."""

from __future__ import annotations

import os

import pytest

import explorer
from explorer.engine.batch import (
    BINARY,
    CRASH,
    ERROR,
    OPTIONS,
    READ,
    TASK_BYTES,
    TASK_FILES,
    TIMEOUT,
    UNDECODABLE,
    BatchFile,
    chunk_batch,
    chunk_batch_stream,
    tasks_of,
)
from explorer.engine.measure.analyzers import analyze_metrics

PY = "import os\n\n\ndef f(x):\n    return x + 1\n\n\nclass A:\n    def m(self):\n        return [1, 2, 3]\n"
TS = "export function g(a: number): number {\n  return a * 2;\n}\n\nconst k = 1;\n"
GO = "package main\n\nfunc main() {\n\tprintln(1)\n}\n"


def make_files(tmp_path, count: int = 12) -> list[str]:
    paths = []
    for i in range(count):
        ext, body = [("py", PY), ("ts", TS), ("go", GO)][i % 3]
        path = tmp_path / f"f{i:02d}.{ext}"
        # make sizes differ so workers finish out of order
        path.write_text(body * (1 + (count - i) * 3) + f"\n// uniqueValue{i}\n" if ext != "py"
                        else body * (1 + (count - i) * 3) + f"\n# uniqueValue{i}\n")
        paths.append(str(path))
    return paths


def test_results_in_input_order_progress_in_completion_order(tmp_path) -> None:
    paths = make_files(tmp_path)
    progress = []
    results = chunk_batch(paths, jobs=2, max_size=200,
                          on_progress=lambda done, total, r: progress.append((done, total, r.path)))
    assert [r.path for r in results] == paths
    assert [r.index for r in results] == list(range(len(paths)))
    assert [p[0] for p in progress] == list(range(1, len(paths) + 1))
    assert {p[1] for p in progress} == {len(paths)}
    assert sorted(p[2] for p in progress) == sorted(paths)
    for i, r in enumerate(results):
        assert r.ok and r.error is None and r.chunks
        assert f"uniqueValue{i}" in r.chunks[-1].text  # no cross-talk between files
        assert r.language == ["python", "typescript", "go"][i % 3]


def test_same_chunks_as_chunk_in_process_and_in_workers(tmp_path) -> None:
    paths = make_files(tmp_path, 6)
    serial = chunk_batch(paths, jobs=1, max_size=150, overlap_lines=1)
    parallel = chunk_batch(paths, jobs=2, max_size=150, overlap_lines=1)
    assert [r.to_dict() for r in serial] == [r.to_dict() for r in parallel]
    for path, result in zip(paths, serial):
        with open(path, "rb") as handle:
            expected = explorer.chunk(path, handle.read(), max_size=150, overlap_lines=1)
        assert result.chunks == expected


@pytest.mark.parametrize("jobs", [1, 2])
def test_per_file_errors_never_stop_the_batch(tmp_path, jobs) -> None:
    good = tmp_path / "good.py"
    good.write_text(PY)
    binary = tmp_path / "image.py"
    binary.write_bytes(b"\x89PNG\r\n\x00\x00data")
    latin1 = tmp_path / "latin1.py"
    latin1.write_bytes("x = 'café'\n".encode("latin-1"))
    missing = tmp_path / "deleted.py"
    files = [str(good), str(binary), str(latin1), str(missing),
             BatchFile(code=PY, name="bad_opts.py", options={"max_size": -5}),
             ("inline.ts", TS), ("empty.py", "")]
    results = chunk_batch(files, jobs=jobs)
    kinds = [r.error_kind for r in results]
    assert kinds == [None, BINARY, UNDECODABLE, READ, OPTIONS, None, None]
    assert results[1].not_text and results[2].not_text and not results[3].not_text
    assert "NUL" in results[1].error and "UTF-8" in results[2].error
    assert "deleted.py" in results[3].error and "not found" in results[3].error
    assert "max_size" in results[4].error
    assert all(r.chunks is None for r in results if not r.ok)
    assert results[5].path == "inline.ts" and results[5].language == "typescript"
    assert results[6].chunks == []  # an empty file has no chunks and no error
    assert results[0].to_dict()["chunks"] and results[1].to_dict()["error"]["kind"] == BINARY


def test_per_file_options_override_batch_options() -> None:
    source = PY * 5
    small, large = chunk_batch([("a.py", source, {"max_size": 40}), ("a.py", source)], jobs=1, max_size=2000)
    assert len(small.chunks) > len(large.chunks) == 1


def test_invalid_batch_options_raise_at_once() -> None:
    with pytest.raises(ValueError, match="max_size"):
        chunk_batch_stream([], max_size=0)
    with pytest.raises(ValueError, match="unknown option"):
        chunk_batch([], maxsize=10)
    with pytest.raises(ValueError, match="jobs"):
        chunk_batch([], jobs=0)


def test_empty_input() -> None:
    assert explorer.chunk_batch([], jobs=2) == []  # the public API
    assert list(chunk_batch_stream(iter([]), jobs=2)) == []


def test_stream_accepts_generators_and_stops_early(tmp_path) -> None:
    paths = make_files(tmp_path, 9)
    seen = []
    stream = chunk_batch_stream((p for p in paths), jobs=2,
                                on_progress=lambda done, total, r: seen.append(total))
    first = [next(stream) for _ in range(3)]
    stream.close()  # cancels the rest
    assert [r.path for r in first] == paths[:3]
    assert set(seen) == {None}  # unsized input: total unknown


def crash_on_marker(parsed, chunks, options, seconds):
    """An analyzer that kills its worker process on one file (as a crashing parser would)."""
    if "CRASH_HERE" in parsed.source.text:
        os._exit(3)
    return len(chunks)


def test_a_worker_that_dies_fails_only_its_file(tmp_path) -> None:
    paths = make_files(tmp_path, 6)
    bad = tmp_path / "bad.py"
    bad.write_text("x = 1  # CRASH_HERE\n")
    paths.insert(2, str(bad))
    results = chunk_batch(paths, jobs=2, analyze=crash_on_marker)
    assert [r.path for r in results] == paths
    assert [r.error_kind for r in results] == [None, None, CRASH, None, None, None, None]
    assert "worker process died" in results[2].error
    assert all(r.analysis == len(r.chunks) for r in results if r.ok)


def test_analysis_runs_in_the_worker_without_shipping_chunks(tmp_path) -> None:
    paths = make_files(tmp_path, 4)
    results = chunk_batch(paths, jobs=2, analyze=analyze_metrics, keep_chunks=False, max_size=100)
    for r in results:
        assert r.ok and r.chunks == []
        assert r.analysis.chunks > 1 and r.analysis.exact
        assert set(r.analysis.seconds) == {"parse", "chunk"}


def raise_in_analysis(parsed, chunks, options, seconds):
    raise RuntimeError("analysis bug")


def test_an_exception_in_a_file_is_an_error_result() -> None:
    (result,) = chunk_batch([("a.py", PY)], jobs=1, analyze=raise_in_analysis)
    assert result.error_kind == ERROR and "RuntimeError: analysis bug" in result.error


def test_forkserver_workers_work(tmp_path, monkeypatch) -> None:
    """The explorer calls the batch from a thread, where fork is unsafe: forkserver is used."""
    import multiprocessing

    if "forkserver" not in multiprocessing.get_all_start_methods():
        pytest.skip("no forkserver on this platform")
    from explorer.engine.batch import local as batch_pool

    monkeypatch.setattr(batch_pool.threading, "active_count", lambda: 2)
    assert batch_pool._pool_context().get_start_method() == "forkserver"
    paths = make_files(tmp_path, 4)
    results = chunk_batch(paths, jobs=2)
    assert [r.path for r in results] == paths and all(r.ok for r in results)


def test_a_pool_found_broken_at_submit_time_is_recovered(tmp_path, monkeypatch) -> None:
    """A worker can die between two waits; the next submit then fails at once."""
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    from explorer.engine.batch import local as batch_pool

    made = []

    class BreaksOnThirdSubmit(ProcessPoolExecutor):
        submits = 0

        def submit(self, *args, **kwargs):
            type(self).submits += 1
            if len(made) == 1 and type(self).submits == 3:
                raise BrokenProcessPool("a worker died")
            return super().submit(*args, **kwargs)

    def factory(*args, **kwargs):
        made.append(1)
        return BreaksOnThirdSubmit(*args, **kwargs)

    monkeypatch.setattr(batch_pool, "ProcessPoolExecutor", factory)
    paths = make_files(tmp_path, 8)
    results = chunk_batch(paths, jobs=2)
    assert len(made) >= 2  # a fresh pool replaced the broken one
    assert [r.path for r in results] == paths
    assert all(r.ok for r in results)


# -- tasks of several files, time-outs, the safe reader, a clean exit ---------------------
def sleep_on_marker(parsed, chunks, options, seconds):
    """An analyzer that hangs on one file (as a runaway parser would)."""
    import time

    if "HANG_HERE" in parsed.source.text:
        time.sleep(60)
    return len(chunks)


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_file_over_its_time_limit_fails_alone(tmp_path, jobs) -> None:
    import time

    files = [(f"f{i}.py", f"x{i} = {i}\n") for i in range(6)]
    files.insert(3, ("slow.py", "y = 1  # HANG_HERE\n"))
    started = time.perf_counter()
    results = chunk_batch(files, jobs=jobs, analyze=sleep_on_marker, timeout=0.5)
    assert time.perf_counter() - started < 30
    assert [r.path for r in results] == [name for name, _ in files]
    assert [r.error_kind for r in results] == [None, None, None, TIMEOUT, None, None, None]
    assert "0.5 s" in results[3].error
    assert all(r.analysis == 1 for r in results if r.ok)  # its task-mates all came out


def test_small_files_travel_in_tasks_and_large_ones_alone() -> None:
    small = [BatchFile(path=f"s{i}.py", size=100) for i in range(100)]
    tasks = list(tasks_of(iter(small), None, jobs=2))
    assert [len(t) for t in tasks] == [TASK_FILES] * 3 + [100 - 3 * TASK_FILES]
    assert [i for t in tasks for i, _ in t] == list(range(100))  # consecutive, in order
    mixed = [BatchFile(path="a", size=10), BatchFile(path="big", size=TASK_BYTES + 1), BatchFile(path="b", size=10)]
    assert [[job.path for _, job in t] for t in tasks_of(iter(mixed), None, jobs=2)] == [["a"], ["big"], ["b"]]
    # a batch of 12 on 2 workers is cut so that both get work
    assert max(len(t) for t in tasks_of(iter(small[:12]), 12, jobs=2)) <= 2


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes")
@pytest.mark.parametrize("jobs", [1, 2])
def test_a_named_pipe_is_refused_not_waited_on(tmp_path, jobs) -> None:
    good = tmp_path / "good.py"
    good.write_text(PY)
    pipe = tmp_path / "pipe.py"
    os.mkfifo(pipe)
    results = chunk_batch([str(pipe), str(good)], jobs=jobs, timeout=20)
    assert results[0].error_kind == READ and "not a regular file" in results[0].error
    assert results[1].ok


def test_a_file_larger_than_max_bytes_is_a_read_error(tmp_path) -> None:
    big = tmp_path / "big.py"
    big.write_text("x = 1\n" * 100)
    (result,) = chunk_batch([str(big)], jobs=1, max_bytes=100)
    assert result.error_kind == READ and "too large" in result.error


SCRIPT_WITHOUT_MAIN_GUARD = """
import sys
import explorer

paths = sys.argv[1:]
print(len(explorer.chunk_batch(paths, jobs=2)))
stream = explorer.chunk_batch_stream(paths, jobs=2)
print(next(stream).path)  # left open: the interpreter's exit closes it and shuts the pool down
"""


def test_a_script_without_main_guard_exits_cleanly(tmp_path) -> None:
    import subprocess
    import sys

    paths = make_files(tmp_path, 10)
    script = tmp_path / "script.py"
    script.write_text(SCRIPT_WITHOUT_MAIN_GUARD)
    env = dict(os.environ)  # the package the tests import (tests/conftest.py)
    done = subprocess.run([sys.executable, str(script), *paths], capture_output=True, text=True, timeout=120,
                          env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["10", paths[0]]
    assert done.stderr == ""  # no "Exception ignored ... Bad file descriptor"


def test_engine_and_timeout_are_checked_at_once() -> None:
    with pytest.raises(ValueError, match="engine"):
        chunk_batch([], engine="dask")
    with pytest.raises(ValueError, match="timeout"):
        chunk_batch([], timeout=0)


def test_nothing_of_ray_is_imported_unless_used(tmp_path) -> None:
    import subprocess
    import sys

    paths = make_files(tmp_path, 4)
    code = (
        "import sys, explorer, explorer.cli.main, explorer.engine.batch.ray\n"
        "from explorer.engine.batch import chunk_batch\n"
        f"assert all(r.ok for r in chunk_batch({paths!r}, jobs=2))\n"
        "print(sorted(m for m in sys.modules if m == 'ray' or m.startswith('ray.')))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env=dict(os.environ))
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_the_jobs_variable_caps_the_default(monkeypatch):
    from explorer.engine.batch import JOBS_VARIABLE, default_jobs

    monkeypatch.delenv(JOBS_VARIABLE, raising=False)
    cores = default_jobs()
    monkeypatch.setenv(JOBS_VARIABLE, "1")
    assert default_jobs() == 1
    monkeypatch.setenv(JOBS_VARIABLE, str(cores + 5))
    assert default_jobs() == cores  # a cap, never more than the cores
    for ignored in ("0", "-2", "many", ""):
        monkeypatch.setenv(JOBS_VARIABLE, ignored)
        assert default_jobs() == cores
