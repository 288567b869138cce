"""``chunk-explorer sweep``: the grid of settings from the flags, the table and chart,
--json for scripts, and --save writing the chosen setting to the settings file."""

from __future__ import annotations

import argparse
import json
import os

import pytest

from explorer.cli import main as cli_main
from explorer.cli import sweep_cmd
from explorer.cli.errors import UsageError
from explorer.cli.settings_grid import pick_setting
from explorer.display import SWEEP_NOTES, bar, format_pct
from explorer.engine.options import ChunkOptions
from explorer.workspace.settings import SETTINGS_FILE, read_settings_file

CODE = '''"""Orders."""


# Adds up an order.
def total(lines):
    result = 0
    for line in lines:
        result += line.price * line.quantity
    return result


class Order:
    def __init__(self, lines):
        self.lines = list(lines)

    def total(self):
        return total(self.lines)

    def describe(self):
        return ", ".join(f"{l.name} x{l.quantity}" for l in self.lines)
'''


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="chunk-explorer")
    sweep_cmd.register(parser.add_subparsers())
    return parser.parse_args(["sweep", *argv])


def run(*argv: str) -> int:
    return sweep_cmd.run(parse(*argv))


@pytest.fixture()
def project(tmp_path):
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "orders.py").write_text(CODE * 3)
    (tmp_path / "app" / "util.py").write_text(CODE.replace("Order", "Basket"))
    return tmp_path


def sweep_json(capsys, *argv: str) -> dict:
    assert run(*argv, "--json", "-j", "1", "-q") == 0
    return json.loads(capsys.readouterr().out)


# -- the grid --------------------------------------------------------------------------------
def test_json_has_one_entry_per_combination(project, capsys):
    doc = sweep_json(capsys, str(project), "--max-size", "60,300", "--overlap-lines", "0,4", "--no-settings")
    assert [(s["options"]["max_size"], s["options"]["overlap_lines"]) for s in doc["settings"]] == [
        (60, 0), (60, 4), (300, 0), (300, 4)]
    assert doc["varied"] == ["max_size", "overlap_lines"]
    assert doc["run"]["files"] == 2 and doc["root"] == str(project)
    chunks = [s["chunks"] for s in doc["settings"]]
    assert chunks[0] == chunks[1] > chunks[2] == chunks[3]
    assert doc["settings"][1]["contextualizedBytes"] > doc["settings"][0]["contextualizedBytes"]  # overlap text
    for setting in doc["settings"]:
        assert setting["indexBytes"] == setting["chunks"] * 1024 * 4 + setting["contextualizedBytes"]


def test_default_max_sizes_follow_the_size_unit(project, capsys):
    doc = sweep_json(capsys, str(project), "--no-settings")
    assert [s["options"]["max_size"] for s in doc["settings"]] == [500, 1000, 1500, 2000, 3000]
    doc = sweep_json(capsys, str(project), "--size-unit", "lines", "--no-settings")
    assert [s["options"]["max_size"] for s in doc["settings"]] == [25, 50, 75, 100, 150]
    assert {s["options"]["size_unit"] for s in doc["settings"]} == {"lines"}


def test_settings_file_is_the_base_and_marks_the_current_setting(project, capsys):
    (project / SETTINGS_FILE).write_text('[chunk]\nmax_size = 300\ncontext_mode = "minimal"\n')
    doc = sweep_json(capsys, str(project), "--max-size", "100,300")
    assert doc["current"] == 1
    assert {s["options"]["context_mode"] for s in doc["settings"]} == {"minimal"}
    assert doc["settingsFile"] == str(project / SETTINGS_FILE)


def test_strategies_show_the_split_definition_trade_off(project, capsys):
    doc = sweep_json(capsys, str(project), "--max-size", "90", "--strategy", "ast,lines", "--no-settings")
    ast, lines = doc["settings"]
    assert ast["splitDefinitions"] == 0 < lines["splitDefinitions"]


@pytest.mark.parametrize("flags", [["--max-size", "100,abc"], ["--max-size", "0"], ["--max-size", ","],
                                   ["--overlap-lines", "-1"], ["--size-unit", "words"], ["--context", "all"]])
def test_invalid_lists_are_usage_errors(project, flags, capsys):
    with pytest.raises(SystemExit) as exc:
        parse(str(project), *flags)
    assert exc.value.code == 2
    assert "error" in capsys.readouterr().err


# -- table and chart ----------------------------------------------------------------------
def test_table_and_chart(project, capsys):
    assert run(str(project), "--max-size", "60,300", "--no-settings", "-j", "1") == 0
    captured = capsys.readouterr()
    lines = captured.out.splitlines()
    header = next(line for line in lines if "chunks" in line and "tiny%" in line)
    for column in ("max", "median", "p95", "over%", "cut too big", "split (fit)", "doc_split%", "index"):
        assert column in header
    rows = [line.split() for line in lines if line.split()[:2] in (["1", "60"], ["2", "300"])]
    assert len(rows) == 4  # a table row and a chart row per setting
    assert "█" in captured.out and "bars on 0-" in captured.out
    assert "Swept 2 files" in captured.err


def test_the_definition_columns_give_each_share_with_its_sign_and_what_it_is_of(project, capsys):
    doc = sweep_json(capsys, str(project), "--max-size", "20,60,300", "--no-settings")
    assert run(str(project), "--max-size", "20,60,300", "--no-settings", "-j", "1", "--no-chart", "-q") == 0
    lines = capsys.readouterr().out.splitlines()
    rows = {int(line.split()[0]): line for line in lines if line.split() and line.split()[0] in ("1", "2", "3")}
    assert doc["settings"][0]["cutTooBig"] > 0  # a cut share to show
    def share(count: int, pct: float | None) -> str:
        return f"{count:,} (-)" if pct is None else f"{count:,} ({format_pct(pct)}%)"

    for number, setting in enumerate(doc["settings"], 1):
        cut = share(setting["cutTooBig"], setting["cutTooBigPct"])
        split = share(setting["splitDefinitions"], setting["splitAnyPct"])
        assert f"{cut} {split}" in " ".join(rows[number].split()), rows[number]
    assert any(setting["splitAnyPct"] is not None for setting in doc["settings"])  # a split share shown too
    # Under the table, a line for each column: what it counts and what its share is of.
    assert lines[-len(SWEEP_NOTES):] == list(SWEEP_NOTES)
    assert "% of all definitions" in SWEEP_NOTES[0] and "% of those that fit" in SWEEP_NOTES[1]


def test_the_heading_names_the_files_and_the_unit_the_sizes_are_in(project, capsys):
    assert run(str(project), "--max-size", "60,300", "--no-settings", "-j", "1", "--no-chart", "-q") == 0
    assert capsys.readouterr().out.splitlines()[0].startswith("Sweep of 2 files (sizes in nws; index = vectors of ")
    assert run(str(project), "--max-size", "10", "--size-unit", "nws,lines", "--no-settings", "-j", "1",
               "--no-chart", "-q") == 0
    assert capsys.readouterr().out.splitlines()[0].startswith("Sweep of 2 files (sizes in unit; ")  # the unit varies


def test_a_share_of_no_definitions_is_a_dash_without_a_sign(tmp_path, capsys):
    (tmp_path / "data.json").write_text('{"orders": [1, 2, 3], "total": 6}\n')
    assert run(str(tmp_path), "--max-size", "5,300", "--no-settings", "-j", "1", "--no-chart", "-q") == 0
    rows = [line.split() for line in capsys.readouterr().out.splitlines() if line.split()[:1] in (["1"], ["2"])]
    assert len(rows) == 2
    for row in rows:
        assert row.count("(-)") == 2 and "(-%)" not in row  # cut too big and split (fit): nothing to divide


def test_no_chart(project, capsys):
    assert run(str(project), "--max-size", "60,300", "--no-settings", "-j", "1", "--no-chart", "-q") == 0
    out = capsys.readouterr().out
    assert "chunks" in out and "█" not in out


def test_bar_uses_eighths_of_a_cell():
    assert bar(0, 10, 8) == " " * 8
    assert bar(10, 10, 8) == "█" * 8
    assert bar(5, 10, 8) == "████    "
    assert bar(1, 16, 8) == "▌       "
    assert bar(0.001, 100, 8) == "▏       "  # anything above zero shows


def test_no_files_is_a_failure_with_a_message(tmp_path, capsys):
    (tmp_path / "empty").mkdir()
    assert run(str(tmp_path / "empty"), "--no-settings") == 1
    assert "No files to sweep" in capsys.readouterr().err


def test_missing_path_is_a_usage_error(tmp_path):
    with pytest.raises(UsageError, match="no such file"):
        run(str(tmp_path / "nope"))


# -- --save ------------------------------------------------------------------------------------
SETTINGS = [ChunkOptions(max_size=m, overlap_lines=o) for m in (500, 1000) for o in (0, 5)]


@pytest.mark.parametrize("text, index", [("1", 0), ("#4", 3), ("4", 3)])
def test_pick_setting_by_number(text, index):
    assert pick_setting(text, SETTINGS) == index


def test_pick_setting_by_max_size():
    single = [ChunkOptions(max_size=m) for m in (500, 1000, 2000)]
    assert pick_setting("1000", single) == 1


@pytest.mark.parametrize("text, message", [("1000", "several settings"), ("#9", "#1 to #4"), ("777", "no setting"),
                                           ("big", "number from the # column")])
def test_pick_setting_errors(text, message):
    with pytest.raises(UsageError, match=message):
        pick_setting(text, SETTINGS)


def test_save_writes_the_chosen_setting_and_keeps_the_rest(project, capsys):
    (project / SETTINGS_FILE).write_text(
        '[chunk]\nmax_size = 1500\nsibling_detail = "names"\n\n[walk]\nexclude = ["vendor"]\n\n[team]\nowner = "ana"\n')
    assert run(str(project), "--max-size", "100,400", "--overlap-lines", "0,2", "--save", "4", "-j", "1", "-q") == 0
    saved = read_settings_file(project / SETTINGS_FILE)
    assert (saved.options.max_size, saved.options.overlap_lines) == (400, 2)
    assert saved.options.sibling_detail == "names"  # not swept: kept from the file
    assert saved.walk.exclude == ("vendor",)
    assert saved.extra == {"team": {"owner": "ana"}}
    assert "Saved #4 (max_size=400 overlap_lines=2)" in capsys.readouterr().err


def test_save_by_value_creates_the_settings_file(project, capsys):
    assert run(str(project), "--max-size", "100,400", "--save", "400", "--no-settings", "-j", "1", "--json") == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["saved"] == {"index": 1, "path": str(project / SETTINGS_FILE)}
    assert read_settings_file(project / SETTINGS_FILE).options.max_size == 400


def test_save_does_not_keep_a_language_forced_for_the_run(project):
    assert run(str(project), "--max-size", "100,400", "--language", "python", "--save", "1", "-j", "1", "-q") == 0
    assert read_settings_file(project / SETTINGS_FILE).options.language is None


def test_save_to_an_explicit_settings_file(project, tmp_path):
    elsewhere = tmp_path / "tuned.toml"
    elsewhere.write_text("[chunk]\nmax_size = 900\n")
    assert run(str(project), "--max-size", "100,400", "--settings", str(elsewhere), "--save", "1", "-j", "1", "-q") == 0
    assert read_settings_file(elsewhere).options.max_size == 100
    assert not (project / SETTINGS_FILE).exists()


def test_a_bad_save_choice_fails_before_sweeping(project, capsys, monkeypatch):
    monkeypatch.setattr(sweep_cmd, "sweep_paths", lambda *a, **k: pytest.fail("swept anyway"))
    with pytest.raises(UsageError):
        run(str(project), "--max-size", "100,400", "--save", "#7")
    assert not (project / SETTINGS_FILE).exists()
    assert cli_main.main(["sweep", str(project), "--max-size", "100,400", "--save", "#7"]) == 2
    assert "#1 to #2" in capsys.readouterr().err


def test_unwritable_settings_file_fails_before_sweeping(project, capsys, monkeypatch):
    (project / SETTINGS_FILE).mkdir()  # a directory where the file should go
    monkeypatch.setattr(sweep_cmd, "sweep_paths", lambda *a, **k: pytest.fail("swept anyway"))
    assert cli_main.main(["sweep", str(project), "--max-size", "100,400", "--save", "1", "--no-settings"]) == 2
    assert "--save: cannot write" in capsys.readouterr().err


# -- through the real entry point ----------------------------------------------------------------
def test_main_dispatches_the_verb(project, capsys):
    assert cli_main.main(["sweep", str(project), "--max-size", "200", "--json", "-q", "-j", "1", "--no-settings"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["tool"] == "chunk-explorer" and len(doc["settings"]) == 1
    assert os.path.isdir(doc["root"])


def test_help_renders(capsys):
    parser = argparse.ArgumentParser(prog="chunk-explorer")
    subparsers = parser.add_subparsers(metavar="COMMAND")
    sweep_cmd.register(subparsers)
    assert "tiny%, split definitions" in " ".join(parser.format_help().split())  # "%" is escaped
    assert "--overlap-lines LIST" in subparsers.choices["sweep"].format_help()


def test_table_marks_the_settings_in_effect(project, capsys):
    (project / SETTINGS_FILE).write_text("[chunk]\nmax_size = 300\n")
    assert run(str(project), "--max-size", "100,300", "-j", "1", "-q", "--no-chart") == 0
    out = capsys.readouterr().out
    assert any(line.split()[:2] == ["2*", "300"] for line in out.splitlines())
    assert "* the settings in effect now" in out


@pytest.mark.parametrize("explicit", [False, True])
def test_save_keeps_the_users_comments(project, tmp_path, explicit):
    path = tmp_path / "tuned.toml" if explicit else project / SETTINGS_FILE
    path.write_text("# tuned for the search index\n[chunk]\nmax_size = 900  # the embedder's window\n")
    flags = ("--settings", str(path)) if explicit else ()
    assert run(str(project), "--max-size", "100,400", *flags, "--save", "2", "-j", "1", "-q") == 0
    text = path.read_text()
    assert "# tuned for the search index" in text and "# the embedder's window" in text
    assert read_settings_file(path).options.max_size == 400
