"""Replay a repository's history through ``chunk --state``, killing a run at every step.

    python benchmarks/kill_replay.py [--repo /work/realcode/click] [--steps 15] [--spacing 20]
                                     [--without-journal]

Clones REPO into a temporary folder (never touching it) and walks its first-parent
history, oldest first, SPACING commits apart. A consumer keeps an in-memory index (id ->
record) fed by the runs' JSONL. At each step: check out a commit, start ``chunk --state``,
read a few lines of its output (1, 5, 20, 80 in turn), apply them and SIGKILL the run;
check out the next commit, run ``chunk --state`` to completion, apply it, and compare the
index with the full export of that commit (``chunk --format jsonl``): the stale chunks
(in the index, not in the export), the missing ones and the ones that differ.

``--without-journal`` removes the journal the killed run left (as if it were lost, or as
chunk-explorer did before it kept one): the index then drifts.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ENV = {**os.environ, "PYTHONPATH": ROOT + os.pathsep + os.environ.get("PYTHONPATH", "")}  # this checkout
KILL_AFTER = (1, 5, 20, 80)


def git(repo: str, *args: str) -> str:
    return subprocess.run(["git", "-C", repo, *args], check=True, capture_output=True, text=True).stdout.strip()


def chunk(*args: str) -> list[dict]:
    out = subprocess.run([sys.executable, "-m", "explorer", "chunk", *args, "-q"], check=True,
                         capture_output=True, env=ENV).stdout
    return [json.loads(line) for line in out.splitlines()]


def apply(index: dict[str, dict], records: list[dict]) -> None:
    for record in records:
        if record["op"] == "upsert":
            index[record["id"]] = {k: v for k, v in record.items() if k not in ("op", "change")}
        else:
            index.pop(record["id"], None)


def killed(tree: str, state: str, after: int) -> tuple[list[dict], bool]:
    """The lines a run wrote before it was killed after ``after`` lines, and whether it was
    still running then (a small difference may be written whole before the kill)."""
    proc = subprocess.Popen([sys.executable, "-m", "explorer", "chunk", tree, "--state", state, "-j", "1", "-q"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=ENV)
    assert proc.stdout is not None
    got = []
    for _ in range(after):
        line = proc.stdout.readline()
        if not line.endswith(b"\n"):
            break
        got.append(json.loads(line))
    running = proc.poll() is None
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    proc.stdout.close()
    return got, running


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repo", default="/work/realcode/click")
    parser.add_argument("--steps", type=int, default=15)
    parser.add_argument("--spacing", type=int, default=20, help="commits between two checkouts")
    parser.add_argument("--without-journal", action="store_true", help="remove the killed run's journal")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="kill-replay-") as work:
        tree = os.path.join(work, "repo")
        subprocess.run(["git", "clone", "-q", "--no-hardlinks", args.repo, tree], check=True)
        history = git(tree, "rev-list", "--first-parent", "--reverse", "HEAD").split()
        commits = history[-(2 * args.steps + 1) * args.spacing::args.spacing][:2 * args.steps + 1]
        state = os.path.join(work, "state.json")
        index: dict[str, dict] = {}
        git(tree, "checkout", "-q", "--detach", commits[0])
        apply(index, chunk(tree, "--state", state))
        equal = interrupted = 0
        seconds: list[float] = []
        print(f"{args.repo}: {len(commits) - 1} checkouts, {args.spacing} first-parent commits apart"
              + (" (journal removed after each kill)" if args.without_journal else ""))
        for step in range(args.steps):
            killed_at, then = commits[2 * step + 1], commits[2 * step + 2]
            git(tree, "checkout", "-q", "--detach", killed_at)
            partial, running = killed(tree, state, KILL_AFTER[step % len(KILL_AFTER)])
            interrupted += running
            apply(index, partial)
            if args.without_journal and os.path.exists(state + ".journal"):
                os.unlink(state + ".journal")
            git(tree, "checkout", "-q", "--detach", then)
            started = time.perf_counter()
            records = chunk(tree, "--state", state)
            seconds.append(time.perf_counter() - started)
            apply(index, records)
            expected = {r["id"]: r for r in chunk(tree, "--format", "jsonl") if "id" in r}
            stale = len(set(index) - set(expected))
            missing = len(set(expected) - set(index))
            differ = sum(index[i] != r for i, r in expected.items() if i in index)
            ok = stale == missing == differ == 0
            equal += ok
            print(f"  step {step + 1:2}: {killed_at[:8]} killed after {len(partial):2} lines"
                  f"{'' if running else ' (had ended)'}, then {then[:8]}: {len(records):5} records, "
                  f"{len(expected):5} chunks; stale {stale}, missing {missing}, differ {differ}"
                  f"{'  ok' if ok else '  WRONG'}")
            leftovers = sorted(set(os.listdir(work)) - {"repo", "state.json", "state.json.lock"})
            if leftovers:
                print(f"    left beside the state: {leftovers}")
        print(f"steps equal to the full export: {equal}/{args.steps} ({interrupted} runs killed while running); "
              f"completing run after a kill: median {statistics.median(seconds):.2f}s")
    return 0 if equal == args.steps else 1


if __name__ == "__main__":
    sys.exit(main())
