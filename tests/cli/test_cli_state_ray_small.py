"""``chunk --state --engine ray`` when only a few files changed: Ray takes seconds to start
or join, more than a commit's handful of files take to chunk, so those run in the command's
own process, into the records Ray would give; a run with many files still goes to Ray."""

from __future__ import annotations

import email
import json
import shutil
from pathlib import Path

import pytest

pytest.importorskip("ray", reason="the Ray engine needs the [ray] extra")

from explorer.engine.batch import POOL_THRESHOLD
from explorer.engine.batch import ray as ray_runner
from explorer.workspace import incremental

PACKAGE = Path(email.__file__).parent  # a real package of the standard library


class RayWasStarted(Exception):
    pass


@pytest.fixture
def ray_calls(monkeypatch) -> list[int]:
    """Every batch handed to Ray, by its number of files; Ray itself is never started."""
    calls: list[int] = []

    def refuse(inputs, total, *args, **kwargs):
        calls.append(total)
        raise RayWasStarted(total)

    monkeypatch.setattr(ray_runner, "run_ray", refuse)
    monkeypatch.setattr(ray_runner, "cluster_cpus", lambda address=None: 2)
    return calls


def copy_tree(target: Path, files: int) -> Path:
    target.mkdir()
    for source in sorted(PACKAGE.glob("*.py"))[:files]:
        shutil.copy(source, target / source.name)
    return target


def held(state: Path) -> dict:
    """What a state says each file holds (its stat and root differ between two copies)."""
    files = json.loads(state.read_text())["files"]
    return {rel: {key: value for key, value in entry.items() if key != "stat"} for rel, entry in files.items()}


def edit(tree: Path, count: int) -> None:
    for path in sorted(tree.glob("*.py"))[:count]:
        with open(path, "a") as handle:
            handle.write(f"\n\ndef added_to_{path.stem}():\n    return 1\n")


@pytest.mark.parametrize("changed", [1, POOL_THRESHOLD - 1])
def test_a_few_changed_files_are_chunked_here_into_the_same_records(cli, tmp_path, monkeypatch, ray_calls,
                                                                    changed) -> None:
    monkeypatch.setattr(incremental, "RACY_NS", 0)  # every status trusted: the state files compare
    trees = {name: copy_tree(tmp_path / name, POOL_THRESHOLD + 4) for name in ("ray", "local")}
    states = {name: tmp_path / f"{name}.state.json" for name in trees}
    for name, tree in trees.items():  # the full runs, both local (Ray is refused here)
        assert cli("chunk", tree, "--state", states[name], "-q").code == 0
    for tree in trees.values():
        edit(tree, changed)
    on_ray = cli("chunk", trees["ray"], "--state", states["ray"], "--engine", "ray", "-q")
    local = cli("chunk", trees["local"], "--state", states["local"], "-q")
    assert ray_calls == []
    assert on_ray.code == 0 and local.code == 0, on_ray.err
    assert on_ray.out.count('"op": "upsert"') >= changed
    assert on_ray.out == local.out
    assert held(states["ray"]) == held(states["local"])


def test_as_many_files_as_the_pool_threshold_go_to_ray(cli, tmp_path, ray_calls) -> None:
    tree = copy_tree(tmp_path / "tree", POOL_THRESHOLD + 4)
    state = tmp_path / "state.json"
    assert cli("chunk", tree, "--state", state, "-q").code == 0
    edit(tree, POOL_THRESHOLD)
    with pytest.raises(RayWasStarted):
        cli("chunk", tree, "--state", state, "--engine", "ray", "-q")
    assert ray_calls == [POOL_THRESHOLD]
