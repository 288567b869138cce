"""The entry point: verbs, help, version, launching the explorer, and real subprocess runs."""

from __future__ import annotations

import json
import subprocess
import sys
import types

import pytest

import explorer
from explorer.engine.options import ChunkOptions
from explorer.workspace.settings import SETTINGS_FILE
from explorer.workspace.walk import WalkOptions

APP_MODULE = "explorer.tui.app"


def test_version_and_help(cli) -> None:
    run = cli("--version")
    assert run.code == 0 and run.out.strip() == f"chunk-explorer {explorer.__version__}"
    run = cli("--help")
    assert run.code == 0
    for verb in ("chunk", "stats", "languages"):
        assert verb in run.out
    run = cli("chunk", "--help")
    assert run.code == 0 and "--max-size" in run.out and "exit status" in run.out


@pytest.fixture
def fake_app(monkeypatch):
    """Stand in for explorer.tui.app and record how it is started."""
    calls = []
    module = types.ModuleType(APP_MODULE)

    def run(path, options, *, walk=None, settings_path=None, teach=None, serving=None, open_path=None):
        calls.append((path, options, walk, settings_path))
        return 0

    module.run = run
    monkeypatch.setitem(sys.modules, APP_MODULE, module)
    return calls


def test_no_verb_opens_the_explorer_with_settings_and_flags(cli, tmp_path, monkeypatch, fake_app) -> None:
    (tmp_path / SETTINGS_FILE).write_text("[chunk]\nmax_size = 700\noverlap_lines = 2\n[walk]\nexclude = [\"gen\"]\n")
    monkeypatch.chdir(tmp_path)
    assert cli().code == 0
    assert cli(tmp_path, "--max-size", "300", "--exclude", "*.md").code == 0
    (path1, options1, walk1, settings1), (path2, options2, walk2, _) = fake_app
    assert path1 == "." and options1 == ChunkOptions(max_size=700, overlap_lines=2)
    assert walk1 == WalkOptions(exclude=("gen",)) and settings1 == str(tmp_path / SETTINGS_FILE)
    assert path2 == str(tmp_path) and options2 == ChunkOptions(max_size=300, overlap_lines=2)
    assert walk2.exclude == ("gen", "*.md")


def test_a_file_path_reads_the_settings_of_its_directory(cli, tmp_path, fake_app) -> None:
    (tmp_path / SETTINGS_FILE).write_text("[chunk]\nmax_size = 321\n")
    (tmp_path / "a.py").write_text("a = 1\n")
    assert cli(tmp_path / "a.py").code == 0
    assert fake_app[0][1].max_size == 321


def test_explorer_usage_errors(cli, tmp_path, fake_app) -> None:
    run = cli(tmp_path / "missing")
    assert run.code == 2 and "no such file or directory" in run.err
    run = cli(tmp_path, "--size-unit", "bytes")
    assert run.code == 2 and "size_unit must be one of nws, chars, lines, tokens, got 'bytes'" in run.err
    assert fake_app == []


def test_missing_explorer_says_what_to_use_instead(cli, tmp_path, monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, APP_MODULE, None)  # import fails with ModuleNotFoundError
    run = cli(tmp_path)
    assert run.code == 1
    assert "the explorer is not available" in run.err
    assert "chunk-explorer chunk|stats|languages" in run.err


def python_m(*args, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "explorer", *map(str, args)],
                          capture_output=True, text=True, cwd=cwd, timeout=120)


def test_python_m_explorer_chunk_in_a_subprocess(project) -> None:
    done = python_m("chunk", project, "--format", "jsonl", "--jobs", "2", "--max-size", "50")
    assert done.returncode == 0, done.stderr
    records = [json.loads(line) for line in done.stdout.splitlines()]
    assert {r["path"] for r in records if "id" in r} == {"README.md", "src/app.ts", "src/pkg/mod.py"}
    # After the chunks, a line per input left out (a line without an id is no chunk).
    skipped = [r for r in records if "id" not in r]
    assert skipped and all(set(r) == {"path", "skipped"} and r["skipped"]["reason"] for r in skipped)
    assert records[-len(skipped):] == skipped
    assert "Chunked 3 files" in done.stderr
    assert "\x1b[" not in done.stderr  # no progress bar or colours when stderr is not a terminal


def test_python_m_explorer_usage_error_in_a_subprocess(tmp_path) -> None:
    done = python_m("chunk", tmp_path / "nowhere")
    assert done.returncode == 2
    assert done.stdout == ""
    assert "chunk-explorer: error: no such file or directory" in done.stderr


def imported_after(*argv: str) -> set[str]:
    """The top-level packages a command line of the launcher imports, in a fresh process."""
    code = ("import sys\nfrom explorer.__main__ import main\ntry:\n    main(sys.argv[1:])\nexcept SystemExit:\n"
            "    pass\nprint(' '.join(sorted({m.split('.')[0] for m in sys.modules})), file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True, timeout=120)
    return set(done.stderr.split()[-200:])


def test_version_and_a_hook_command_load_neither_textual_nor_numpy(project) -> None:
    for argv in (["--version"], ["chunk", str(project), "-q", "--no-settings"], ["languages", "--json"]):
        loaded = imported_after(*argv)
        assert "explorer" in loaded and not loaded & {"textual", "numpy"}, argv


def modules_imported_by(*argv: str) -> set[str]:
    """Every module ``python -X importtime -m explorer ARGV`` imports (its import log on stderr)."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "explorer", *argv],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return {line.rsplit("|", 1)[1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")}


def test_version_and_help_load_no_engine_grammar_or_evaluation() -> None:
    heavy = {"numpy", "textual", "tree_sitter", "tree_sitter_language_pack", "bm25s", "rich", "explorer.engine"}
    for argv in (["--version"], ["--help"]):
        loaded = modules_imported_by(*argv)
        assert "explorer.cli.main" in loaded, argv  # the log is read: the CLI itself is in it
        assert not loaded & heavy, (argv, loaded & heavy)


def test_an_unchanged_state_run_loads_no_chunker(tmp_path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "mod.py").write_text("def f():\n    return 1\n")
    (tmp_path / "src" / "app.ts").write_text("export const a = 1;\n")
    state = tmp_path / "state.json"
    argv = ("chunk", str(tmp_path / "src"), "--no-settings", "-q", "--state", str(state), "-o", str(tmp_path / "out.jsonl"))
    assert "explorer.engine.chunker" in modules_imported_by(*argv)  # the first run chunks every file
    again = modules_imported_by(*argv)
    assert (tmp_path / "out.jsonl").read_text() == ""  # nothing changed: no record
    assert "explorer.cli.chunk_cmd" in again
    # Nothing to chunk: neither the chunker, the parser and its grammars, the worker pool, nor numpy.
    unneeded = {"explorer.engine.chunker", "explorer.engine.api", "explorer.engine.parse", "explorer.engine.batch.task",
                "explorer.engine.batch.local", "tree_sitter", "tree_sitter_language_pack", "multiprocessing",
                "concurrent.futures", "numpy"}
    assert not again & unneeded, again & unneeded


def test_python_m_explorer_path_help_is_the_explorers(tmp_path) -> None:
    done = python_m(tmp_path, "--help")
    assert done.returncode == 0 and "Open the explorer on a directory" in done.stdout
    assert "--max-size" in done.stdout and "--no-settings" in done.stdout


def test_the_cli_alone_takes_commands_only(capsys) -> None:
    from explorer.cli.main import is_command
    from explorer.cli.main import main as cli_main

    assert is_command(["chunk"]) and is_command(["--version"]) and not is_command([]) and not is_command(["src"])
    assert cli_main(["src"]) == 2 and "invalid choice" in capsys.readouterr().err
