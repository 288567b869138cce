"""``chunk --state``: a copy of a real package, changed as a repository changes between
commits, gives exactly the expected upserts and deletes; killed runs lose nothing."""

from __future__ import annotations

import email
import fcntl
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
    return {r["id"]: r for r in lines(run.out) if "id" in r}  # not the skipped files' lines


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
    lock = tmp_path / "state.json.lock"
    with incremental._locked(str(state)):
        run = cli("chunk", tree, "--state", state)
        assert run.code == 2 and "another run is using" in run.err and run.out == ""
        waiting = open(lock, "ab")  # noqa: SIM115 (a run that opened the lock file just before it was let go)
    assert not state.exists() and not lock.exists()  # the run removes its lock file
    with waiting, incremental._locked(str(state)):
        # The file the waiting run opened is gone: holding a lock on it must not make a second
        # holder. It takes the file there now, which excludes every later run.
        fcntl.flock(waiting.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        assert lock.exists()
        assert cli("chunk", tree, "--state", state).code == 2
    assert cli("chunk", tree, "--state", state).code == 0
    assert sorted(os.listdir(tmp_path)) == ["state.json", "t"]


def test_a_lock_file_removed_between_open_and_lock_is_not_held_alone(cli, tmp_path, monkeypatch) -> None:
    tree = tmp_path / "t"
    tree.mkdir()
    (tree / "a.py").write_text("x = 1\n")
    state = tmp_path / "state.json"
    lock = tmp_path / "state.json.lock"
    real_flock = fcntl.flock
    removed = []

    def holder_ends_first(fd: int, operation: int) -> None:
        if not removed and operation & fcntl.LOCK_EX:
            removed.append(True)
            os.unlink(lock)  # the previous run let go of the file this run has just opened
        real_flock(fd, operation)

    monkeypatch.setattr(fcntl, "flock", holder_ends_first)
    with incremental._locked(str(state)):
        assert removed and lock.exists()
        assert cli("chunk", tree, "--state", state).code == 2  # this run holds the file that is there
    assert not lock.exists()


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


GIT_ENV = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.com", "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_SYSTEM": os.devnull}


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True,
                          env=GIT_ENV).stdout.strip()


def append(path: Path, text: str) -> None:
    with open(path, "a") as handle:
        handle.write(text)


def make_history(repo: Path) -> list[str]:
    """A repository whose commits edit, revert, delete, restore and rename files of a real
    package: every way a checkout can move between two runs. Its commit hashes, oldest first."""
    copy_package(repo)
    git(repo, "init", "-q")
    original = {p.name: p.read_bytes() for p in repo.glob("*.py")}
    commits = []

    def commit(message: str) -> None:
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "--allow-empty", "-m", message)
        commits.append(git(repo, "rev-parse", "HEAD"))

    commit("the package")
    for name in ("charset.py", "utils.py", "header.py", "message.py", "feedparser.py"):
        append(repo / name, "\n\ndef first_change():\n    return 1\n")
    (repo / "quoprimime.py").unlink()
    (repo / "added.py").write_text("def added():\n    return 'added'\n")
    commit("edit five, delete one, add one")
    (repo / "charset.py").write_bytes(original["charset.py"])  # back as it was before the killed run
    append(repo / "utils.py", "\n\ndef second_change():\n    return 2\n")
    (repo / "message.py").unlink()
    (repo / "quoprimime.py").write_bytes(original["quoprimime.py"])
    (repo / "added.py").rename(repo / "renamed.py")
    commit("revert one, edit one again, delete an edited one, restore the deleted one, rename the new one")
    for name in ("_header_value_parser.py", "generator.py", "headerregistry.py"):
        text = (repo / name).read_text()
        (repo / name).write_text("# a line on top moves every chunk\n" + text)
    append(repo / "renamed.py", "\n\ndef third_change():\n    return 3\n")
    commit("move every chunk of three files")
    for name, data in original.items():
        (repo / name).write_bytes(data)
    (repo / "renamed.py").unlink()
    commit("everything back as it was")
    for name in ("charset.py", "_header_value_parser.py", "base64mime.py"):
        append(repo / name, "\n\ndef fourth_change():\n    return 4\n")
    (repo / "header.py").unlink()
    commit("edit three, delete one")
    (repo / "_header_value_parser.py").write_bytes(original["_header_value_parser.py"])
    append(repo / "charset.py", "\n\ndef fifth_change():\n    return 5\n")
    (repo / "header.py").write_bytes(original["header.py"])
    commit("revert one, edit one again, restore one")
    return commits


def killed_run(tree: Path, state: Path, after_lines: int) -> list[dict]:
    """A ``chunk --state`` run killed (SIGKILL) mid-output, once its consumer read
    ``after_lines`` lines: those lines."""
    command = [sys.executable, "-m", "explorer", "chunk", str(tree), "--state", str(state), "-j", "1", "-q"]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.stdout is not None
    got = [proc.stdout.readline() for _ in range(after_lines)]
    # The rest of its output waits on the full pipe: the run is killed before it ends.
    assert proc.poll() is None and all(line.endswith(b"\n") for line in got)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    proc.stdout.close()
    return [json.loads(line) for line in got]


@pytest.mark.parametrize("applied", [True, False], ids=["partial-output-applied", "partial-output-dropped"])
@pytest.mark.parametrize("kills_in_a_row", [1, 2])
def test_a_killed_run_then_a_checkout_of_another_commit_converges_to_the_full_export(
        cli, tmp_path, applied, kills_in_a_row) -> None:
    """Replay a history: at each step a run is killed mid-output (its consumer applied
    what it read, or nothing), the checkout moves on, and the next complete run makes
    the index exactly the full export of the new commit."""
    tree = tmp_path / "repo"
    commits = make_history(tree)
    state = tmp_path / "state.json"
    git(tree, "checkout", "-q", "--detach", commits[0])
    index: dict[str, dict] = {}
    apply(index, lines(cli("chunk", tree, "--state", state, "-q").out))
    steps = 0
    at = 1
    while at + kills_in_a_row < len(commits):
        for kill in range(kills_in_a_row):
            git(tree, "checkout", "-q", "--detach", commits[at])
            partial = killed_run(tree, state, after_lines=[3, 40][(steps + kill) % 2])
            if applied:
                apply(index, partial)
            at += 1
        git(tree, "checkout", "-q", "--detach", commits[at])
        complete = cli("chunk", tree, "--state", state, "-q")
        assert complete.code == 0, complete.err
        apply(index, lines(complete.out))
        expected = full(cli, tree)
        assert sorted(index) == sorted(expected), f"step {steps}: stale or missing chunks"
        assert index == expected
        assert sorted(p.name for p in tmp_path.iterdir()) == ["repo", "state.json"]
        assert cli("chunk", tree, "--state", state, "-q").out == ""
        steps += 1
        at += 1
    assert steps == (len(commits) - 1) // (kills_in_a_row + 1)


def test_a_corrupt_state_is_rebuilt_from_the_ids_the_index_holds(cli, tmp_path) -> None:
    tree = copy_package(tmp_path / "email")
    state = tmp_path / "state.json"
    index = full(cli, tree)
    (tree / "base64mime.py").unlink()
    state.write_text('{"format": "chunk-explorer-state", "ver')  # cut short by a full disk, say
    held = tmp_path / "held.txt"
    held.write_text("".join(f"{i}\n" for i in index))
    assert cli("chunk", tree, "--state", state, "-q").code == 2  # without the ids: refused, as before
    run = cli("chunk", tree, "--state", state, "--reconcile", held, "-q")
    assert run.code == 0, run.err
    apply(index, lines(run.out))
    assert index == full(cli, tree)
    assert cli("chunk", tree, "--state", state, "-q").out == ""


def test_off_a_terminal_a_state_run_reports_progress_in_lines_on_stderr(cli, tmp_path, monkeypatch) -> None:
    from explorer.cli import report

    tree = copy_package(tmp_path / "email")
    state = tmp_path / "state.json"
    monkeypatch.setattr(report, "PROGRESS_LINE_SECONDS", 0.0)  # a line for every file
    first = cli("chunk", tree, "--state", state, "-j", "2", "--summary-json", tmp_path / "summary.json")
    assert first.code == 0, first.err
    chunked = json.loads((tmp_path / "summary.json").read_text())["chunked"]
    assert chunked > 20
    progress = [line for line in first.err.splitlines() if line.startswith("chunking: ")]
    assert len(progress) == chunked
    assert progress[0].startswith(f"chunking: 1/{chunked} files (")
    assert progress[-1].startswith(f"chunking: {chunked}/{chunked} files (100%), ")
    assert all(json.loads(line)["op"] == "upsert" for line in first.out.splitlines())  # stdout: the records only
    for name in ("charset.py", "utils.py"):
        append(tree / name, "\n\ndef changed():\n    return 1\n")
    second = cli("chunk", tree, "--state", state)
    assert [line.rsplit(", ", 1)[0] for line in second.err.splitlines() if line.startswith("chunking: ")] == [
        "chunking: 1/2 files (50%)", "chunking: 2/2 files (100%)"]  # of the files chunked
    append(tree / "header.py", "\n\ndef changed():\n    return 1\n")
    assert cli("chunk", tree, "--state", state, "-q").err == ""
    monkeypatch.setattr(report, "PROGRESS_LINE_SECONDS", 3600.0)
    append(tree / "header.py", "\n\ndef changed_again():\n    return 1\n")
    assert "chunking: " not in cli("chunk", tree, "--state", state).err  # under the period: no line
