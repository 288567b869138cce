"""Start-up of the command line against a bare interpreter.

    python benchmarks/startup_bench.py [--repeats 15] [--state-repo DIR]

Runs ``python -c pass``, ``python -m explorer --version``, ``--help`` and ``chunk --help`` in
subprocesses (interleaved, so machine load affects them alike) and prints each one's median
and best wall time and its ratio to ``python -c pass`` (medians). With ``--state-repo`` it
also times a ``chunk --state`` run with no change on that repository (a first run writes the
state, in a temporary directory that is deleted) against a full run.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

COMMANDS = {
    "python -c pass": ["-c", "pass"],
    "--version": ["-m", "explorer", "--version"],
    "--help": ["-m", "explorer", "--help"],
    "chunk --help": ["-m", "explorer", "chunk", "--help"],
}


#: Compiled modules cached as an installed package has them (in a temporary folder, not
#: beside the sources), even where PYTHONDONTWRITEBYTECODE is set.
ENV = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}


def wall(argv: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, *argv], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENV)
    return time.perf_counter() - start


def timed(runs: dict[str, list[str]], repeats: int) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(repeats):
        for name, argv in runs.items():
            times[name].append(wall(argv))
    return times


def report(times: dict[str, list[float]], baseline: str) -> None:
    base = statistics.median(times[baseline])
    print(f"{'command':<28} {'median s':>9} {'best s':>8} {'x ' + baseline:>18}")
    for name, values in times.items():
        median = statistics.median(values)
        print(f"{name:<28} {median:>9.3f} {min(values):>8.3f} {median / base:>17.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--state-repo", help="a repository to time a no-change `chunk --state` run on")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as pycache:
        ENV["PYTHONPYCACHEPREFIX"] = pycache
        timed(COMMANDS, 1)  # compiles and caches every module these commands import
        run(args)


def run(args: argparse.Namespace) -> None:
    report(timed(COMMANDS, args.repeats), "python -c pass")
    if args.state_repo:
        with tempfile.TemporaryDirectory() as scratch:
            state = os.path.join(scratch, "state.json")
            common = ["-m", "explorer", "chunk", "--no-settings", "-q", "-j", "1", args.state_repo]
            subprocess.run([sys.executable, *common, "--state", state, "-o", os.devnull], check=True, env=ENV)
            print()
            report(timed({
                "python -c pass": ["-c", "pass"],
                "chunk (full, no state)": [*common, "--format", "jsonl", "-o", os.devnull],
                "chunk --state (no change)": [*common, "--state", state, "-o", os.devnull],
            }, max(3, args.repeats // 3)), "python -c pass")


if __name__ == "__main__":
    main()
