"""The CLI's process killed alone (SIGKILL, SIGTERM) in the middle of its output, at -j 2:
its workers end with it, no temporary file stays, and the next run starts at once."""

from __future__ import annotations

import email
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = Path(email.__file__).parent  # real code of the standard library
#: How long a killed run's workers may take to go (a wait for a condition, not a timing).
GONE_WITHIN = 30.0

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")


def make_tree(target: Path) -> Path:
    for copy in ("a", "b", "c"):  # enough work that the run is still going when killed
        shutil.copytree(PACKAGE, target / copy, ignore=shutil.ignore_patterns("__pycache__"))
    return target


def stat_of(pid: int) -> tuple[int, str, int] | None:
    """(parent pid, state, start time) of a process, or None when it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2:].split()
    return int(fields[1]), fields[0], int(fields[19])


def descendants(pid: int) -> dict[int, int]:
    """Every process under ``pid`` (pid -> start time, so a reused pid is not mistaken)."""
    found: dict[int, int] = {}
    frontier = [pid]
    while frontier:
        parent = frontier.pop()
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                info = stat_of(int(entry))
                if info is not None and info[0] == parent and int(entry) not in found:
                    found[int(entry)] = info[2]
                    frontier.append(int(entry))
    return found


def alive(processes: dict[int, int]) -> list[int]:
    out = []
    for pid, started in processes.items():
        info = stat_of(pid)
        if info is not None and info[2] == started and info[1] != "Z":
            out.append(pid)
    return out


def wait_until(condition, what: str) -> None:
    deadline = time.monotonic() + GONE_WITHIN
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def writing_its_output(pid: int, directory: Path) -> bool:
    """The process has a file open in ``directory`` that is not (yet) the output:
    the unnamed or temporary file an atomic write fills."""
    try:
        links = [os.readlink(f"/proc/{pid}/fd/{fd}") for fd in os.listdir(f"/proc/{pid}/fd")]
    except OSError:
        return False
    return any(link.startswith(str(directory)) and ("(deleted)" in link or link.endswith(".tmp"))
               for link in links)


def temporary_files(where: Path) -> list[str]:
    return sorted(str(p) for p in where.rglob("*") if p.name.endswith(".tmp"))


@pytest.mark.parametrize("signum", [signal.SIGKILL, signal.SIGTERM], ids=["SIGKILL", "SIGTERM"])
@pytest.mark.parametrize("to", ["stdout", "file"])
def test_killed_cli_leaves_no_worker_no_temporary_file_and_no_lock(cli, tmp_path, signum, to) -> None:
    tree = make_tree(tmp_path / "tree")
    state = tmp_path / "state.json"
    out_file = tmp_path / "out.jsonl"
    command = [sys.executable, "-m", "explorer", "chunk", str(tree), "--state", str(state), "-j", "2", "-q"]
    if to == "file":
        command += ["-o", str(out_file)]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    err_file = tmp_path / "stderr.txt"  # a file: reading a pipe a stray worker holds would never end
    with open(err_file, "wb") as err_handle:
        proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=err_handle, env=env)
    assert proc.stdout is not None
    if to == "stdout":
        first = proc.stdout.readline()  # mid-output: the rest waits on a pipe nobody reads
        assert json.loads(first)["op"] == "upsert"
    else:
        wait_until(lambda: writing_its_output(proc.pid, tmp_path) or proc.poll() is not None, "no output begun")
    wait_until(lambda: len(descendants(proc.pid)) >= 2 or proc.poll() is not None, "no workers started")
    workers = descendants(proc.pid)
    assert proc.poll() is None and len(workers) >= 2  # killed while working, with its pool
    proc.send_signal(signum)
    code = proc.wait(timeout=GONE_WITHIN)
    proc.stdout.close()
    err = err_file.read_text()
    if signum == signal.SIGTERM:
        assert code == 143 and "terminated" in err
    else:
        assert code == -signal.SIGKILL
    wait_until(lambda: not alive(workers), f"workers outlived the killed run: {alive(workers)}")
    assert temporary_files(tmp_path) == []
    assert not out_file.exists()  # the output appears only when complete
    run = cli("chunk", tree, "--state", state, "-j", "2", "-q")  # at once: no lock left behind
    assert run.code == 0, run.err
    assert len(run.out.splitlines()) == len(cli("chunk", tree, "--format", "jsonl", "-q").out.splitlines())
    assert temporary_files(tmp_path) == []


def start_export(tree) -> subprocess.Popen[bytes]:
    """A plain JSONL export at -j 2, once it has written a line and started its workers."""
    command = [sys.executable, "-m", "explorer", "chunk", str(tree), "--format", "jsonl", "-j", "2", "-q"]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.stdout is not None
    assert proc.stdout.readline()
    wait_until(lambda: len(descendants(proc.pid)) >= 2 or proc.poll() is not None, "no workers started")
    return proc


@pytest.mark.parametrize("signum", [signal.SIGKILL, signal.SIGTERM], ids=["SIGKILL", "SIGTERM"])
def test_killed_plain_export_leaves_no_worker(tmp_path, signum) -> None:
    proc = start_export(make_tree(tmp_path / "tree"))
    workers = descendants(proc.pid)
    assert proc.poll() is None and len(workers) >= 2
    proc.send_signal(signum)
    proc.wait(timeout=GONE_WITHIN)
    wait_until(lambda: not alive(workers), f"workers outlived the killed export: {alive(workers)}")
    assert proc.stdout is not None
    proc.stdout.close()


def test_workers_do_not_hold_the_output_pipe(tmp_path) -> None:
    """A reader sees the end of the output when the CLI ends, not when its workers do."""
    proc = start_export(make_tree(tmp_path / "tree"))
    pipe = os.readlink(f"/proc/{proc.pid}/fd/1")
    held = [pid for pid in descendants(proc.pid) if os.readlink(f"/proc/{pid}/fd/1") == pipe]
    proc.kill()
    proc.wait()
    proc.stdout.close()
    assert pipe.startswith("pipe:") and held == []


def test_sigterm_on_a_ray_state_run_keeps_the_state_and_leaves_no_ray_process(cli, tmp_path) -> None:
    """Ray's start replaces the process's SIGTERM handler (it exited at once, status 15, with
    a stack dump); the run must end as a local one does, Ray's processes with it."""
    pytest.importorskip("ray", reason="the Ray engine needs the [ray] extra")
    tree = make_tree(tmp_path / "tree")
    state = tmp_path / "state.json"
    assert cli("chunk", tree, "--state", state, "--max-size", "900", "-j", "2", "-q").code == 0
    before = state.read_bytes()  # other settings: the Ray run chunks every file again
    command = [sys.executable, "-m", "explorer", "chunk", str(tree), "--state", str(state), "--engine", "ray", "-q"]
    err_file = tmp_path / "stderr.txt"
    with open(err_file, "wb") as err_handle:
        proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=err_handle,
                                env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.stdout is not None
    assert json.loads(proc.stdout.readline())["op"] == "upsert"  # the rest waits on a pipe nobody reads
    ray_processes = descendants(proc.pid)  # the local Ray it started: raylet, its workers...
    assert proc.poll() is None and len(ray_processes) >= 3
    proc.send_signal(signal.SIGTERM)
    code = proc.wait(timeout=GONE_WITHIN)
    proc.stdout.close()
    err = err_file.read_text()
    assert code == 143 and "terminated" in err and "SIGTERM received" not in err, err
    wait_until(lambda: not alive(ray_processes), f"Ray processes outlived the run: {alive(ray_processes)}")
    assert state.read_bytes() == before
    assert temporary_files(tmp_path) == []
    run = cli("chunk", tree, "--state", state, "-j", "2", "-q")  # at once: no lock left behind
    assert run.code == 0 and run.out.startswith('{"op": "upsert"'), run.err
