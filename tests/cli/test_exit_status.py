"""One exit-status rule for every verb over PATH... (docs/cli.md, "Exit status"): the
same input gives the same status and the same words in chunk, stats, sweep and eval."""

from __future__ import annotations

import json

import pytest

VERBS = ("chunk", "stats", "sweep", "eval")
#: What each verb calls its work in the "No files to ..." line.
WORK = {"chunk": "chunk", "stats": "measure", "sweep": "sweep", "eval": "evaluate"}

DOCUMENTED = '''def scale(values, factor):
    """Multiply every value of the list by the factor and return the new list of values."""
    return [v * factor for v in values]
'''


@pytest.fixture
def tree(tmp_path):
    root = tmp_path / "tree"
    (root / "empty").mkdir(parents=True)
    (root / "code").mkdir()
    (root / "code" / "mod.py").write_text(DOCUMENTED)
    (root / "code" / "blob.py").write_bytes(b"\x00\x01binary\x00" * 40)
    return root


@pytest.mark.parametrize("verb", VERBS)
def test_an_empty_directory_exits_1_with_the_same_words(cli, tree, verb) -> None:
    run = cli(verb, tree / "empty", "-q")
    assert run.code == 1
    assert f"No files to {WORK[verb]}: check the paths, or --include/--exclude." in run.err


@pytest.mark.parametrize("verb", VERBS)
def test_a_skipped_file_named_on_the_command_line_exits_1_and_is_named(cli, tree, verb) -> None:
    run = cli(verb, tree / "code" / "blob.py", tree / "code" / "mod.py", "-q")
    assert run.code == 1
    assert "blob.py was named on the command line but skipped: binary" in run.err


@pytest.mark.parametrize("verb", VERBS)
def test_a_binary_file_found_by_walking_is_named_but_no_failure(cli, tree, verb) -> None:
    run = cli(verb, tree / "code")
    assert run.code == 0, run.err
    assert "Skipped 1 file or directory:" in run.err and "  1 binary: blob.py" in run.err


@pytest.mark.parametrize("verb", VERBS)
@pytest.mark.parametrize(("flag", "message"), [
    ("cobol", "language cobol cannot be forced: the COBOL grammar can hang on ordinary input"),
    ("klingon", "unknown language 'klingon'"),
])
def test_a_language_that_cannot_be_used_is_a_usage_error(cli, tree, verb, flag, message) -> None:
    run = cli(verb, tree / "code" / "mod.py", "--language", flag)
    assert run.code == 2 and run.out == ""
    assert f"argument --language: {message}" in run.err


@pytest.mark.parametrize(("verb", "json_flag"), [("stats", "--json"), ("sweep", "--json"), ("eval", "--json"),
                                                 ("chunk", "--format=json")])
def test_every_json_document_lists_the_skipped_files(cli, tree, verb, json_flag) -> None:
    run = cli(verb, tree / "code", json_flag, "-q")
    assert run.code == 0, run.err
    assert {"path": "blob.py", "reason": "binary", "detail": "not a text file (contains NUL bytes)"} in \
        run.json()["skipped"]


def test_jsonl_names_the_skipped_files_after_the_chunks(cli, tree) -> None:
    run = cli("chunk", tree / "code", "--format", "jsonl", "-q")
    records = [json.loads(line) for line in run.out.splitlines()]
    assert [r["path"] for r in records if "id" in r] == ["mod.py"]
    assert records[-1] == {"path": "blob.py", "skipped": {"reason": "binary",
                                                          "detail": "not a text file (contains NUL bytes)"}}


def test_the_summary_names_skipped_files_up_to_a_limit_per_reason(cli, tmp_path) -> None:
    for i in range(14):
        (tmp_path / f"notes{i:02}.xyz").write_text("some words\n")
    (tmp_path / "a.py").write_text("x = 1\n")
    run = cli("chunk", tmp_path, "--format", "jsonl")
    line = next(line for line in run.err.splitlines() if "unknown language" in line)
    assert line.startswith("  14 unknown language: notes00.xyz, notes01.xyz, ")
    assert line.endswith("notes09.xyz, and 4 more (all in the JSONL output)")
    assert run.code == 0  # left out by the walk's rules: named, no failure
    assert len([r for r in map(json.loads, run.out.splitlines()) if "skipped" in r]) == 14


@pytest.mark.parametrize("verb", ("sweep", "eval"))
def test_grid_points_that_cannot_differ_are_left_out_visibly(cli, tree, verb) -> None:
    run = cli(verb, tree / "code", "--max-size", "500", "--overlap-lines", "0,5", "--context", "none,full",
              "--json")
    assert run.code == 0, run.err
    assert ("Left out 500 · overlap 5 · context none: the same chunks as #1 (500 · overlap 0 · context none); "
            "under context none nothing but the chunk's text is embedded, so the overlap changes nothing.") in run.err
    document = run.json()
    assert [m["sameAs"] for m in document["merged"]] == [0]
    assert document["merged"][0]["options"]["overlap_lines"] == 5
    settings = document["settings"] if verb == "sweep" else document["settings"]
    assert len(settings) == 3  # none/0, full/0, full/5
