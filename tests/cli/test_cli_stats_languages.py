"""``chunk-explorer stats`` and ``chunk-explorer languages``."""

from __future__ import annotations

import explorer
from explorer.engine.measure.problems import find_problems
from explorer.engine.measure.quality import measure_file, summarize
from explorer.engine.options import ChunkOptions
from explorer.engine.parse import parse_source
from explorer.engine.text import SourceText


def test_stats_json_matches_the_metrics_module(cli, project, py_source) -> None:
    run = cli("stats", project, "--json", "--max-size", "60", "--jobs", "1")
    assert run.code == 0, run.err
    doc = run.json()
    assert doc["options"]["max_size"] == 60
    assert set(doc["summary"]["languages"]) == {"markdown", "python", "typescript"}
    python = doc["summary"]["languages"]["python"]
    # the same numbers as measuring the file directly
    options = ChunkOptions(max_size=60)
    parsed = parse_source(SourceText(py_source), "src/pkg/mod.py")
    expected = summarize([measure_file(parsed, explorer.chunk("src/pkg/mod.py", py_source, max_size=60), options)])
    mine, theirs = python, expected.languages["python"].to_dict()
    for key in ("files", "chunks", "size", "overPct", "tinyPct", "exactPct", "cleanPct", "splitTopPct", "docSplitPct"):
        assert mine[key] == theirs[key], key
    assert doc["summary"]["overall"]["files"] == 3
    assert doc["run"]["skipped"] == {"binary": 1, "excluded-dir": 1, "unknown-language": 1}
    assert python["throughputMBs"]["parse"] > 0
    assert "baseline" not in doc


def test_stats_json_lists_every_file_with_its_figures_and_problems(cli, project, py_source) -> None:
    doc = cli("stats", project, "--json", "--max-size", "60", "--jobs", "1").json()
    files = {record["path"]: record for record in doc["files"]}
    assert set(files) == {"src/pkg/mod.py", "src/app.ts", "README.md"}
    mine = files["src/pkg/mod.py"]
    options = ChunkOptions(max_size=60)
    parsed = parse_source(SourceText(py_source), "src/pkg/mod.py")
    chunks = explorer.chunk("src/pkg/mod.py", py_source, max_size=60)
    measures = measure_file(parsed, chunks, options).to_dict()
    for key in ("chunks", "over", "tiny", "exact", "cuts", "definitions", "bytes"):
        assert mine[key] == measures[key], key
    found = find_problems(parsed, chunks, options)
    assert mine["problems"] == found.counts() and mine["problemScore"] == found.score
    assert sum(mine["problems"].values()) > 0
    # The per-file chunks add up to the summary's.
    assert sum(r["chunks"] for r in doc["files"]) == doc["summary"]["overall"]["chunks"]


def test_stats_table_and_line_baseline(cli, project) -> None:
    run = cli("stats", project, "--compare", "lines", "--max-size", "60")
    assert run.code == 0, run.err
    lines = run.out.splitlines()
    header = next(line for line in lines if "language" in line)
    for column in ("chunks", "min", "median", "p95", "max", "over%", "tiny%", "exact%", "clean%",
                   "split_top%", "doc_split%", "MB/s"):
        assert column in header
    rows = [line.split() for line in lines]
    assert any(row[:2] == ["python", "ast"] for row in rows)
    assert any(row[:2] == ["ALL", "ast"] for row in rows)
    assert sum(1 for row in rows if row and row[0] == "lines") == 4  # one baseline row per language + ALL
    assert "Measured 3 files" in run.err
    doc = cli("stats", project, "--compare", "lines", "--json", "--max-size", "60").json()
    baseline = doc["baseline"]["lines"]["overall"]
    assert baseline["files"] == 3 and baseline["chunks"] > 0 and baseline["exactPct"] == 100.0


def test_stats_usage_error(cli, tmp_path) -> None:
    run = cli("stats", tmp_path, "--compare", "words")
    assert run.code == 2 and "invalid choice" in run.err


def test_languages_table(cli) -> None:
    run = cli("languages")
    assert run.code == 0
    rows = {line.split()[0]: line for line in run.out.splitlines() if line.strip()}
    assert "python" in rows and ".py" in rows["python"] and "ast" in rows["python"]
    assert "cobol" in rows and "lines" in rows["cobol"]
    total = len(explorer.languages())
    assert f"{total} languages" in run.out


def test_languages_json_and_selection(cli) -> None:
    doc = cli("languages", "--json").json()
    assert doc == explorer.languages()
    picked = cli("languages", "py", ".rs", "TypeScript", "--json").json()
    assert [row["name"] for row in picked] == ["python", "rust", "typescript"]
    run = cli("languages", "klingon")
    assert run.code == 2 and "unknown language" in run.err
    run = cli("languages", ".nothing")
    assert run.code == 2 and "no language is known" in run.err


def test_stats_with_a_failing_file_exits_1(cli, project, monkeypatch) -> None:
    import explorer.engine.api as api  # the batch looks the chunker up there when it first chunks

    real = api.chunk_parsed

    def broken(parsed, options, **kwargs):
        if parsed.path.endswith(".ts"):
            raise RuntimeError("engine bug")
        return real(parsed, options, **kwargs)

    monkeypatch.setattr(api, "chunk_parsed", broken)
    run = cli("stats", project, "--json", "--jobs", "1")
    assert run.code == 1
    doc = run.json()
    assert doc["failed"] == [{"path": "src/app.ts", "error": {"kind": "error", "message": "RuntimeError: engine bug"}}]
    assert set(doc["summary"]["languages"]) == {"markdown", "python"}
    assert "1 file failed; the measures cover the others" in run.err
