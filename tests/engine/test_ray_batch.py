"""The Ray engine, run for real on a local Ray (one start for the module, 2 CPUs): the same
results in the same order as the local pool, failures isolated per file, Ray Data rows."""

from __future__ import annotations

import json
import os

import pytest

ray = pytest.importorskip("ray", reason="the Ray engine needs the [ray] extra")

from test_batch import GO, PY, TS, make_files  # noqa: E402

import explorer  # noqa: E402
from explorer.cli.main import main  # noqa: E402
from explorer.engine.batch import CRASH, READ, TIMEOUT, BatchFile, chunk_batch  # noqa: E402


@pytest.fixture(scope="module", autouse=True)
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="ERROR")
    yield
    ray.shutdown()


@pytest.fixture
def tree(tmp_path):
    """Many small files of three languages (several tasks), plus files that fail."""
    paths = make_files(tmp_path, 40)
    (tmp_path / "image.py").write_bytes(b"\x89PNG\r\n\x00\x00data")
    (tmp_path / "latin1.py").write_bytes("x = 'café'\n".encode("latin-1"))
    return tmp_path, paths + [str(tmp_path / "image.py"), str(tmp_path / "latin1.py"), str(tmp_path / "gone.py")]


def test_same_results_in_the_same_order_as_the_local_pool(tree) -> None:
    _, paths = tree
    progress = []
    local = chunk_batch(paths, jobs=2, max_size=120)
    remote = chunk_batch(paths, engine="ray", max_size=120,
                         on_progress=lambda done, total, result: progress.append(done))
    assert [r.path for r in remote] == paths
    assert [r.to_dict() for r in remote] == [r.to_dict() for r in local]
    assert [r.error_kind for r in remote][-3:] == ["binary", "undecodable", READ]
    assert progress == list(range(1, len(paths) + 1))
    shared = chunk_batch(paths, engine="ray", max_size=120, shared_storage=True)  # workers read the paths
    assert [r.to_dict() for r in shared] == [r.to_dict() for r in local]


@pytest.mark.parametrize("fmt", ["jsonl", "json"])
def test_cli_output_is_byte_identical_to_the_local_run(tree, tmp_path_factory, fmt) -> None:
    root, _ = tree
    out_dir = tmp_path_factory.mktemp("out")
    outputs = {}
    for engine in ("local", "ray"):
        target = out_dir / f"{engine}.{fmt}"
        code = main(["chunk", str(root), "--format", fmt, "-o", str(target), "--engine", engine, "-q"])
        assert code == 0
        outputs[engine] = target.read_bytes()
    if fmt == "json":  # the summary's wall time differs; everything else must not
        docs = [json.loads(outputs[e]) for e in ("local", "ray")]
        for doc in docs:
            doc["summary"].pop("seconds")
        assert docs[0] == docs[1]
        outputs = {e: outputs[e].split(b'"summary"')[0] for e in outputs}
    assert outputs["ray"] == outputs["local"]


def test_a_crashing_file_fails_alone_and_its_task_mates_come_out() -> None:
    def crash_on_marker(parsed, chunks, options, seconds):
        if "CRASH_HERE" in parsed.source.text:
            os._exit(3)
        return len(chunks)

    files = [(f"m{i}.py", PY + f"# {i}\n") for i in range(8)]
    files.insert(4, ("bad.py", "x = 1  # CRASH_HERE\n"))
    results = chunk_batch(files, engine="ray", jobs=2, analyze=crash_on_marker)
    assert [r.path for r in results] == [name for name, _ in files]
    assert [r.error_kind for r in results] == [None] * 4 + [CRASH] + [None] * 4
    assert "worker process died" in results[4].error
    assert all(r.analysis == len(r.chunks) for r in results if r.ok)


def test_a_hanging_file_times_out_alone() -> None:
    def hang_on_marker(parsed, chunks, options, seconds):
        import time

        if "HANG_HERE" in parsed.source.text:
            time.sleep(120)
        return len(chunks)

    files = [("a.ts", TS), ("slow.go", GO + "// HANG_HERE\n"), ("b.py", PY)]
    results = chunk_batch(files, engine="ray", jobs=2, analyze=hang_on_marker, timeout=1)
    assert [r.error_kind for r in results] == [None, TIMEOUT, None]
    assert "gave up after 1 s" in results[1].error


def test_ray_data_rows_are_the_jsonl_records(tree) -> None:
    pytest.importorskip("ray.data", reason="the Ray Data entry point needs ray[data] (pandas, pyarrow)")
    from explorer.engine.batch.ray import chunk_dataset

    sources = {"a.py": PY * 3, "b.ts": TS, "c.go": GO, "blob.py": "x\x00y"}
    # contents as bytes, as read from storage (binary.py has a NUL byte: no rows, nothing else lost)
    dataset = ray.data.from_items([{"path": p, "content": c.encode()} for p, c in sources.items()])
    rows = chunk_dataset(dataset, max_size=80).take_all()
    expected = []
    for path in ("a.py", "b.ts", "c.go"):  # blob.py is binary: no rows
        language = explorer.detect_language(path)
        expected += [{"path": path, "language": language, **chunk.to_dict()}
                     for chunk in explorer.chunk(path, sources[path], max_size=80)]
    key = lambda row: (row["path"], row["index"])  # noqa: E731 - Ray Data keeps no order across blocks
    assert sorted((dict(row) for row in rows), key=key) == sorted(expected, key=key)


def test_batch_file_objects_and_code_inputs_run_on_ray() -> None:
    files = [BatchFile(code=PY, name="x.py", options={"max_size": 40}), ("y.ts", TS)]
    local = chunk_batch(files, jobs=1)
    remote = chunk_batch(files, engine="ray")
    assert [r.to_dict() for r in remote] == [r.to_dict() for r in local]
    assert len(remote[0].chunks) > 1


def test_a_hang_the_worker_timer_cannot_stop_is_cut_by_the_driver(monkeypatch) -> None:
    """A hang in native code ignores the worker's timer signal: the driver cancels the task
    at its deadline and runs its files one by one, so the other files still come out."""
    from explorer.engine.batch import ray as ray_batch

    def hang_deaf_to_signals(parsed, chunks, options, seconds):
        import signal
        import time

        if "HANG_HERE" in parsed.source.text:
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})  # as a parser stuck in C would be
            time.sleep(120)
        return len(chunks)

    monkeypatch.setattr(ray_batch, "DEADLINE_MARGIN", 2.0)
    files = [("a.py", PY), ("stuck.py", PY + "# HANG_HERE\n"), ("b.ts", TS)]
    results = chunk_batch(files, engine="ray", jobs=1, analyze=hang_deaf_to_signals, timeout=1)
    assert [r.error_kind for r in results] == [None, TIMEOUT, None]
    assert all(r.analysis == len(r.chunks) for r in results if r.ok)
