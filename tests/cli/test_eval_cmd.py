"""``chunk-explorer eval``: the JSON document, the table, query files, the embeddings flags."""

from __future__ import annotations

import importlib.util
import json
import shutil
from pathlib import Path

import pytest

import explorer

SAMPLES = Path(explorer.__file__).resolve().parent / "samples" / "files"
ENGINE = Path(explorer.__file__).resolve().parent / "engine"
KEYS = ("recall@5", "mrr@10", "ndcg@10", "recall@budget", "iou@5", "precision@5")


@pytest.fixture(scope="module")
def codebase(tmp_path_factory):
    """Real code with docs: the engine's own modules and the sample files."""
    root = tmp_path_factory.mktemp("code")
    shutil.copytree(ENGINE, root / "engine", ignore=shutil.ignore_patterns("__pycache__", "*.scm"))
    shutil.copytree(SAMPLES, root / "samples")
    return root


def _loopback():
    spec = importlib.util.spec_from_file_location(
        "loopback", Path(__file__).resolve().parents[1] / "engine" / "retrieval" / "loopback.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.EmbeddingServer


def test_json_document(cli, codebase):
    run = cli("eval", codebase, "--max-size", "500,2000", "--context", "none,full", "--json", "--no-settings",
              "-j", "2")
    assert run.code == 0, run.err
    document = run.json()
    assert document["queries"] > 150 and document["query_source"] == "docs"
    assert document["retriever"] == "bm25" and document["budget"] == 4000 and document["hit_threshold"] == 0.5
    settings = document["settings"]
    assert [(s["max_size"], s["context_mode"]) for s in settings] == [
        (500, "none"), (2000, "none"), (500, "full"), (2000, "full")]  # the context varies slowest, as in sweep
    for setting in settings:
        assert setting["size_unit"] == "nws" and setting["strategy"] == "ast" and setting["overlap_lines"] == 0
        assert setting["chunks"] > 0
        for key in KEYS:
            metric = setting["metrics"][key]
            low, high = metric["ci"]
            assert 0 <= low <= metric["value"] <= high <= 1
            delta = setting["delta"][key]
            assert delta["ci"][0] <= delta["value"] <= delta["ci"][1]
            assert delta["separated"] == (delta["ci"][0] > 0 or delta["ci"][1] < 0)
    assert settings[0]["chunks"] > settings[1]["chunks"]
    assert document["reference"] == 0 and all(v == 0 for v in (settings[0]["delta"][k]["value"] for k in KEYS))
    # big chunks find more in the top 5 and cover less of the target at equal context cost
    assert settings[1]["delta"]["recall@5"]["value"] > 0 and settings[1]["delta"]["recall@5"]["separated"]
    assert settings[1]["delta"]["iou@5"]["value"] < 0
    assert document["best"]["recall@5"] in (1, 3)
    assert document["run"]["masked_docs"] >= document["queries"]


def test_table_marks_the_best_and_says_what_is_not_separated(cli, codebase):
    run = cli("eval", codebase / "samples", "--max-size", "300,900", "--no-settings", "-j", "1")
    assert run.code == 0, run.err
    assert "★" in run.out and "reference" in run.out and "95% bootstrap" in run.out
    assert "recall@budget" in run.out and "█" in run.out
    assert "fewer than 300" in run.err  # the sample files give a few dozen queries


def test_query_file(cli, codebase, tmp_path):
    queries = tmp_path / "q.jsonl"
    lines = (SAMPLES / "inventory.py").read_text().splitlines()
    number = next(i for i, line in enumerate(lines, 1) if "def " in line)
    queries.write_text(json.dumps({"query": lines[number].strip(), "path": "samples/inventory.py",
                                   "start_line": number, "end_line": number + 3}) + "\n")
    run = cli("eval", codebase, "--queries", queries, "--max-size", "800", "--json", "--no-settings", "-j", "1")
    assert run.code == 0, run.err
    document = run.json()
    assert document["queries"] == 1 and document["query_source"] == str(queries)
    assert document["settings"][0]["metrics"]["recall@10"]["value"] == 1.0


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"query": "x", "path": "nowhere.py", "start_line": 1, "end_line": 2}\n',
         r"no file 'nowhere.py' among the files evaluated.*relative to the evaluated root \(/.*samples\), relative "
         r"to the current directory \(/.*\), or absolute"),
        ('{"query": "x", "path": "inventory.py", "start_line": 1, "end_line": 99999}\n', "has .* lines"),
        ("not json\n", "line 1: not JSON"),
        ("\n", "holds no queries"),
    ],
)
def test_bad_query_files_are_usage_errors(cli, codebase, tmp_path, content, message):
    queries = tmp_path / "q.jsonl"
    queries.write_text(content)
    run = cli("eval", codebase / "samples", "--queries", queries, "--no-settings", "-j", "1")
    assert run.code == 2
    assert "--queries" in run.err
    import re

    assert re.search(message, run.err)


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--retriever", "embeddings"], "needs --embed-url and --embed-model"),
        (["--embed-model", "m"], "go with --retriever embeddings"),
        (["--embed-url", "localhost:1"], "expected an http:// or https:// URL"),
        (["--hit-threshold", "0"], "above 0 and at most 1"),
        (["--queries", "docs,comments"], "neither query sources (docs, calls, types, history, comma-separated) nor"),
        (["--objective", "top3"], "invalid choice: 'top3'"),
    ],
)
def test_bad_flags(cli, codebase, flags, message):
    run = cli("eval", codebase / "samples", *flags, "--no-settings")
    assert run.code == 2 and message in run.err


def test_embeddings_endpoint(cli, codebase, tmp_path):
    with _loopback()() as server:
        run = cli("eval", codebase / "samples", "--embed-url", server.url, "--embed-model", "m",
                  "--document-prefix", "passage: ", "--embed-max-tokens", "50", "--embed-cache",
                  tmp_path / "v.sqlite", "--max-size", "400", "--json", "--no-settings", "-j", "1")
        assert run.code == 0, run.err
        document = run.json()
        assert document["retriever"] == "embeddings"
        notes = document["settings"][0]["notes"]
        assert notes["embedded"] == len(server.inputs) and notes["over_window"] > 0
        assert "over_window" in run.err or "longer than --embed-max-tokens" in run.err
        sent = len(server.inputs)
        again = cli("eval", codebase / "samples", "--embed-url", server.url, "--embed-model", "m",
                    "--document-prefix", "passage: ", "--embed-cache", tmp_path / "v.sqlite", "--max-size", "400",
                    "--json", "--no-settings", "-j", "1")
        assert again.code == 0 and len(server.inputs) == sent  # everything came from the cache


def test_an_unreachable_endpoint_fails_with_a_message(cli, codebase):
    with _loopback()() as server:
        url = server.url
    run = cli("eval", codebase / "samples", "--embed-url", url, "--embed-model", "m", "--embed-retries", "0",
              "--no-embed-cache", "--no-settings", "-j", "1")
    assert run.code == 1 and "cannot reach" in run.err


def test_sweep_with_retrieval_columns(cli, codebase):
    run = cli("sweep", codebase / "engine", "--retrieval", "--max-size", "500,1500", "--no-settings", "--no-chart",
              "-j", "1")
    assert run.code == 0, run.err
    header = next(line for line in run.out.splitlines() if "chunks" in line and "median" in line)
    assert "recall@5" in header and "recall@budget" in header
    assert run.out.count("★") == 3  # the best of each column, and the legend
    document = cli("sweep", codebase / "engine", "--retrieval", "--max-size", "500,1500", "--no-settings", "--json",
                   "-q", "-j", "1").json()
    retrieval = document["retrieval"]
    assert [s["max_size"] for s in retrieval["settings"]] == [s["options"]["max_size"] for s in document["settings"]]
    assert retrieval["queries"] > 100 and "recall@budget" in retrieval["settings"][0]["metrics"]
    assert "retrieval" not in cli("sweep", codebase / "engine", "--max-size", "500", "--json", "-q",
                                  "--no-settings").json()


def test_ast_against_lines_on_the_cut_definitions(cli, codebase):
    run = cli("eval", codebase / "engine", "--strategy", "ast,lines", "--max-size", "600", "--no-settings",
              "--no-chart", "-j", "1")
    assert run.code == 0, run.err
    assert "(lines) cuts and #1 (ast) keeps whole, ast - lines: recall@5" in " ".join(run.out.split())
    document = cli("eval", codebase / "engine", "--strategy", "ast,lines", "--max-size", "600", "--no-settings",
                   "--json", "-q", "-j", "1").json()
    [cut] = document["cut_by_lines"]
    assert (cut["setting"], cut["reference"]) == (0, 1) and 0 < cut["queries"] < document["queries"]
    assert set(cut["delta"]) >= set(KEYS)


def test_query_file_paths_relative_to_the_root_the_current_directory_or_absolute(cli, codebase, tmp_path,
                                                                                  monkeypatch):
    lines = (SAMPLES / "inventory.py").read_text().splitlines()
    number = next(i for i, line in enumerate(lines, 1) if "def " in line)

    def line(path):
        return json.dumps({"query": lines[number].strip(), "path": str(path), "start_line": number,
                           "end_line": number + 3})

    queries = tmp_path / "q.jsonl"
    monkeypatch.chdir(codebase / "engine")  # the cwd is inside the code, not its root
    queries.write_text("\n".join([line("samples/inventory.py"),  # relative to the evaluated root
                                  line(codebase / "samples" / "inventory.py"),  # absolute
                                  line("../samples/inventory.py")]) + "\n")  # relative to the cwd
    run = cli("eval", codebase, "--queries", queries, "--max-size", "800", "--json", "--no-settings", "-j", "1")
    assert run.code == 0, run.err
    document = run.json()
    assert document["queries"] == 3 and document["settings"][0]["metrics"]["recall@10"]["value"] == 1.0


def test_calls_and_types_need_no_docs_and_are_reported_per_source(cli, codebase):
    run = cli("eval", codebase / "engine", "--queries", "docs,calls", "--max-size", "500,2000", "--json",
              "--no-settings", "-q", "-j", "2")
    assert run.code == 0, run.err
    document = run.json()
    assert document["query_source"] == "docs,calls"
    sources = document["sources"]
    assert set(sources) == {"docs", "calls"} and sources["calls"]["queries"] > 200
    assert sources["docs"]["queries"] + sources["calls"]["queries"] == document["queries"]
    assert [s["index"] for s in sources["calls"]["settings"]] == [0, 1]
    text = cli("eval", codebase / "engine", "--queries", "calls", "--max-size", "500,2000", "--no-settings",
               "--no-chart", "-j", "2")
    assert text.code == 0 and "(calls)" in text.out
    assert "No queries" in cli("eval", codebase / "samples", "--queries", "calls", "--no-settings", "-q").err


def test_recommendation_follows_the_objective_and_saves(cli, codebase, tmp_path):
    shutil.copytree(codebase / "engine", tmp_path / "code")
    args = ("eval", tmp_path / "code", "--max-size", "500,2000", "-q", "-j", "2", "--no-chart")
    top5 = cli(*args, "--json", "--no-settings").json()["recommendation"]
    assert top5["objective"] == "top5" and top5["measure"] == "recall@5" and top5["index"] == 1
    assert top5["reason"] and top5["evidence"] and isinstance(top5["tied_with_best"], list)
    budget = cli(*args, "--json", "--no-settings", "--objective", "budget", "--budget", "1500").json()
    assert budget["recommendation"]["index"] == 0 and budget["recommendation"]["budget"] == 1500
    assert budget["budget"] == 1500
    again = cli(*args, "--json", "--no-settings", "--objective", "budget", "--budget", "1500").json()
    assert again["recommendation"] == budget["recommendation"]  # deterministic
    text = cli(*args, "--no-settings")
    assert "Recommended: #2 (max_size=2000" in text.out and "--objective top5" in text.out
    saved = cli(*args, "--objective", "budget", "--budget", "1500", "--save")
    assert saved.code == 0, saved.err
    assert "max_size = 500" in (tmp_path / "code" / ".chunk-explorer.toml").read_text()
    assert "Saved #1 (max_size=500)" in saved.err


def test_hybrid_retriever_flags(cli, codebase):
    with _loopback()() as server:
        run = cli("eval", codebase / "samples", "--retriever", "hybrid", "--embed-url", server.url, "--embed-model",
                  "m", "--rrf-k", "30", "--no-embed-cache", "--max-size", "400", "--json", "--no-settings", "-j", "1")
        assert run.code == 0, run.err
        document = run.json()
        assert document["retriever"] == "hybrid" and document["settings"][0]["notes"]["embedded"] > 0
    assert "needs --embed-url" in cli("eval", codebase / "samples", "--retriever", "hybrid", "--no-settings").err
    assert "above 0" in cli("eval", codebase / "samples", "--rrf-k", "0", "--no-settings").err


def test_sweep_saves_the_recommended_setting(cli, codebase, tmp_path):
    shutil.copytree(codebase / "engine", tmp_path / "code")
    run = cli("sweep", tmp_path / "code", "--retrieval", "--max-size", "500,2000", "--objective", "budget",
              "--budget", "1500", "--save", "recommended", "--no-chart", "-j", "2")
    assert run.code == 0, run.err
    assert "Recommended: #1 (max_size=500" in run.out
    assert "max_size = 500" in (tmp_path / "code" / ".chunk-explorer.toml").read_text()
    document = cli("sweep", tmp_path / "code", "--retrieval", "--max-size", "500,2000", "--json", "-q",
                   "--no-settings", "-j", "2").json()
    assert document["retrieval"]["recommendation"]["objective"] == "top5"
    refused = cli("sweep", tmp_path / "code", "--save", "recommended", "--no-settings")
    assert refused.code == 2 and "needs --retrieval" in refused.err
