"""``chunk --state --engine ray`` on a real local Ray (one start for the module, 2 CPUs)
against the local runner on a copy of a real package: the same upserts and deletes, byte
for byte and in the same order, the same summary, and state files either engine goes on from."""

from __future__ import annotations

import email
import re
import shutil
from pathlib import Path

import pytest

ray = pytest.importorskip("ray", reason="the Ray engine needs the [ray] extra")

from explorer.cli import report  # noqa: E402
from explorer.workspace import incremental  # noqa: E402

PACKAGE = Path(email.__file__).parent  # a real package of the standard library
FLAGS = {"local": ["-j", "2"], "ray": ["--engine", "ray"]}


@pytest.fixture(scope="module", autouse=True)
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="ERROR")
    yield
    ray.shutdown()


def test_state_runs_on_ray_write_what_the_local_runner_writes(cli, tmp_path, monkeypatch) -> None:
    # Every status is trusted at once (no racy window), so the two engines' state files,
    # written seconds apart, can be compared byte for byte.
    monkeypatch.setattr(incremental, "RACY_NS", 0)
    # Progress lines come by the clock (Ray's start-up alone can pass the interval): none here,
    # so the rest of what the two engines print can be compared.
    monkeypatch.setattr(report, "PROGRESS_LINE_SECONDS", float("inf"))
    tree = tmp_path / "email"
    shutil.copytree(PACKAGE, tree, ignore=shutil.ignore_patterns("__pycache__"))
    states = {engine: tmp_path / f"{engine}.state.json" for engine in FLAGS}

    def both() -> str:
        runs = {engine: cli("chunk", tree, "--state", states[engine], *FLAGS[engine]) for engine in FLAGS}
        for engine, run in runs.items():
            assert run.code == 0, (engine, run.err)
        assert runs["ray"].out == runs["local"].out  # the same records, in the same order
        summaries = [re.sub(r" in \d+\.\d+s$", " in Ns", runs[e].err.replace(str(states[e]), "STATE"), flags=re.M)
                     for e in FLAGS]
        assert summaries[0] == summaries[1]
        assert states["ray"].read_bytes() == states["local"].read_bytes()
        return runs["local"].out

    full = both()
    assert full.count('"op": "upsert"') == len(full.splitlines()) > 100
    assert both() == ""  # nothing changed
    names = sorted(p.name for p in tree.glob("*.py"))
    with open(tree / names[1], "a") as handle:
        handle.write("\n\ndef added_by_the_test():\n    return 42\n")
    (tree / names[2]).rename(tree / "renamed_module.py")
    (tree / names[3]).unlink()
    changed = both()
    assert '"op": "upsert"' in changed and '"op": "delete"' in changed
    assert {names[1], "renamed_module.py", names[2], names[3]} <= set(re.findall(r'"path": "([^"]+)"', changed))
    # either engine goes on from the other's state: nothing is emitted again
    for engine, other in (("local", "ray"), ("ray", "local")):
        run = cli("chunk", tree, "--state", states[other], *FLAGS[engine])
        assert run.code == 0 and run.out == "", run.err
