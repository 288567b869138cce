"""Walk benchmark: the directory walk against git on the same trees, in one run.

    python benchmarks/walk_bench.py [--runs 5] [--keep DIR]

Builds two trees in a temporary directory (fixed seed), each a fresh ``git init`` with
nothing committed, so ``git ls-files --others --exclude-standard`` lists exactly the files
git does not ignore:

* **many-ignores**: 100,500 files in 1,005 directories, with 101 ``.gitignore`` files: a
  Python-project template at the top (literal names, ``*.ext``, ``dir/``, anchored paths,
  classes, negations) and 100 small nested ones;
* **many-patterns**: 5,000 files and one ``.gitignore`` of 6,000 patterns (a mix of
  literal names, suffixes, anchored paths, wildcards and negations).

For each it times git and ``explorer.workspace.walk.walk`` (all languages, no default
excludes, so both should list the same files; the script checks that they do) and prints
the medians of ``--runs`` interleaved runs (git, ours, git, ours...) and their ratios, in
wall-clock and in CPU seconds (user+system; steadier on a shared machine). Our time is the
default walk (``all_languages`` only, so unknown extensions count too). It does more than git
here: git reads no file it does not track (``readdir`` gives names and types), while the walk
stats every file it takes (its size: ``--max-file-size``) and opens those whose name tells no
language (a shebang line): on the first tree a stat for 53,558 files and open, fstat, read and
close for 13,614, some 108,000 system calls git does not make.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from explorer.workspace.walk import WalkedFile, WalkOptions, walk

EXTENSIONS = ["py", "txt", "json", "md", "c", "h", "js", "toml", "cfg", "log", "pyc", "so", "o", "tmp"]
WORDS = ["core", "util", "data", "model", "view", "io", "net", "test", "docs", "build", "dist", "cache",
         "env", "lib", "app", "tools", "scripts", "config", "static", "media", "logs", "site", "eggs"]

# A Python project's ignore file in the style of the common templates (our own list).
PYTHON_TEMPLATE = """\
# Byte-compiled / optimized / DLL files
__pycache__/
*.py[cod]
*$py.class
*.so
.Python
build/
develop-eggs/
dist/
downloads/
eggs/
.eggs/
lib64/
parts/
sdist/
var/
wheels/
share/python-wheels/
*.egg-info/
.installed.cfg
*.egg
MANIFEST
*.manifest
*.spec
pip-log.txt
pip-delete-this-directory.txt
htmlcov/
.tox/
.nox/
.coverage
.coverage.*
.cache
nosetests.xml
coverage.xml
*.cover
*.py,cover
.hypothesis/
.pytest_cache/
cover/
*.mo
*.pot
*.log
local_settings.py
db.sqlite3
db.sqlite3-journal
instance/
.webassets-cache
.scrapy
docs/_build/
.pybuilder/
target/
.ipynb_checkpoints
profile_default/
ipython_config.py
.pdm.toml
__pypackages__/
celerybeat-schedule
celerybeat.pid
*.sage.py
.env
.venv
env/
venv/
ENV/
env.bak/
venv.bak/
.spyderproject
.spyproject
.ropeproject
/site
.mypy_cache/
.dmypy.json
dmypy.json
.pyre/
.pytype/
cython_debug/
*.tmp
!keep.tmp
[Tt]humbs.db
**/scratch/*.txt
"""


def build_many_ignores(root: str, rng: random.Random) -> None:
    """100,500 files (100,399 plus 101 .gitignore files) in 1,000 directories below 100."""
    with open(os.path.join(root, ".gitignore"), "w") as handle:
        handle.write(PYTHON_TEMPLATE)
    subdirs: list[list[str]] = []
    for top in range(100):
        top_dir = os.path.join(root, f"{rng.choice(WORDS)}_{top}")
        os.makedirs(top_dir)
        with open(os.path.join(top_dir, ".gitignore"), "w") as handle:
            handle.write(f"*.{rng.choice(EXTENSIONS)}\n!important_{top}.py\n/local_{top}/\nnotes_*.md\n")
        subdirs.append([top_dir] + [os.path.join(top_dir, f"{rng.choice(WORDS)}_{i}") for i in range(9)])
        for sub in subdirs[-1][1:]:
            os.makedirs(sub, exist_ok=True)
    for i in range(100_399):
        directory = subdirs[i % 100][(i // 100) % 10]
        open(os.path.join(directory, f"{rng.choice(WORDS)}_{i}.{rng.choice(EXTENSIONS)}"), "w").close()


def build_many_patterns(root: str, rng: random.Random) -> None:
    """5,000 files in 50 directories and one .gitignore of 6,000 patterns."""
    lines = []
    for i in range(6000):
        kind = i % 10
        word = f"{rng.choice(WORDS)}{i}"
        if kind < 4:
            lines.append(f"{word}.{rng.choice(EXTENSIONS)}")  # a literal name
        elif kind < 6:
            lines.append(f"*.{word}")  # a suffix
        elif kind == 6:
            lines.append(f"/{rng.choice(WORDS)}_{i % 50}/{word}*")  # anchored path with a wildcard
        elif kind == 7:
            lines.append(f"{word}[0-9]*.{rng.choice(EXTENSIONS)}")  # a name wildcard
        elif kind == 8:
            lines.append(f"**/{word}/")  # a directory anywhere
        else:
            lines.append(f"!{rng.choice(WORDS)}_{i}.py")  # a negation
    with open(os.path.join(root, ".gitignore"), "w") as handle:
        handle.write("\n".join(lines) + "\n")
    dirs = [os.path.join(root, f"{rng.choice(WORDS)}_{d}") for d in range(50)]
    for directory in dirs:
        os.makedirs(directory, exist_ok=True)
    for i in range(4999):
        word = rng.choice(WORDS)
        name = f"{word}{rng.randrange(6000)}.{rng.choice(EXTENSIONS)}" if i % 3 else f"{word}_{i}.py"
        open(os.path.join(dirs[i % 50], name), "w").close()


def git_files(root: str) -> set[str]:
    out = subprocess.run(["git", "-C", root, "-c", "core.quotePath=false", "ls-files", "-z", "--others",
                          "--exclude-standard"], capture_output=True, check=True)
    return {os.fsdecode(p) for p in out.stdout.split(b"\0") if p}


def our_files(root: str) -> set[str]:
    options = WalkOptions(all_languages=True)
    return {r.rel for r in walk(root, options) if isinstance(r, WalkedFile)}


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def compare(root: str, runs: int) -> tuple[list[float], list[float], list[float], list[float], set[str], set[str]]:
    """Wall and CPU seconds of git and of ours, runs interleaved so that a busy machine
    slows both alike."""
    git_wall, git_cpu, our_wall, our_cpu = [], [], [], []
    by_git: set[str] = set()
    ours: set[str] = set()
    for _ in range(runs):
        start, cpu = time.perf_counter(), _children_cpu()
        by_git = git_files(root)
        git_wall.append(time.perf_counter() - start)
        git_cpu.append(_children_cpu() - cpu)
        start, cpu = time.perf_counter(), time.process_time()
        ours = our_files(root)
        our_wall.append(time.perf_counter() - start)
        our_cpu.append(time.process_time() - cpu)
    return git_wall, git_cpu, our_wall, our_cpu, by_git, ours


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--keep", metavar="DIR", help="build the trees in DIR and keep them")
    args = parser.parse_args()
    if shutil.which("git") is None:
        print("git is not installed: nothing to compare with", file=sys.stderr)
        return 2
    version = subprocess.run(["git", "--version"], capture_output=True, text=True).stdout.strip()
    base = args.keep or tempfile.mkdtemp(prefix="walk_bench_")
    env_home = tempfile.mkdtemp(prefix="walk_bench_home_")
    # Neither side may read the user's global ignore file or config.
    os.environ["HOME"] = env_home
    os.environ["XDG_CONFIG_HOME"] = env_home
    os.environ["GIT_CONFIG_NOSYSTEM"] = "1"
    print(f"{version}; python {sys.version.split()[0]}; medians of {args.runs} interleaved runs; "
          "seconds of wall clock and of CPU (user+system)")
    print(f"{'tree':<14} {'files':>8} {'ignores':>7} {'patterns':>8} {'git wall':>9} {'ours wall':>9} "
          f"{'ratio':>6} {'git cpu':>8} {'ours cpu':>8} {'ratio':>6}  agree")
    try:
        for name, build in (("many-ignores", build_many_ignores), ("many-patterns", build_many_patterns)):
            root = os.path.join(base, name)
            os.makedirs(root, exist_ok=True)
            subprocess.run(["git", "init", "-q", root], check=True)
            build(root, random.Random(12))
            files = ignores = patterns = 0
            for directory, subdirs, names in os.walk(root):
                subdirs[:] = [d for d in subdirs if d != ".git"]
                files += len(names)
                if ".gitignore" in names:
                    ignores += 1
                    with open(os.path.join(directory, ".gitignore")) as handle:
                        patterns += sum(1 for line in handle if line.strip() and not line.startswith("#"))
            git_wall, git_cpu, our_wall, our_cpu, by_git, ours = compare(root, args.runs)
            agree = "yes" if ours == by_git else f"NO ({len(ours ^ by_git)} differ)"
            gw, ow = statistics.median(git_wall), statistics.median(our_wall)
            gc, oc = statistics.median(git_cpu), statistics.median(our_cpu)
            print(f"{name:<14} {files:>8,} {ignores:>7} {patterns:>8,} {gw:>9.3f} {ow:>9.3f} {ow / gw:>5.1f}x "
                  f"{gc:>8.3f} {oc:>8.3f} {oc / gc:>5.1f}x  {agree}")
    finally:
        shutil.rmtree(env_home, ignore_errors=True)
        if not args.keep:
            shutil.rmtree(base, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
