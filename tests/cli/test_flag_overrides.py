"""A flag beats the settings file even when the flag says 0, false or "none".

Precedence is defaults < settings file < flags. The trap is a falsy flag value: a flag
that is applied only when truthy silently keeps the file's value. Each option that can be
set both ways is tested with a non-default file value and the flag's falsy (or smallest)
value; the effective options are read back from the JSON the verbs print.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from explorer.engine.batch import default_jobs

#: (settings-file line under [chunk], flags, the option, the value the flags must give)
CHUNK_OVERRIDES = [
    ("overlap_lines = 2", ["--overlap-lines", "0"], "overlap_lines", 0),
    ("filter_imports = true", ["--no-filter-imports"], "filter_imports", False),
    ("filter_imports = false", ["--filter-imports"], "filter_imports", True),
    ("max_siblings = 2", ["--max-siblings", "0"], "max_siblings", 0),
    ('context_mode = "minimal"', ["--context", "none"], "context_mode", "none"),
    ('sibling_detail = "names"', ["--sibling-detail", "none"], "sibling_detail", "none"),
    ("max_size = 900", ["--max-size", "1"], "max_size", 1),
    ('size_unit = "chars"', ["--size-unit", "nws"], "size_unit", "nws"),
    ('strategy = "lines"', ["--strategy", "ast"], "strategy", "ast"),
    ('language = "javascript"', ["--language", "python"], "language", "python"),
]


def settings(root, text: str) -> None:
    (root / ".chunk-explorer.toml").write_text(text)


@pytest.fixture
def small(tmp_path):
    root = tmp_path / "p"
    root.mkdir()
    (root / "a.py").write_text("import os\n\n\ndef f(x):\n    return os.sep + x\n")
    return root


@pytest.mark.parametrize(("line", "flags", "name", "value"), CHUNK_OVERRIDES, ids=[c[0] for c in CHUNK_OVERRIDES])
@pytest.mark.parametrize("verb", ["chunk", "stats"])
def test_a_chunk_flag_overrides_the_settings_file_even_when_falsy(cli, small, verb, line, flags, name, value):
    settings(small, f"[chunk]\n{line}\n")
    extra = ["--json"] if verb == "stats" else []
    without = cli(verb, small, "-q", "-j", "1", *extra)
    assert without.code == 0, without.err
    assert without.json()["options"][name] != value  # the file's value applies without the flag
    run = cli(verb, small, "-q", "-j", "1", *extra, *flags)
    assert run.code == 0, run.err
    assert run.json()["options"][name] == value


def test_overlap_zero_over_a_file_saying_two_repeats_nothing(cli, small):
    settings(small, "[chunk]\noverlap_lines = 2\nmax_size = 10\n")
    chunks = cli("chunk", small, "-q", "-j", "1", "--overlap-lines", "0").json()["files"][0]["chunks"]
    assert len(chunks) > 1
    assert all(c["overlapText"] == "" for c in chunks)
    with_file = cli("chunk", small, "-q", "-j", "1").json()["files"][0]["chunks"]
    assert any(c["overlapText"] for c in with_file)


def test_sweep_overlap_zero_over_a_file_saying_two(cli, small):
    settings(small, "[chunk]\noverlap_lines = 2\n")
    run = cli("sweep", small, "--json", "-q", "-j", "1", "--max-size", "100", "--overlap-lines", "0")
    assert run.code == 0, run.err
    assert [s["options"]["overlap_lines"] for s in run.json()["settings"]] == [0]
    default = cli("sweep", small, "--json", "-q", "-j", "1", "--max-size", "100")
    assert [s["options"]["overlap_lines"] for s in default.json()["settings"]] == [2]


# -- walk options: the flag says "no" over a file that says "yes" -----------------------------


@pytest.fixture
def walked(tmp_path):
    root = tmp_path / "w"
    (root / "node_modules" / "dep").mkdir(parents=True)
    (root / "node_modules" / "dep" / "index.js").write_text("module.exports = 1;\n")
    (root / "ignored.py").write_text("x = 1\n")
    (root / "kept.py").write_text("y = 2\n")
    (root / ".gitignore").write_text("ignored.py\n")
    return root


def taken(run) -> list[str]:
    """The source files chunked (the settings and ignore files are chunked too: left out here)."""
    assert run.code == 0 or (run.code == 1 and "No files to chunk" in run.err), run.err
    return sorted(f["path"] for f in run.json()["files"] if f["path"].endswith((".py", ".js")))


def test_no_gitignore_overrides_a_file_saying_gitignore_true(cli, walked):
    settings(walked, "[walk]\ngitignore = true\n")
    assert taken(cli("chunk", walked, "-q", "-j", "1")) == ["kept.py"]
    assert taken(cli("chunk", walked, "-q", "-j", "1", "--no-gitignore")) == ["ignored.py", "kept.py"]


def test_no_default_excludes_overrides_a_file_saying_true(cli, walked):
    settings(walked, "[walk]\ndefault_excludes = true\n")
    assert "node_modules/dep/index.js" not in taken(cli("chunk", walked, "-q", "-j", "1"))
    assert "node_modules/dep/index.js" in taken(cli("chunk", walked, "-q", "-j", "1", "--no-default-excludes"))


@pytest.mark.parametrize(("flag", "kept"), [("1", False), ("6", True), ("5", False), ("7", True)])
def test_max_file_size_flag_overrides_the_file_at_its_smallest(cli, walked, flag, kept):
    """kept.py is 6 bytes: the flag's cap decides, whatever the file says (1M)."""
    settings(walked, '[walk]\nmax_file_size = "1M"\n')
    files = taken(cli("chunk", walked, "-q", "-j", "1", "--max-file-size", flag))
    assert ("kept.py" in files) == kept


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symbolic links")
def test_follow_symlinks_flag_turns_on_what_the_file_leaves_off(cli, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "far.py").write_text("z = 3\n")
    root = tmp_path / "r"
    root.mkdir()
    (root / "near.py").write_text("x = 1\n")
    os.symlink(outside, root / "link")
    settings(root, "[walk]\nfollow_symlinks = false\n")
    assert taken(cli("chunk", root, "-q", "-j", "1")) == ["near.py"]
    assert taken(cli("chunk", root, "-q", "-j", "1", "--follow-symlinks")) == ["link/far.py", "near.py"]


# -- -j N ---------------------------------------------------------------------------------------


def other_than_default() -> int:
    return 1 if default_jobs() != 1 else 2


@pytest.mark.parametrize("jobs", [1, 2])
def test_jobs_flag_is_the_job_count_in_chunk_json(cli, small, jobs):
    """Whatever the default, and whatever the number of files (one file would do with one job)."""
    run = cli("chunk", small, "-q", "-j", str(jobs))
    assert run.code == 0, run.err
    assert run.json()["summary"]["jobs"] == jobs


def test_without_jobs_flag_chunk_uses_every_core(cli, small):
    run = cli("chunk", small, "-q")
    assert run.code == 0, run.err
    assert run.json()["summary"]["jobs"] == default_jobs()


def test_jobs_flag_is_the_job_count_in_stats_json(cli, small):
    jobs = other_than_default()
    run = cli("stats", small, "-q", "--json", "-j", str(jobs))
    assert run.code == 0, run.err
    assert run.json()["run"]["jobs"] == jobs


def test_jobs_flag_is_the_job_count_in_sweep_json(cli, small):
    jobs = other_than_default()
    run = cli("sweep", small, "-q", "--json", "--max-size", "100", "-j", str(jobs))
    assert run.code == 0, run.err
    assert run.json()["run"]["jobs"] == jobs


@pytest.fixture
def documented(tmp_path):
    """Files with docs long enough to give retrieval queries."""
    root = tmp_path / "docs"
    shutil.copytree(Path(__file__).parents[1] / "fixtures" / "engine", root)
    return root


def test_eval_overlap_zero_and_jobs_over_a_file_saying_otherwise(cli, documented):
    settings(documented, "[chunk]\noverlap_lines = 2\n")
    jobs = other_than_default()
    run = cli("eval", documented, "--json", "-q", "-j", str(jobs), "--max-size", "500", "--overlap-lines", "0")
    assert run.code == 0, run.err
    document = run.json()
    assert [s["options"]["overlap_lines"] for s in document["settings"]] == [0]
    assert document["run"]["jobs"] == jobs


def test_the_explorers_teach_flag_and_what_serve_passes(tmp_path):
    from explorer.cli.errors import UsageError
    from explorer.cli.explorer_args import parse_explorer_args

    (tmp_path / "a.py").write_text("x = 1\n")
    (tmp_path / ".chunk-explorer.toml").write_text("[walk]\nfollow_symlinks = true\n")
    launch = parse_explorer_args([str(tmp_path), "--teach", str(tmp_path / "a.py")])
    assert launch.teach == str(tmp_path / "a.py") and not launch.served
    assert launch.walk.follow_symlinks  # the settings file's, in a terminal
    served = parse_explorer_args([str(tmp_path), "--served", "--write-to", str(tmp_path), "--open",
                                  str(tmp_path / "a.py")])
    assert served.served and served.write_to == str(tmp_path) and served.open == str(tmp_path / "a.py")
    assert not served.walk.follow_symlinks  # served: never a link out of PATH, whatever the settings say
    with pytest.raises(UsageError, match="not a file"):
        parse_explorer_args([str(tmp_path), "--teach", str(tmp_path)])


def test_namespace_from_the_settings_file_or_the_flag_goes_into_every_id(cli, small):
    plain = cli("chunk", small, "-q", "-j", "1", "--format", "jsonl").out
    flag = cli("chunk", small, "-q", "-j", "1", "--format", "jsonl", "--namespace", "repo-a").out
    settings(small, '[chunk]\nnamespace = "repo-a"\n')
    from_file = cli("chunk", small, "-q", "-j", "1", "--format", "jsonl").out
    overridden = cli("chunk", small, "-q", "-j", "1", "--format", "jsonl", "--namespace", "repo-b").out

    def ids(out: str) -> list[str]:
        return [json.loads(line)["id"] for line in out.splitlines() if '"id"' in line]

    assert ids(flag) == ids(from_file) and ids(flag)
    assert not set(ids(flag)) & set(ids(plain)) and not set(ids(overridden)) & set(ids(flag))
    refused = cli("chunk", small, "-q", "--namespace", "bad\nname")
    assert refused.code == 2 and "namespace must be a name of printable characters" in refused.err


def test_a_state_follows_a_change_of_namespace(cli, small, tmp_path):
    state = tmp_path / "index.state"
    first = [json.loads(line) for line in cli("chunk", small, "-q", "--namespace", "a", "--state", state).out.splitlines()]
    second = [json.loads(line) for line in cli("chunk", small, "-q", "--namespace", "b", "--state", state).out.splitlines()]
    assert first and {r["id"] for r in second if r["op"] == "delete"} == {r["id"] for r in first}
    assert {r["id"] for r in second if r["op"] == "upsert"}.isdisjoint(r["id"] for r in first)
