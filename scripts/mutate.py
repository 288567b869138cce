"""Mutation testing of what you changed: small bugs put into the code, one at a time, each
run against the tests of its area. A mutant no test notices ("survived") is a behaviour the
tests do not pin down (or an equivalent mutant: a change no caller can see).

    python scripts/mutate.py                        # the .py files changed since main
    python scripts/mutate.py --base HEAD~3          # ... since another commit
    python scripts/mutate.py explorer/engine/context.py --sample 80
    python scripts/mutate.py explorer/cli/options.py --tests tests/cli/test_flag_overrides.py

Uses mutmut (the ``mutation`` extra: ``pip install -e '.[mutation]'``) in a scratch copy of
the repository, so the checkout is never modified. Bounded for a shared machine: ``--sample``
mutants per file (seeded, so a rerun draws the same ones), only the tests of each file's area,
mutmut's per-mutant CPU-time limit, ``-j`` workers (default 1), run under ``nice``.

Prints per file and in total: killed, survived, timeouts, mutants no selected test reaches,
the kill rate (killed / (sampled - equivalent)), and the diff of every survivor. Mutants
judged equivalent are listed with the reason in ``scripts/mutation-equivalents.txt``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EQUIVALENTS = ROOT / "scripts" / "mutation-equivalents.txt"

#: The tests of each area (first matching prefix wins). Suites that take minutes under
#: mutation (ten-thousand-deep nesting, Ray, the retrieval evaluation, the property-based
#: invariants, screenshots) are left out of the engine's and the explorer's areas; name
#: them with --tests when the change is theirs.
AREAS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("explorer/engine/retrieval/", ("tests/engine/retrieval",)),
    ("explorer/engine/", ("tests/engine", "--ignore=tests/engine/test_pathological.py",
                          "--ignore=tests/engine/test_ray_batch.py", "--ignore=tests/engine/retrieval",
                          "--ignore=tests/engine/test_invariants.py")),
    ("explorer/workspace/", ("tests/workspace",)),
    ("explorer/cli/", ("tests/cli",)),
    ("explorer/tui/", ("tests/tui", "--ignore=tests/tui/test_snapshots.py")),
    ("explorer/", ("tests",)),
)

#: mutmut's exit codes as outcomes (see mutmut.stats.status_by_exit_code).
OUTCOMES = {1: "killed", 3: "killed", 0: "survived", 5: "no tests", 33: "no tests", 34: "skipped",
            36: "timeout", -24: "timeout", 24: "timeout", 152: "timeout", 255: "timeout",
            37: "type check", None: "not run"}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", nargs="*", help="source files to mutate (default: the changed ones)")
    parser.add_argument("--base", default="main", help="what to diff against for the changed files (default main)")
    parser.add_argument("--tests", metavar="ARGS",
                        help="the tests to run, as pytest arguments in one string, e.g. "
                             "'tests/engine --ignore=tests/engine/test_batch.py' (default: each file's area)")
    parser.add_argument("--sample", type=int, default=60, metavar="N",
                        help="mutants per file, drawn at random (default 60; 0: all)")
    parser.add_argument("--seed", type=int, default=0, help="the sample's seed (default 0)")
    parser.add_argument("-j", "--jobs", type=int, default=1, help="mutants run at once (default 1)")
    parser.add_argument("--timeout-multiplier", type=float, default=5.0, metavar="X",
                        help="a mutant may take X times its tests' clean CPU time (default 5)")
    parser.add_argument("--workdir", metavar="DIR",
                        help="keep the scratch copy here (a rerun reuses mutmut's results for unchanged functions)")
    parser.add_argument("--resume", action="store_true",
                        help="with --workdir: run only the sampled mutants that have no outcome yet there")
    parser.add_argument("--json", metavar="FILE", help="also write the outcome of every mutant to FILE")
    args = parser.parse_args(argv)

    files = [_relative(f) for f in args.files] or changed_files(args.base)
    files = [f for f in files if f.startswith("explorer/") and f.endswith(".py")]
    if not files:
        print("No changed source files under explorer/ to mutate.")
        return 0
    tests = shlex.split(args.tests) if args.tests else area_tests(files)
    print(f"Mutating {', '.join(files)}\nagainst {' '.join(tests)}")

    work = Path(args.workdir).resolve() if args.workdir else Path(tempfile.mkdtemp(prefix="mutate-"))
    started = time.monotonic()
    try:
        prepare(work, files, tests, args.timeout_multiplier)
        sampled = sample_mutants(work, files, args.sample, args.seed)
        print(f"{sum(len(v) for v in sampled.values())} mutants sampled; mutmut's log: {work / 'mutmut.log'}")
        names = [name for group in sampled.values() for name in group]
        if args.resume:
            known = read_outcomes(work, files)
            names = [name for name in names if known.get(name, "not run") == "not run"]
            print(f"{len(names)} of them have no outcome yet")
        if names:
            run_mutmut(work, names, args.jobs)
        outcomes = read_outcomes(work, files)
        report(work, sampled, outcomes, load_equivalents(), args.json)
        print(f"\nThe pass took {(time.monotonic() - started) / 60:.1f} minutes.")
    finally:
        if not args.workdir:
            shutil.rmtree(work, ignore_errors=True)
    return 0


def _relative(path: str) -> str:
    return Path(path).resolve().relative_to(ROOT).as_posix()


def changed_files(base: str) -> list[str]:
    """Python files under explorer/ changed since ``base`` (committed or not) and new ones."""
    def git(*words: str) -> list[str]:
        done = subprocess.run(["git", *words], cwd=ROOT, capture_output=True, text=True, check=True)
        return [line for line in done.stdout.splitlines() if line]

    merge_base = git("merge-base", base, "HEAD")[0]
    changed = git("diff", "--name-only", "--diff-filter=AMR", merge_base, "--", "explorer")
    changed += git("ls-files", "--others", "--exclude-standard", "explorer")
    return sorted(f for f in set(changed) if f.endswith(".py") and (ROOT / f).exists())


def area_tests(files: list[str]) -> list[str]:
    selected: list[str] = []
    for path in files:
        for prefix, tests in AREAS:
            if path.startswith(prefix):
                selected += [t for t in tests if t not in selected]
                break
    return selected


def prepare(work: Path, files: list[str], tests: list[str], timeout_multiplier: float) -> None:
    """A copy of the package and the tests, with mutmut's settings for this pass."""
    work.mkdir(parents=True, exist_ok=True)
    skip = shutil.ignore_patterns("__pycache__", "*.pyc")
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    # Every top-level entry of the repository: tests read the README, the docs, the scripts.
    entries = sorted({line.split("/", 1)[0] for line in tracked.splitlines()} - {"pyproject.toml"})
    for name in entries:
        source, target = ROOT / name, work / name
        if source.is_dir():
            shutil.rmtree(target, ignore_errors=True)
            shutil.copytree(source, target, ignore=skip, symlinks=True)
        elif source.exists():
            shutil.copy2(source, target)
    settings = {
        "source_paths": ["explorer"],
        "also_copy": [name for name in entries if name != "explorer"],
        "only_mutate": files,
        "pytest_add_cli_args_test_selection": tests,
        "pytest_add_cli_args": ["-p", "no:cacheprovider"],
        "timeout_multiplier": timeout_multiplier,
        "use_git_change_detection": False,
    }
    lines = [f"{key} = {json.dumps(value)}" for key, value in settings.items()]
    text = (ROOT / "pyproject.toml").read_text()
    (work / "pyproject.toml").write_text(text + "\n[tool.mutmut]\n" + "\n".join(lines) + "\n")
    # The mutated copy must exist before mutmut starts: a directory missing from sys.path at
    # start-up stays unsearched, and the tests would import the installed package instead.
    (work / "mutants").mkdir(exist_ok=True)


def sample_mutants(work: Path, files: list[str], size: int, seed: int) -> dict[str, list[str]]:
    """The names of the mutants mutmut will make for each file, sampled."""
    from mutmut.mutation.file_mutation import mutate_file_contents
    from mutmut.utils.format_utils import get_mutant_name

    sampled: dict[str, list[str]] = {}
    for path in files:
        source = (work / path).read_text()
        # mutmut reads its settings from the current folder: the scratch copy's, not the checkout's.
        with contextlib.chdir(work):
            made = mutate_file_contents(path, source).mutant_names
        names = sorted(get_mutant_name(Path(path), name) for name in made)
        if size and len(names) > size:
            names = sorted(random.Random(f"{seed}:{path}").sample(names, size))
        sampled[path] = names
        print(f"  {path}: {len(names)} mutants")
    return sampled


def run_mutmut(work: Path, names: list[str], jobs: int) -> None:
    env = {**os.environ, "PYTHONPATH": str(work / "mutants")}  # worker processes import the mutants too
    mutmut = Path(sys.executable).with_name("mutmut")
    command = ["nice", "-n", "10", str(mutmut), "run", "--max-children", str(jobs), *names]
    with open(work / "mutmut.log", "w") as log:
        done = subprocess.run(command, cwd=work, env=env, stdout=log, stderr=subprocess.STDOUT)
    if done.returncode != 0:
        tail = (work / "mutmut.log").read_text(errors="replace")[-3000:]
        raise SystemExit(f"mutmut failed (exit {done.returncode}):\n{tail}")


def read_outcomes(work: Path, files: list[str]) -> dict[str, str]:
    outcomes: dict[str, str] = {}
    for path in files:
        meta = work / "mutants" / (path + ".meta")
        if meta.exists():
            codes = json.loads(meta.read_text())["exit_code_by_key"]
            outcomes.update({name: OUTCOMES.get(code, "suspicious") for name, code in codes.items()})
    return outcomes


def load_equivalents() -> dict[str, str]:
    """Mutant name -> why it is equivalent, from scripts/mutation-equivalents.txt."""
    if not EQUIVALENTS.exists():
        return {}
    found = {}
    for line in EQUIVALENTS.read_text().splitlines():
        name, _, reason = line.partition("#")
        if name.strip():
            found[name.strip()] = reason.strip()
    return found


def report(work: Path, sampled: dict[str, list[str]], outcomes: dict[str, str], equivalents: dict[str, str],
           json_path: str | None) -> None:
    total: Counter[str] = Counter()
    rows = []
    survivors = []
    for path, names in sampled.items():
        counts: Counter[str] = Counter()
        for name in names:
            outcome = outcomes.get(name, "not run")
            if outcome in ("survived", "no tests") and name in equivalents:
                outcome = "equivalent"
            counts[outcome] += 1
            if outcome in ("survived", "no tests"):
                survivors.append((name, outcome))
        total.update(counts)
        rows.append((path, counts))
    rows.append(("total", total))
    print()
    print(f"{'file':<42} {'sampled':>7} {'killed':>6} {'timeout':>7} {'survived':>8} {'no tests':>8} "
          f"{'equiv.':>6} {'kill rate':>9}")
    for path, counts in rows:
        caught = counts["killed"] + counts["timeout"]
        sampled_count = sum(counts.values())
        judged = sampled_count - counts["equivalent"] - counts["not run"] - counts["skipped"]
        rate = f"{100 * caught / judged:.0f}%" if judged else "-"
        print(f"{path:<42} {sampled_count:>7} {counts['killed']:>6} {counts['timeout']:>7} {counts['survived']:>8} "
              f"{counts['no tests']:>8} {counts['equivalent']:>6} {rate:>9}")
    if survivors:
        print("\nSurvivors: write a test that fails for each, or record it in "
              "scripts/mutation-equivalents.txt with the reason no caller can tell the difference.\n")
        env = {**os.environ, "PYTHONPATH": str(work / "mutants")}
        mutmut = Path(sys.executable).with_name("mutmut")
        for name, outcome in survivors:
            shown = subprocess.run([str(mutmut), "show", name], cwd=work, env=env, capture_output=True, text=True)
            print(f"[{outcome}] " + (shown.stdout.strip() or name) + "\n")
    if json_path:
        Path(json_path).write_text(json.dumps(
            {name: outcomes.get(name, "not run") for names in sampled.values() for name in names}, indent=1) + "\n")


if __name__ == "__main__":
    sys.exit(main())
