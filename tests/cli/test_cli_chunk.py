"""``chunk-explorer chunk``: formats, walking, settings, errors and exit statuses."""

from __future__ import annotations

import json
import os

import pytest

import explorer
from explorer.cli import chunk_cmd, frame
from explorer.engine.options import ChunkOptions
from explorer.workspace.export import JsonDocumentWriter
from explorer.workspace.ids import chunk_ids, content_hash, settings_fingerprint
from explorer.workspace.settings import SETTINGS_FILE


def paths_of(doc) -> list[str]:
    return [f["path"] for f in doc["files"]]


def with_ids(rel: str, chunks, options: ChunkOptions) -> list[dict]:
    """The chunks as the export writes them: each with its stable id first."""
    ids = chunk_ids(rel, [c.contextualized_text for c in chunks], options)
    return [{"id": id_, **c.to_dict()} for id_, c in zip(ids, chunks)]


def test_json_document_on_stdout_summary_on_stderr(cli, project, py_source) -> None:
    run = cli("chunk", project, "--max-size", "60")
    assert run.code == 0, run.err
    doc = run.json()
    assert doc["tool"] == "chunk-explorer" and doc["version"] == explorer.__version__
    assert doc["root"] == str(project)
    assert doc["options"]["max_size"] == 60
    assert paths_of(doc) == ["README.md", "src/app.ts", "src/pkg/mod.py"]
    mod = doc["files"][2]
    assert mod["language"] == "python"
    expected = explorer.chunk("src/pkg/mod.py", py_source, max_size=60)
    assert mod["chunks"] == with_ids("src/pkg/mod.py", expected, ChunkOptions(max_size=60))
    assert mod["fileHash"] == content_hash(py_source.encode())
    assert doc["fingerprint"] == settings_fingerprint(ChunkOptions(max_size=60))
    assert "".join(c["text"] for c in mod["chunks"]) == py_source
    assert {"path": "data.json", "reason": "binary",
            "detail": "not a text file (contains NUL bytes)"} in doc["skipped"]
    assert {"path": "logo.png", "reason": "unknown-language"} in doc["skipped"]
    assert {"path": "node_modules/", "reason": "excluded-dir"} in doc["skipped"]
    assert doc["summary"]["files"] == 3
    assert doc["summary"]["chunks"] == sum(len(f["chunks"]) for f in doc["files"])
    assert "Chunked 3 files into" in run.err
    assert "1 binary" in run.err and "1 dependency, cache or build directory" in run.err


def test_jsonl_one_chunk_per_line_with_its_path(cli, project) -> None:
    run = cli("chunk", project / "src", "--format", "jsonl", "--max-size", "40")
    assert run.code == 0, run.err
    lines = [json.loads(line) for line in run.out.splitlines()]
    assert {line["path"] for line in lines} == {"app.ts", "pkg/mod.py"}
    mod_lines = [line for line in lines if line["path"] == "pkg/mod.py"]
    assert [line["index"] for line in mod_lines] == list(range(len(mod_lines)))
    assert all(line["language"] == "python" and "contextualizedText" in line for line in mod_lines)
    source = (project / "src" / "pkg" / "mod.py").read_bytes()
    assert {line["fileHash"] for line in mod_lines} == {content_hash(source)}
    assert [line["id"] for line in mod_lines] == chunk_ids(
        "pkg/mod.py", [line["contextualizedText"] for line in mod_lines], ChunkOptions(max_size=40))


def test_output_file_written_atomically_and_not_chunked_next_time(cli, project) -> None:
    target = project / "chunks.json"
    target.write_text("old content")
    run = cli("chunk", project, "-o", target, "--indent", "2")
    assert run.code == 0, run.err
    assert run.out == ""
    doc = json.loads(target.read_text())
    assert "chunks.json" not in paths_of(doc)
    assert f"Wrote {target}" in run.err
    again = cli("chunk", project, "-o", target)
    assert "chunks.json" not in paths_of(json.loads(target.read_text()))
    assert again.code == 0
    assert sorted(p.name for p in project.iterdir() if p.name.startswith(".")) == []  # no temp files


def test_interrupted_run_leaves_existing_output_untouched(cli, project, monkeypatch) -> None:
    target = project.parent / "out.json"
    target.write_text("previous export")
    calls = []
    real_add = JsonDocumentWriter.add_encoded

    def interrupt(self, text):  # Ctrl-C after the first file record was written
        calls.append(text)
        if len(calls) == 2:
            raise KeyboardInterrupt
        real_add(self, text)

    monkeypatch.setattr(JsonDocumentWriter, "add_encoded", interrupt)
    run = cli("chunk", project, "-o", target, "--jobs", "1")
    assert run.code == 130
    assert "interrupted" in run.err
    assert target.read_text() == "previous export"
    assert sorted(os.listdir(project.parent)) == ["out.json", "proj"]


def test_unwritable_output_is_a_usage_error_before_any_work(cli, project, monkeypatch) -> None:
    called = []
    monkeypatch.setattr(chunk_cmd, "write_export", lambda *a, **k: called.append(1))
    run = cli("chunk", project, "-o", project / "no" / "such" / "dir.json")
    assert run.code == 2
    assert "does not exist; create it first" in run.err
    assert called == []
    run = cli("chunk", project, "-o", project)
    assert run.code == 2 and "is a directory" in run.err


def test_a_failing_file_gives_exit_1_and_the_rest_is_kept(cli, project, monkeypatch) -> None:
    import explorer.engine.api as api  # the batch looks the chunker up there when it first chunks

    real = api.chunk_parsed

    def broken(parsed, options, **kwargs):
        if parsed.path.endswith("app.ts"):
            raise RuntimeError("engine bug on this file")
        return real(parsed, options, **kwargs)

    monkeypatch.setattr(api, "chunk_parsed", broken)
    run = cli("chunk", project, "--jobs", "1")
    assert run.code == 1
    doc = run.json()
    assert paths_of(doc) == ["README.md", "src/app.ts", "src/pkg/mod.py"]
    failed = doc["files"][1]
    assert failed["error"] == {"kind": "error", "message": "RuntimeError: engine bug on this file"}
    assert doc["files"][2]["chunks"]
    assert doc["summary"]["failed"] == 1
    assert "Failed 1 file:" in run.err and "src/app.ts: RuntimeError: engine bug" in run.err
    assert "Fix or --exclude the failing files" in run.err


def test_undecodable_and_binary_files_are_skipped_with_reasons(cli, tmp_path) -> None:
    (tmp_path / "ok.py").write_text("x = 1\n")
    (tmp_path / "latin.py").write_bytes("s = 'café'\n".encode("latin-1"))
    (tmp_path / "blob.js").write_bytes(b"var a = 1;\x00\x01\x02")
    run = cli("chunk", tmp_path)
    assert run.code == 0
    doc = run.json()
    assert paths_of(doc) == ["ok.py"]
    reasons = {s["path"]: s["reason"] for s in doc["skipped"]}
    assert reasons == {"blob.js": "binary", "latin.py": "undecodable"}
    assert "1 binary" in run.err and "1 not valid UTF-8" in run.err


def test_gitignore_nested_negation_and_no_gitignore(cli, tmp_path) -> None:
    (tmp_path / ".gitignore").write_text("*.gen.py\n/generated/\n")
    (tmp_path / "generated").mkdir()
    (tmp_path / "generated" / "g.py").write_text("g = 1\n")
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / ".gitignore").write_text("!wanted.gen.py\n")
    for rel in ("a.py", "a.gen.py", "lib/b.gen.py", "lib/wanted.gen.py"):
        (tmp_path / rel).write_text("v = 1\n")
    doc = cli("chunk", tmp_path, "--exclude", ".gitignore").json()
    assert paths_of(doc) == ["a.py", "lib/wanted.gen.py"]
    gitignored = {s["path"] for s in doc["skipped"] if s["reason"] == "gitignored"}
    assert gitignored == {"a.gen.py", "generated/", "lib/b.gen.py"}
    everything = cli("chunk", tmp_path, "--no-gitignore", "--exclude", ".gitignore").json()
    assert paths_of(everything) == ["a.gen.py", "a.py", "generated/g.py", "lib/b.gen.py", "lib/wanted.gen.py"]


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symlinks")
def test_symlink_loop_is_reported_not_followed(cli, tmp_path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "m.py").write_text("m = 1\n")
    os.symlink(tmp_path, tmp_path / "pkg" / "loop")
    run = cli("chunk", tmp_path)
    assert run.code == 0
    doc = run.json()
    assert paths_of(doc) == ["pkg/m.py"]
    assert {"path": "pkg/loop/", "reason": "symlink-loop", "detail": f"-> {tmp_path}"} in doc["skipped"]


def test_include_exclude_max_file_size_and_language(cli, project) -> None:
    assert paths_of(cli("chunk", project, "--include", "*.py").json()) == ["src/pkg/mod.py"]
    assert paths_of(cli("chunk", project, "--exclude", "src").json()) == ["README.md"]
    doc = cli("chunk", project, "--max-file-size", "100").json()
    assert paths_of(doc) == ["README.md", "src/app.ts"]
    assert {s["path"]: s["reason"] for s in doc["skipped"]}["src/pkg/mod.py"] == "too-large"
    forced = cli("chunk", project / "README.md", "--language", "python").json()
    assert forced["files"][0]["language"] == "python"
    assert forced["options"]["language"] == "python"


def test_named_files_are_taken_and_paths_are_relative_to_their_common_root(cli, project) -> None:
    run = cli("chunk", project / "src" / "pkg" / "mod.py", project / "src" / "app.ts")
    doc = run.json()
    assert doc["root"] == str(project / "src")
    assert paths_of(doc) == ["pkg/mod.py", "app.ts"]


def test_settings_file_and_flag_precedence(cli, project, py_source) -> None:
    (project / SETTINGS_FILE).write_text(
        '[chunk]\nmax_size = 45\noverlap_lines = 1\ncontext = "none"\n[walk]\nexclude = ["README.md"]\n'
    )
    doc = cli("chunk", project).json()
    assert doc["options"]["max_size"] == 45  # file over defaults
    assert doc["options"]["overlap_lines"] == 1
    assert doc["options"]["context_mode"] == "none"
    assert doc["settings"] == str(project / SETTINGS_FILE)
    assert "README.md" not in paths_of(doc)
    flagged = cli("chunk", project, "--max-size", "90", "--context", "full", "--exclude", "*.ts").json()
    assert flagged["options"]["max_size"] == 90  # flags over the file
    assert flagged["options"]["context_mode"] == "full"
    assert flagged["options"]["overlap_lines"] == 1  # not overridden: still from the file
    # --exclude adds to the file's list; the settings file itself is never chunked
    assert paths_of(flagged) == ["src/pkg/mod.py"]
    assert {"path": SETTINGS_FILE, "reason": "settings-file"} in flagged["skipped"]
    # the chunks really use the effective options
    mod = next(f for f in flagged["files"] if f["path"] == "src/pkg/mod.py")
    expected = explorer.chunk("src/pkg/mod.py", py_source, max_size=90, overlap_lines=1)
    assert mod["chunks"] == with_ids("src/pkg/mod.py", expected, ChunkOptions(max_size=90, overlap_lines=1))
    ignored = cli("chunk", project, "--no-settings").json()
    assert ignored["options"]["max_size"] == 1500 and "settings" not in ignored
    other = project.parent / "other.toml"
    other.write_text("[chunk]\nmax_size = 33\n")
    assert cli("chunk", project, "--settings", other).json()["options"]["max_size"] == 33


def test_invalid_settings_file_is_a_usage_error(cli, project) -> None:
    (project / SETTINGS_FILE).write_text('[chunk]\nsize_unit = "bytes"\n')
    run = cli("chunk", project)
    assert run.code == 2
    assert str(project / SETTINGS_FILE) in run.err and "size_unit" in run.err
    assert run.out == ""


@pytest.mark.parametrize("argv, message", [
    (["chunk"], "the following arguments are required: PATH"),
    (["chunk", ".", "--max-size", "0"], "max_size must be a whole number of at least 1, got 0"),
    (["chunk", ".", "--max-size", "big"], "max_size must be a whole number of at least 1, got 'big'"),
    (["chunk", ".", "--size-unit", "bytes"], "size_unit must be one of nws, chars, lines, tokens, got 'bytes'"),
    (["chunk", ".", "--language", "cobol"], "language cobol cannot be forced"),
    (["chunk", ".", "--format", "xml"], "invalid choice"),
    (["chunk", ".", "--bogus"], "unrecognized arguments"),
    (["chunk", ".", "--max-file-size", "lots"], "not a size"),
    (["chunk", ".", "--language", "klingon"], "unknown language 'klingon'"),
    (["chunk", "does/not/exist"], "no such file or directory: does/not/exist"),
    (["chunk", ".", "--jobs", "0"], "must be at least 1"),
])
def test_usage_errors_exit_2(cli, tmp_path, monkeypatch, argv, message) -> None:
    monkeypatch.chdir(tmp_path)
    run = cli(*argv)
    assert run.code == 2
    assert message in run.err
    assert run.out == ""


def test_progress_bar_only_on_a_terminal(cli, project, monkeypatch) -> None:
    seen = []
    real = chunk_cmd.progress_bar

    def spy(total, description, enabled):
        seen.append((total, enabled))
        return real(total, description, enabled)

    monkeypatch.setattr(chunk_cmd, "progress_bar", spy)
    cli("chunk", project)
    monkeypatch.setattr(frame, "stderr_is_terminal", lambda: True)
    cli("chunk", project)
    cli("chunk", project, "--quiet")
    assert seen == [(4, False), (4, True), (4, False)]


def test_quiet_prints_no_summary(cli, project) -> None:
    run = cli("chunk", project, "-q")
    assert run.code == 0 and run.err == ""


def test_empty_directory(cli, tmp_path) -> None:
    # Nothing to chunk is a run that did not do what it was asked: exit 1, as every verb.
    run = cli("chunk", tmp_path)
    assert run.code == 1
    assert run.json()["files"] == []
    assert "No files to chunk: check the paths, or --include/--exclude." in run.err


# -- names that are not UTF-8, one pipeline, options of the run ---------------------------
@pytest.fixture
def latin1_name_tree(tmp_path):
    root = tmp_path / "tree"
    root.mkdir()
    try:
        with open(os.path.join(os.fsencode(root), b"caf\xe9.py"), "w") as handle:
            handle.write("x = 1\n")
    except (OSError, UnicodeError):
        pytest.skip("this file system refuses names that are not UTF-8")
    (root / "ok.py").write_text("y = 2\n")
    return root


@pytest.mark.parametrize("fmt", ["json", "jsonl"])
def test_a_name_that_is_not_utf8_comes_out_escaped_in_valid_json(cli, latin1_name_tree, tmp_path, fmt) -> None:
    target = tmp_path / f"out.{fmt}"
    run = cli("chunk", latin1_name_tree, "--format", fmt, "-o", target)
    assert run.code == 0, run.err
    text = target.read_bytes().decode("utf-8")  # strict: raises on invalid UTF-8
    lines = text.splitlines()
    paths = paths_of(json.loads(text)) if fmt == "json" else [json.loads(line)["path"] for line in lines]
    assert paths == ["caf\\xe9.py", "ok.py"]  # the byte 0xE9 as the four characters \xe9


@pytest.mark.parametrize("fmt", ["json", "jsonl"])
def test_a_name_that_is_not_utf8_on_stdout_is_valid_utf8(latin1_name_tree, fmt) -> None:
    import subprocess
    import sys

    env = {**os.environ, "LC_ALL": "C", "PYTHONIOENCODING": ""}
    done = subprocess.run([sys.executable, "-m", "explorer", "chunk", str(latin1_name_tree), "--format", fmt, "-q"],
                          capture_output=True, timeout=120, env=env)
    assert done.returncode == 0, done.stderr
    text = done.stdout.decode("utf-8")
    assert "caf\\\\xe9.py" in text  # JSON for the characters caf\xe9.py


def test_summary_counts_every_file_once(cli, project) -> None:
    doc = cli("chunk", project).json()
    summary = doc["summary"]
    records = doc["files"]
    assert summary["files"] == sum(1 for f in records if "chunks" in f)
    assert summary["failed"] == sum(1 for f in records if "error" in f)
    assert sum(summary["skipped"].values()) == len(doc["skipped"])
    assert "data.json" not in paths_of(doc)  # binary: listed under skipped only
    assert set(summary) == {"files", "chunks", "bytes", "skipped", "failed", "seconds", "jobs"}


def test_the_explorer_export_writes_the_cli_document(cli, project, tmp_path) -> None:
    from explorer.engine.options import ChunkOptions
    from explorer.tui.export.write import export_tree

    cli_doc = cli("chunk", project, "--no-settings").json()
    target = tmp_path / "tree.json"
    result = export_tree(str(project), ChunkOptions(), None, str(target))
    tui_doc = json.loads(target.read_text())
    for doc in (cli_doc, tui_doc):
        doc["summary"].pop("seconds")
        doc["summary"].pop("jobs")
    assert tui_doc == cli_doc
    assert (result.files, len(result.skipped)) == (3, len(cli_doc["skipped"]))


def test_timeout_and_engine_flags_are_checked(cli, project, monkeypatch) -> None:
    run = cli("chunk", project, "--timeout", "0")
    assert run.code == 2 and "must be more than 0" in run.err
    run = cli("chunk", project, "--ray-address", "auto")
    assert run.code == 2 and "--ray-address needs --engine ray" in run.err
    run = cli("chunk", project, "--shared-storage")
    assert run.code == 2 and "--shared-storage needs --engine ray" in run.err
    import importlib.util

    real_find_spec = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "ray" else real_find_spec(name, *a))
    run = cli("chunk", project, "--engine", "ray")
    assert run.code == 2 and "pip install 'chunk-explorer[ray]'" in run.err
    monkeypatch.undo()
    doc = cli("chunk", project, "--timeout", "30").json()
    assert doc["summary"]["files"] == 3


def test_strict_fails_a_file_of_unknown_language(cli, tmp_path):
    notes = tmp_path / "notes.zzq"
    notes.write_text("hello world\n")
    relaxed = cli("chunk", notes, "--format", "jsonl", "-j", "1")
    assert relaxed.code == 0 and '"fallbackReason": "unknown language"' in relaxed.out
    strict = cli("chunk", notes, "--format", "jsonl", "-j", "1", "--strict")
    assert strict.code == 1 and strict.out == ""
    assert "Unsupported file type" in strict.err


@pytest.mark.parametrize("fit", [None, "embedded"])
def test_chunk_says_how_its_embedded_text_relates_to_the_limit(cli, tmp_path, fit) -> None:
    """One closing line counts the chunks whose embedded text (header + code) is over the
    limit, from the chunks themselves, and names what the limit binds."""
    source = "".join(f"def function_{i}(argument):\n    return argument * {i} + {i}\n\n\n" for i in range(30))
    (tmp_path / "mod.py").write_text(source)
    run = cli("chunk", tmp_path, "--max-size", "60", *(["--fit", fit] if fit else []))
    chunks = [c for f in run.json()["files"] for c in f["chunks"]]
    over = [c["embeddedSize"] for c in chunks if c["embeddedSize"] > 60]
    line = next(line for line in run.err.splitlines() if line.startswith("Embedded text"))
    assert line.startswith(f"Embedded text (header + overlap + code): {len(over)} of {len(chunks)} chunks over 60 nws")
    if fit is None:
        assert over and f", the largest {max(over)} (fit auto: the limit binds the code only; --fit embedded" in line
    else:
        assert not over and "(fit embedded: the limit binds the embedded text" in line
