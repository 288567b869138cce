"""``chunk-explorer chunk``: formats, walking, settings, errors and exit statuses."""

from __future__ import annotations

import json
import os

import pytest

import explorer
from explorer.cli import chunk_cmd
from explorer.workspace.export import JsonDocumentWriter
from explorer.workspace.settings import SETTINGS_FILE


def paths_of(doc) -> list[str]:
    return [f["path"] for f in doc["files"]]


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
    assert mod["chunks"] == [c.to_dict() for c in expected]
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
    monkeypatch.setattr(chunk_cmd, "chunk_batch_stream", lambda *a, **k: called.append(1) or iter(()))
    run = cli("chunk", project, "-o", project / "no" / "such" / "dir.json")
    assert run.code == 2
    assert "does not exist; create it first" in run.err
    assert called == []
    run = cli("chunk", project, "-o", project)
    assert run.code == 2 and "is a directory" in run.err


def test_a_failing_file_gives_exit_1_and_the_rest_is_kept(cli, project, monkeypatch) -> None:
    import explorer.engine.api as api

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
    # --exclude adds to the file's list (the settings file is a TOML file like any other)
    assert paths_of(flagged) == [SETTINGS_FILE, "src/pkg/mod.py"]
    # the chunks really use the effective options
    mod = next(f for f in flagged["files"] if f["path"] == "src/pkg/mod.py")
    expected = explorer.chunk("src/pkg/mod.py", py_source, max_size=90, overlap_lines=1)
    assert mod["chunks"] == [c.to_dict() for c in expected]
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
    (["chunk", ".", "--max-size", "0"], "must be at least 1"),
    (["chunk", ".", "--max-size", "big"], "expected a whole number"),
    (["chunk", ".", "--size-unit", "bytes"], "invalid choice"),
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
    monkeypatch.setattr(chunk_cmd, "stderr_is_terminal", lambda: True)
    cli("chunk", project)
    cli("chunk", project, "--quiet")
    assert seen == [(4, False), (4, True), (4, False)]


def test_quiet_prints_no_summary(cli, project) -> None:
    run = cli("chunk", project, "-q")
    assert run.code == 0 and run.err == ""


def test_empty_directory(cli, tmp_path) -> None:
    run = cli("chunk", tmp_path)
    assert run.code == 0
    assert run.json()["files"] == []
    assert "No files found" in run.err
