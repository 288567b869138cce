"""``chunk --state``: a copy of a real package, changed as a repository changes between
commits, gives exactly the expected upserts and deletes; killed runs lose nothing."""

from __future__ import annotations

import email
import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from explorer.workspace import incremental

PACKAGE = Path(email.__file__).parent  # a real package of the standard library
ROOT = Path(__file__).resolve().parents[2]


def copy_package(target: Path) -> Path:
    shutil.copytree(PACKAGE, target, ignore=shutil.ignore_patterns("__pycache__"))  # keeps mtimes
    return target


def lines(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines()]


def full(cli, tree: Path) -> dict[str, dict]:
    run = cli("chunk", tree, "--format", "jsonl", "-j", "2", "-q")
    assert run.code == 0, run.err
    return {r["id"]: r for r in lines(run.out)}


def apply(index: dict[str, dict], records: list[dict]) -> None:
    for record in records:
        if record["op"] == "upsert":
            index[record["id"]] = {k: v for k, v in record.items() if k not in ("op", "change")}
        else:
            index.pop(record["id"], None)


def test_edit_delete_add_rename_touch_give_exactly_the_expected_difference(cli, tmp_path) -> None:
    tree = copy_package(tmp_path / "one" / "email")
    state = tmp_path / "state.json"
    first = cli("chunk", tree, "--state", state, "-j", "2")
    assert first.code == 0, first.err
    before = full(cli, tree)
    assert {r["id"] for r in lines(first.out)} == set(before)
    assert all(r["op"] == "upsert" for r in lines(first.out))

    # two clones in different folders give the same ids (and the same records)
    clone = copy_package(tmp_path / "two" / "elsewhere")
    assert full(cli, clone) == before

    names = sorted(p.name for p in tree.glob("*.py"))
    edited, deleted, renamed, touched = names[1:4], names[4], names[5], names[6]
    for name in edited:
        with open(tree / name, "a") as handle:
            handle.write("\n\ndef added_by_the_test():\n    return 42\n")
    (tree / deleted).unlink()
    (tree / "brand_new.py").write_text("def brand_new():\n    return 'new'\n")
    (tree / renamed).rename(tree / "renamed_module.py")
    os.utime(tree / touched, ns=(10**18, 10**18))

    second = cli("chunk", tree, "--state", state, "-j", "2")
    assert second.code == 0, second.err
    after = full(cli, tree)
    records = lines(second.out)
    upserts = [r for r in records if r["op"] == "upsert"]
    deletes = [r for r in records if r["op"] == "delete"]
    changed_paths = {*edited, "brand_new.py", "renamed_module.py"}
    assert {r["path"] for r in upserts} == changed_paths
    assert sorted(r["id"] for r in upserts) == sorted(i for i, r in after.items() if r["path"] in changed_paths)
    assert all({k: v for k, v in r.items() if k not in ("op", "change")} == after[r["id"]] for r in upserts)
    # the text is new exactly where the id is: an id the index holds has the same embedded text
    assert {r["id"] for r in upserts if r["change"] == "new"} == set(after) - set(before)
    assert {r["change"] for r in upserts if r["id"] in before} <= {"moved", "metadata"}
    assert {r["id"] for r in deletes} == set(before) - set(after)
    assert {r["path"] for r in deletes} <= {*edited, deleted, renamed}
    assert {r["path"] for r in deletes} >= {deleted, renamed}
    assert len(deletes) == len({r["id"] for r in deletes})  # each id once
    index = dict(before)
    apply(index, records)
    assert index == after
    assert "5 chunked" in second.err and "2 deleted" in second.err  # a rename: a delete and an add

    third = cli("chunk", tree, "--state", state)
    assert third.code == 0 and third.out == ""


def test_unusable_state_exits_2_and_writes_nothing(cli, tmp_path) -> None:
    tree = tmp_path / "t"
    tree.mkdir()
    (tree / "a.py").write_text("x = 1\n")
    state = tmp_path / "state.json"
    state.write_text("{broken")
    out = tmp_path / "out.jsonl"
    run = cli("chunk", tree, "--state", state, "-o", out)
    assert run.code == 2 and run.out == "" and "corrupt" in run.err
    assert not out.exists() and state.read_text() == "{broken"
    assert sorted(os.listdir(tmp_path)) == ["state.json", "t"]  # not even a lock file
    other = tmp_path / "other"
    other.mkdir()
    (other / "b.py").write_text("y = 2\n")
    state.unlink()
    assert cli("chunk", other, "--state", state).code == 0
    saved = state.read_bytes()
    run = cli("chunk", tree, "--state", state)
    assert run.code == 2 and "made for root" in run.err and run.out == ""
    assert state.read_bytes() == saved
    assert cli("chunk", tree, "--state", state, "--format", "json").code == 2
    assert cli("chunk", tree, "--state", tmp_path).code == 2  # a directory


def test_a_run_while_another_holds_the_state_refuses(cli, tmp_path) -> None:
    tree = tmp_path / "t"
    tree.mkdir()
    (tree / "a.py").write_text("x = 1\n")
    state = tmp_path / "state.json"
    with incremental._locked(str(state)):
        run = cli("chunk", tree, "--state", state)
        assert run.code == 2 and "another run is using" in run.err and run.out == ""
    assert not state.exists()
    assert cli("chunk", tree, "--state", state).code == 0


def test_interrupted_before_the_state_is_replaced_the_next_run_repeats_the_difference(
        cli, tmp_path, monkeypatch) -> None:
    tree = copy_package(tmp_path / "email")
    state = tmp_path / "state.json"
    assert cli("chunk", tree, "--state", state, "-j", "2").code == 0
    (tree / "base64mime.py").unlink()
    saved = state.read_bytes()
    real = incremental.write_atomic

    def killed(*args, **kwargs):
        raise KeyboardInterrupt  # as if the process died between the output and the state

    monkeypatch.setattr(incremental, "write_atomic", killed)
    interrupted = cli("chunk", tree, "--state", state)
    assert interrupted.code != 0 and '"op": "delete"' in interrupted.out  # the output was complete
    assert state.read_bytes() == saved
    monkeypatch.setattr(incremental, "write_atomic", real)
    again = cli("chunk", tree, "--state", state)
    assert again.code == 0 and {r["op"] for r in lines(again.out)} == {"delete"}
    assert {r["path"] for r in lines(again.out)} == {"base64mime.py"}


@pytest.mark.parametrize("kill_after_lines", [0, 1, 40, None])
def test_killed_runs_leave_a_state_from_which_the_next_run_is_correct(cli, tmp_path, kill_after_lines) -> None:
    """Kill the process (SIGKILL) at several points of a run; a consumer that applied the
    lines it got, then applies the next complete run, holds exactly the full export."""
    tree = copy_package(tmp_path / "email")
    state = tmp_path / "state.json"
    index: dict[str, dict] = {}
    first = cli("chunk", tree, "--state", state, "-j", "2")
    apply(index, lines(first.out))
    for name in ("charset.py", "utils.py", "header.py"):
        with open(tree / name, "a") as handle:
            handle.write("\n\ndef changed():\n    return 1\n")
    (tree / "quoprimime.py").unlink()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "explorer", "chunk", str(tree), "--state", str(state), "-j", "1", "-q",
               "--max-size", "300" if kill_after_lines is None else "1500"]  # None: a settings change, killed late
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    got: list[bytes] = []
    assert proc.stdout is not None
    limit = 300 if kill_after_lines is None else kill_after_lines
    while len(got) < limit:
        line = proc.stdout.readline()
        if not line:
            break
        got.append(line)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    proc.stdout.close()
    apply(index, [json.loads(line) for line in got if line.endswith(b"\n")])
    incremental.read_state(str(state), str(tree))  # whatever point it died at, the state is valid
    options = ["--max-size", "300"] if kill_after_lines is None else []
    final = cli("chunk", tree, "--state", state, "-j", "2", *options)
    assert final.code == 0, final.err
    apply(index, lines(final.out))
    assert index == full(cli, tree) if not options else index == {
        r["id"]: r for r in lines(cli("chunk", tree, "--format", "jsonl", "-q", *options).out)}
    assert cli("chunk", tree, "--state", state, *options).out == ""


def test_each_upsert_says_whether_its_text_is_new_moved_or_only_its_metadata_changed(cli, tmp_path) -> None:
    tree = tmp_path / "t"
    tree.mkdir()
    functions = [f"def {name}():\n    a = {i}\n    b = {i + 1}\n    return a + b\n" for i, name in
                 enumerate(["one", "two", "three"])]
    (tree / "m.py").write_text("\n\n".join(functions))
    state = tmp_path / "state.json"
    first = lines(cli("chunk", tree, "--state", state, "--max-size", "30", "-q").out)
    assert [r["change"] for r in first] == ["new", "new", "new"]
    assert [r["text"].split("(")[0] for r in first] == ["def one", "def two", "def three"]
    functions[1] = functions[1].replace("    b = 2\n", "    b = 2\n    b += 1\n")  # one line more in two()
    (tree / "m.py").write_text("\n\n".join(functions))
    second = cli("chunk", tree, "--state", state, "--max-size", "30")
    records = lines(second.out)
    upserts = {r["text"].split("(")[0]: r for r in records if r["op"] == "upsert"}
    assert {name: r["change"] for name, r in upserts.items()} == {
        "def one": "metadata",  # same text, same lines: only the file's hash differs
        "def two": "new",  # its text changed: the only one to embed
        "def three": "moved",  # same text, one line further down
    }
    assert upserts["def one"]["id"] == first[0]["id"] and upserts["def three"]["id"] == first[2]["id"]
    assert upserts["def three"]["lineRange"] != first[2]["lineRange"]
    assert [r["id"] for r in records if r["op"] == "delete"] == [first[1]["id"]]
    assert "3 upserts (1 with new text)" in second.err
    # upserts come with "op" then "change" first, and a full export has neither
    assert second.out.startswith('{"op": "upsert", "change": ')
    assert all("change" not in r for r in lines(cli("chunk", tree, "--format", "jsonl", "-q").out))


def test_reindexing_some_folders_under_one_state_leaves_the_others_alone(cli, tmp_path) -> None:
    tree = tmp_path / "repo"
    for folder in ("a", "b", "c"):
        copy_package(tree / folder)
    state = tmp_path / "state.json"
    assert cli("chunk", tree, "--state", state, "-j", "2", "-q").code == 0
    index = full(cli, tree)
    with open(tree / "a" / "charset.py", "a") as handle:
        handle.write("\n\ndef changed():\n    return 1\n")
    (tree / "b" / "utils.py").unlink()
    (tree / "c" / "header.py").unlink()  # outside the folders re-indexed: stays for now
    subset = cli("chunk", tree / "a", tree / "b", "--state", state, "-q")
    assert subset.code == 0, subset.err
    records = lines(subset.out)
    assert {r["path"].split("/")[0] for r in records} == {"a", "b"}
    assert {r["path"] for r in records if r["op"] == "delete"} <= {"a/charset.py", "b/utils.py"}
    apply(index, records)
    rest = cli("chunk", tree, "--state", state, "-q")  # the whole tree: only what the subset left
    assert {r["path"] for r in lines(rest.out)} == {"c/header.py"}
    apply(index, lines(rest.out))
    assert index == full(cli, tree)
    assert cli("chunk", tree, "--state", state, "-q").out == ""


def test_a_state_follows_a_moved_checkout_and_emits_nothing(cli, tmp_path) -> None:
    tree = copy_package(tmp_path / "first" / "email")
    state = tmp_path / "state.json"
    assert cli("chunk", tree, "--state", state, "-j", "2", "-q").code == 0
    moved = tmp_path / "second" / "email"
    moved.parent.mkdir()
    tree.rename(moved)
    run = cli("chunk", moved, "--state", state, "-q")
    assert run.code == 0, run.err
    assert run.out == ""
    assert json.loads(state.read_text())["root"] == str(moved)
    copied = tmp_path / "third"
    shutil.copytree(moved, copied)  # a fresh clone elsewhere: new inodes and times, same content
    shutil.rmtree(moved)
    (copied / "base64mime.py").unlink()
    run = cli("chunk", copied, "--state", state, "-q")
    assert run.code == 0 and {(r["op"], r["path"]) for r in lines(run.out)} == {("delete", "base64mime.py")}


def test_summary_json_gives_the_run_to_machines(cli, tmp_path) -> None:
    tree = copy_package(tmp_path / "email")
    state = tmp_path / "state.json"
    summary = tmp_path / "summary.json"
    first = cli("chunk", tree, "--state", state, "-q", "--summary-json", summary)
    got = json.loads(summary.read_text())
    assert got["upserts"] == len(lines(first.out)) == got["newTexts"] and got["deletes"] == 0
    assert got["files"] == got["chunked"] > 20 and got["unchanged"] == 0
    (tree / "base64mime.py").unlink()
    cli("chunk", tree, "--state", state, "-q", "--summary-json", summary)
    got = json.loads(summary.read_text())
    assert got["deletedFiles"] == 1 and got["upserts"] == 0 and got["deletes"] > 0
    plain = cli("chunk", tree, "--format", "jsonl", "-q", "--summary-json", summary)
    assert json.loads(summary.read_text())["chunks"] == len(lines(plain.out))
    assert cli("chunk", tree, "--summary-json", tmp_path / "missing" / "s.json").code == 2


@pytest.mark.parametrize("listing", ["ids", "jsonl"])
def test_a_lost_state_is_rebuilt_from_the_ids_the_index_holds(cli, tmp_path, listing) -> None:
    tree = copy_package(tmp_path / "email")
    state = tmp_path / "state.json"
    index = {r["id"]: r for r in lines(cli("chunk", tree, "--format", "jsonl", "-q").out) if "id" in r}
    (tree / "base64mime.py").unlink()
    with open(tree / "charset.py", "a") as handle:
        handle.write("\n\ndef changed():\n    return 1\n")
    held = tmp_path / "held.txt"
    held.write_text("".join(f"{i}\n" for i in index) if listing == "ids"
                    else "".join(json.dumps({"id": i, "path": r["path"]}) + "\n" for i, r in index.items()))
    run = cli("chunk", tree, "--state", state, "--reconcile", held, "-q")
    assert run.code == 0, run.err
    records = lines(run.out)
    apply(index, records)
    assert index == full(cli, tree)
    new = {r["id"] for r in records if r["op"] == "upsert" and r["change"] == "new"}
    assert new and all(r["path"] == "charset.py" for r in records if r["id"] in new)
    assert cli("chunk", tree, "--state", state, "-q").out == ""  # the rebuilt state is the index's
    assert cli("chunk", tree, "--reconcile", held).code == 2
