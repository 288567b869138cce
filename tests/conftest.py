"""What every test shares: the Hypothesis profile, and a small git repository with a
history, built in a temporary folder, for the history queries' tests (workspace, engine,
CLI and explorer).

**Property tests run derandomized**: the ``ci`` profile, loaded here for every run (the
suite, CI, ``scripts/mutate``), draws the same examples on every run from a hash of each
test, keeps no example database, and sets no time limits (a loaded machine must not fail a
test), so whether a test passes never depends on a seed, on earlier runs or on the load.
``pytest --hypothesis-profile explore`` draws new examples each run (failures are kept in
``.hypothesis/``); an edge it finds becomes an explicit ``@example`` or test.

``build_history_repo(folder)`` writes six Python modules of six functions each, one
topic per function with words of its own, then a commit per function that changes its
body, with a message in the topic's words (these make the queries), and one commit per
trap the screening must catch (a merge, a bot, a release, a revert, a short message,
docs only, tests only, formatting only, a rename only, module-level code only, too many
files, a definition deleted since, a message with trailers and issue references, and a
file renamed after it was changed). Dates, authors and contents are fixed: the same
repository, commit for commit, every time.

``notebook_file(path, ...)`` writes a notebook like one saved after a run: Markdown and code
cells, each code cell with a plot (a PNG as base64) among its outputs, so megabytes of file
hold kilobytes of cells; ``extra_cells`` are put after the first cell.
"""

from __future__ import annotations

import base64
import json
import os
import random
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from checkout_guard import pytest_sessionfinish, pytest_sessionstart  # noqa: F401 (hooks: the checkout stays clean)
from hypothesis import HealthCheck, settings

import explorer

settings.register_profile("ci", derandomize=True, database=None, deadline=None, print_blob=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("explore", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci")


#: The folder the tests import the package from: subprocesses they start import it from there too.
IMPORT_ROOT = Path(explorer.__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def _outside_the_checkout(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test runs in an empty folder of its own, never in the checkout: what a test
    writes to the current directory (an export's default place, a key typed into the wrong
    widget of the explorer) lands there, and nothing a developer left in the checkout is
    read. A subprocess (``python -m explorer``) imports the package the tests import, as
    the checkout on the path did before."""
    monkeypatch.chdir(tmp_path_factory.mktemp("cwd"))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, (str(IMPORT_ROOT), os.environ.get("PYTHONPATH")))))


@pytest.fixture(autouse=True)
def _own_cache_folder(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test its own, empty cache folder (embedding vectors, history definitions): never
    the user's ``~/.cache``, never one an earlier test filled."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("cache")))

#: (module, function, words of its body). The commit changing it says what it does in these words.
TOPICS = [
    ("network", "open_socket", "socket connect timeout address family"),
    ("network", "retry_request", "retry backoff attempts exponential delay"),
    ("network", "read_chunked", "chunked transfer encoding body stream"),
    ("network", "parse_status", "status line reason phrase protocol"),
    ("network", "close_pool", "connection pool release idle sockets"),
    ("network", "resolve_proxy", "proxy environment variable tunnel"),
    ("storage", "write_journal", "journal append fsync durable record"),
    ("storage", "compact_segments", "compaction segment merge tombstone"),
    ("storage", "load_snapshot", "snapshot restore checkpoint image"),
    ("storage", "evict_cache", "eviction least recently used capacity"),
    ("storage", "lock_file", "advisory lock exclusive handle"),
    ("storage", "checksum_block", "checksum crc block corruption"),
    ("text", "wrap_paragraph", "wrap paragraph width indentation"),
    ("text", "strip_ansi", "ansi escape colour sequences terminal"),
    ("text", "normalize_newlines", "newline carriage return windows"),
    ("text", "slugify_title", "slug title hyphen lowercase"),
    ("text", "pluralize_word", "plural noun suffix irregular"),
    ("text", "truncate_middle", "truncate ellipsis middle characters"),
    ("shell", "quote_argument", "quote argument shell metacharacter"),
    ("shell", "expand_glob", "glob wildcard pattern expansion"),
    ("shell", "find_executable", "executable search path permission"),
    ("shell", "spawn_pager", "pager less environment paging"),
    ("shell", "read_password", "password prompt echo hidden"),
    ("shell", "detect_terminal", "terminal width tty columns"),
    ("config", "merge_profiles", "profile override precedence layered"),
    ("config", "parse_duration", "duration seconds minutes units suffix"),
    ("config", "expand_variables", "variable interpolation dollar braces"),
    ("config", "validate_port", "port range integer validation"),
    ("config", "read_dotenv", "dotenv file key value pairs"),
    ("config", "coerce_boolean", "boolean truthy falsy strings"),
    ("events", "schedule_timer", "timer schedule interval tick"),
    ("events", "debounce_handler", "debounce handler burst quiet"),
    ("events", "dispatch_signal", "signal dispatch subscribers broadcast"),
    ("events", "drain_queue", "queue drain backlog consumer"),
    ("events", "throttle_calls", "throttle rate limit token bucket"),
    ("events", "cancel_task", "cancel task cooperative shutdown"),
]
MODULES = list(dict.fromkeys(module for module, _, _ in TOPICS))


def function_source(name: str, words: str, version: int) -> str:
    parts = words.split()
    body = [f"    {part}_value = {version} + len({name!r})  # {words}" for part in parts]
    return f"def {name}(data):\n" + "\n".join(body) + "\n    return data\n"


def module_source(module: str, versions: dict[str, int], header: str = "import os\n") -> str:
    functions = [(name, words) for mod, name, words in TOPICS if mod == module and name in versions]
    return header + "\n\n" + "\n\n".join(function_source(n, w, versions[n]) for n, w in functions)


class Repo:
    """Commits with fixed authors and dates (a minute apart)."""

    def __init__(self, root: Path):
        self.root = root
        self.clock = 1_700_000_000
        self.env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
        for name in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE"):
            self.env.pop(name, None)
        self.git("init", "-q", "-b", "main")

    def git(self, *args: str, author: str = "Ada Lovelace <ada@example.com>") -> str:
        name, email = author.rsplit(" <", 1)
        self.clock += 60
        env = {**self.env, "GIT_AUTHOR_NAME": name, "GIT_AUTHOR_EMAIL": email.rstrip(">"),
               "GIT_COMMITTER_NAME": name, "GIT_COMMITTER_EMAIL": email.rstrip(">"),
               "GIT_AUTHOR_DATE": f"{self.clock} +0000", "GIT_COMMITTER_DATE": f"{self.clock} +0000"}
        done = subprocess.run(["git", "-c", "commit.gpgsign=false", *args], cwd=self.root, env=env,
                              capture_output=True, text=True, check=True)
        return done.stdout

    def write(self, path: str, text: str) -> None:
        target = self.root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)

    def commit(self, message: str, *paths: str, author: str = "Ada Lovelace <ada@example.com>") -> None:
        self.git("add", "-A", *paths)
        self.git("commit", "-q", "--allow-empty", "-m", message, author=author)


def build_history_repo(root: Path) -> Path:
    """The repository described in the module docstring, in ``root``."""
    root.mkdir(parents=True, exist_ok=True)
    repo = Repo(root)
    versions = {module: {name: 0 for mod, name, _ in TOPICS if mod == module} for module in MODULES}
    for module in MODULES:
        repo.write(f"src/app/{module}.py", module_source(module, versions[module]))
    repo.write("README.md", "# app\n")
    repo.write("tests/test_app.py", "def test_nothing():\n    assert True\n")
    repo.commit("Initial import of the application and its modules")  # too many definitions
    for module, name, words in TOPICS:
        versions[module][name] += 1
        repo.write(f"src/app/{module}.py", module_source(module, versions[module]))
        first, second, third = words.split()[:3]
        repo.commit(f"Handle the {first} {second} case when the {third} is missing")
    # the traps, each screened out for its own reason
    repo.write("README.md", "# app\n\nMore words about the application.\n")
    repo.commit("Describe the application in the readme file")  # no code
    repo.write("tests/test_app.py", "def test_nothing():\n    assert 1 + 1 == 2\n")
    repo.commit("Check the arithmetic in the smoke test properly")  # tests only
    versions["network"]["open_socket"] += 1
    repo.write("src/app/network.py", module_source("network", versions["network"]))
    repo.commit("Bump the socket dependency to the newest upstream", author="dependabot[bot] <bot@github.com>")
    versions["storage"]["lock_file"] += 1
    repo.write("src/app/storage.py", module_source("storage", versions["storage"]))
    repo.commit("Release version 2.1.0")
    versions["text"]["strip_ansi"] += 1
    repo.write("src/app/text.py", module_source("text", versions["text"]))
    repo.commit('Revert "Handle the ansi escape case when the colour is missing"')
    versions["text"]["wrap_paragraph"] += 1
    repo.write("src/app/text.py", module_source("text", versions["text"]))
    repo.commit("Fix typo")
    text = (root / "src/app/config.py").read_text()
    repo.write("src/app/config.py", text.replace("return data\n", "return  data\n"))  # whitespace only
    repo.commit("Reformat the configuration module for the style checker")
    repo.write("src/app/events.py", (root / "src/app/events.py").read_text().replace("import os\n", "import os\nimport sys\n"))
    repo.commit("Import the system module for later use in events")  # module level only
    for module in MODULES:  # every module at once: too many files
        repo.write(f"src/app/{module}.py", (root / f"src/app/{module}.py").read_text() + "\n# reviewed\n")
    repo.commit("Review every module of the application for the audit")
    repo.git("mv", "src/app/shell.py", "src/app/commands.py")
    repo.commit("Move the shell helpers into the commands module")  # a rename only: later paths follow it
    versions["shell"]["quote_argument"] += 1
    repo.write("src/app/commands.py", module_source("shell", versions["shell"]) + "\n# reviewed\n")
    repo.commit("Escape every shell metacharacter in a quoted argument\n\nThe quote_argument helper missed "
                "backticks.\n\nFixes #123, see https://example.com/issues/123\nSigned-off-by: Ada <ada@example.com>\n"
                "Co-authored-by: Bob <bob@example.com>")
    # a branch merged without fast-forward: its commit is a query, the merge is not
    repo.git("checkout", "-q", "-b", "feature")
    versions["events"]["drain_queue"] += 1
    repo.write("src/app/events.py", module_source("events", versions["events"], "import os\nimport sys\n")
               + "\n# reviewed\n")
    repo.commit("Stop draining the queue when the consumer backlog is empty")
    repo.git("checkout", "-q", "main")
    repo.git("merge", "-q", "--no-ff", "-m", "Merge branch 'feature' into main", "feature")
    # a function changed, then deleted: its commit's target is gone
    repo.write("src/app/extra.py", "def obsolete_helper(data):\n    legacy_value = 1\n    return data\n")
    repo.commit("Add an obsolete helper for the legacy importer")
    repo.write("src/app/extra.py", "def obsolete_helper(data):\n    legacy_value = 2\n    return data\n")
    repo.commit("Tune the legacy importer helper for old archives")
    repo.write("src/app/extra.py", "VERSION = 1\n")
    repo.commit("Drop the legacy importer now that archives are gone")
    return root


@pytest.fixture(scope="session")
def history_repo_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_history_repo(tmp_path_factory.mktemp("history") / "repo")


@pytest.fixture
def history_repo(history_repo_template: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh copy of the repository (tests may change it), with the history cache in a
    temporary folder."""
    copy = tmp_path / "repo"
    shutil.copytree(history_repo_template, copy, symlinks=True)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return copy


@pytest.fixture(scope="session")
def history_topics() -> list[tuple[str, str, str]]:
    """The repository's topics: (module, function, words), one query each."""
    return list(TOPICS)


NotebookFile = Callable[..., Path]


@pytest.fixture
def notebook_file() -> NotebookFile:
    def write(path: Path, *, plots: int = 40, plot_bytes: int = 110_000, source_lines: int = 3,
              extra_cells: tuple[dict[str, object], ...] = ()) -> Path:
        noise = random.Random(path.name)  # fixed bytes: the same file every run
        cells: list[dict[str, object]] = []
        for i in range(plots):
            png = b"\x89PNG\r\n\x1a\n" + noise.randbytes(plot_bytes)
            cells.append({"cell_type": "markdown", "metadata": {}, "source": [f"## Step {i}\n", "Plot the result.\n"]})
            cells.append({
                "cell_type": "code", "metadata": {}, "execution_count": i + 1,
                "source": [f"def step_{i}(x):\n", *(f"    x = x * {j} + {i}\n" for j in range(source_lines)),
                           "    return x\n", "\n", f"plot(step_{i})"],
                "outputs": [{"output_type": "display_data", "metadata": {},
                             "data": {"image/png": base64.b64encode(png).decode(), "text/plain": ["<Figure>"]}}],
            })
        cells[1:1] = extra_cells
        notebook = {"nbformat": 4, "nbformat_minor": 5, "cells": cells,
                    "metadata": {"kernelspec": {"language": "python", "name": "python3"}}}
        path.write_text(json.dumps(notebook, indent=1))
        return path

    return write
