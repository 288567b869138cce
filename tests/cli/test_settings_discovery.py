"""Where a run finds its settings: the nearest .chunk-explorer.toml from the path
upwards, stopping at the repository's top; stderr names it; it is never chunked."""

from __future__ import annotations

import os

from explorer.workspace.settings import SETTINGS_FILE, find_settings, settings_search_dirs


def test_a_subfolder_run_from_the_project_folder_reads_its_settings(cli, tmp_path, monkeypatch) -> None:
    # Not a git repository (a package from site-packages): the search goes up to the cwd.
    project = tmp_path / "sqlalchemy"
    (project / "orm").mkdir(parents=True)
    (project / "orm" / "session.py").write_text("def f():\n    return 1\n")
    (project / SETTINGS_FILE).write_text("[chunk]\nmax_size = 321\n")
    monkeypatch.chdir(project)
    run = cli("chunk", "orm")
    assert run.code == 0, run.err
    assert run.json()["options"]["max_size"] == 321
    assert f"settings: {project / SETTINGS_FILE}" in run.err
    # from an unrelated folder, the folders above the path are not searched (no repository)
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    run = cli("chunk", project / "orm")
    assert run.json()["options"]["max_size"] == 1500
    assert "settings: none" in run.err and str(project / "orm") in run.err


def test_the_search_stops_at_the_repository_top(cli, tmp_path, monkeypatch) -> None:
    outer = tmp_path / "outer"
    repo = outer / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "src" / "pkg").mkdir(parents=True)
    (repo / "src" / "pkg" / "m.py").write_text("x = 1\n")
    (outer / SETTINGS_FILE).write_text("[chunk]\nmax_size = 5\n")
    monkeypatch.chdir(tmp_path)
    run = cli("chunk", repo / "src" / "pkg")
    assert run.json()["options"]["max_size"] == 1500
    assert settings_search_dirs(repo / "src" / "pkg")[-1] == str(repo)
    (repo / "src" / SETTINGS_FILE).write_text("[chunk]\nmax_size = 77\n")
    (repo / SETTINGS_FILE).write_text("[chunk]\nmax_size = 88\n")
    assert find_settings(repo / "src" / "pkg") == str(repo / "src" / SETTINGS_FILE)  # the nearest wins
    run = cli("chunk", repo)
    assert run.json()["options"]["max_size"] == 88
    assert all(f["path"] != SETTINGS_FILE and not f["path"].endswith("/" + SETTINGS_FILE)
               for f in run.json()["files"])
    assert sorted(s["path"] for s in run.json()["skipped"] if s["reason"] == "settings-file") == \
        [SETTINGS_FILE, f"src/{SETTINGS_FILE}"]


def test_the_settings_file_named_on_the_command_line_is_not_chunked(cli, tmp_path) -> None:
    (tmp_path / SETTINGS_FILE).write_text("[chunk]\nmax_size = 100\n")
    (tmp_path / "a.py").write_text("x = 1\n")
    doc = cli("chunk", tmp_path / SETTINGS_FILE, tmp_path / "a.py").json()
    assert [f["path"] for f in doc["files"]] == ["a.py"]


def test_quiet_and_no_settings(cli, tmp_path) -> None:
    (tmp_path / "a.py").write_text("x = 1\n")
    assert "settings:" not in cli("chunk", tmp_path, "-q").err
    assert "settings: none (--no-settings)" in cli("chunk", tmp_path, "--no-settings").err
    assert os.path.isfile(tmp_path / "a.py")
