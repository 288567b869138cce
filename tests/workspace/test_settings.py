"""The .chunk-explorer.toml settings file: finding, reading, validating, saving."""

from __future__ import annotations

import os
import re
import tomllib
from pathlib import Path

import pytest

from explorer.engine.options import ChunkOptions
from explorer.workspace.settings import (
    SETTINGS_FILE,
    Settings,
    SettingsError,
    find_settings,
    load_settings,
    read_settings_file,
    save_settings,
)
from explorer.workspace.walk import WalkOptions, parse_size


def test_defaults_without_a_file(tmp_path) -> None:
    settings = load_settings(tmp_path)
    assert settings == Settings()
    assert settings.path is None


def test_reads_chunk_and_walk_tables(tmp_path) -> None:
    (tmp_path / SETTINGS_FILE).write_text(
        '[chunk]\nmax_size = 900\nsize-unit = "chars"\ncontext = "minimal"\noverlap_lines = 2\n'
        '[walk]\nexclude = ["tests/fixtures"]\ninclude = "*.py"\nmax_file_size = "512K"\ngitignore = false\n'
        '[sweep]\nsizes = [500, 1000]\n'
    )
    settings = load_settings(tmp_path)
    assert settings.path == str(tmp_path / SETTINGS_FILE)
    assert settings.options == ChunkOptions(max_size=900, size_unit="chars", context_mode="minimal", overlap_lines=2)
    assert settings.walk == WalkOptions(include=("*.py",), exclude=("tests/fixtures",),
                                        max_file_size=512 * 1024, gitignore=False)
    assert settings.extra == {"sweep": {"sizes": [500, 1000]}}


@pytest.mark.parametrize("text, fragment", [
    ("[chunk]\nmax_size = 0\n", "max_size"),
    ("[chunk]\nmax_szie = 10\n", "max_szie"),
    ('[chunk]\nsize_unit = "bytes"\n', "size_unit"),
    ('[chunk]\nlanguage = "klingon"\n', "klingon"),
    ("[walk]\nmax_file_size = \"huge\"\n", "huge"),
    ("[walk]\nfollow = true\n", "follow"),
    ("[walk]\ngitignore = \"yes\"\n", "gitignore"),
    ("chunk = 3\n", "table"),
    ("[chunk\nmax_size = 3\n", "not valid TOML"),
    # Keys outside their table used to be kept as unknown extras and change nothing.
    ("max_size = 1000\n", "max_size must be in the [chunk] table"),
    ("max-size = 1000\n[chunk]\noverlap_lines = 1\n", "[chunk] table"),
    ('exclude = ["gen"]\n', "exclude must be in the [walk] table"),
    ('colour = "red"\n', "outside any table"),
    ("[chunks]\nmax_size = 3\n", "did you mean [chunk]"),
    ("[Walk]\ngitignore = false\n", "did you mean [walk]"),
])
def test_invalid_files_name_the_file_and_the_problem(tmp_path, text, fragment) -> None:
    path = tmp_path / SETTINGS_FILE
    path.write_text(text)
    with pytest.raises(SettingsError) as info:
        load_settings(tmp_path)
    assert str(path) in str(info.value)
    assert fragment in str(info.value)


def test_found_in_a_parent_up_to_the_worktree_top_only(tmp_path) -> None:
    outer = tmp_path / "outer"
    repo = outer / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "src" / "pkg").mkdir(parents=True)
    (outer / SETTINGS_FILE).write_text("[chunk]\nmax_size = 1\n")  # outside the work tree
    assert find_settings(repo / "src" / "pkg") is None
    (repo / SETTINGS_FILE).write_text("[chunk]\nmax_size = 777\n")
    assert find_settings(repo / "src" / "pkg") == str(repo / SETTINGS_FILE)
    assert load_settings(repo / "src" / "pkg").options.max_size == 777
    # outside git, run from an unrelated folder, only the root itself is looked at (the
    # folder the tests run from is named: it must not be the one above)
    (tmp_path / "plain" / "sub").mkdir(parents=True)
    (tmp_path / "plain" / SETTINGS_FILE).write_text("")
    elsewhere = tmp_path / "elsewhere"
    assert find_settings(tmp_path / "plain" / "sub", cwd=elsewhere) is None
    assert find_settings(tmp_path / "plain", cwd=elsewhere) == str(tmp_path / "plain" / SETTINGS_FILE)


def test_save_round_trips_and_keeps_other_tables(tmp_path) -> None:
    path = tmp_path / SETTINGS_FILE
    path.write_text('[walk]\nexclude = ["gen"]\n\n[sweep]\nsizes = [500, 1000]\nname = "a \\"quoted\\" name"\n')
    options = ChunkOptions(max_size=1234, overlap_lines=3, language="python", strategy="lines")
    written = save_settings(tmp_path, options)
    assert written == str(path)
    again = read_settings_file(path)
    assert again.options == options
    assert again.walk.exclude == ("gen",)
    assert again.extra == {"sweep": {"sizes": [500, 1000], "name": 'a "quoted" name'}}
    assert [p for p in os.listdir(tmp_path) if p != SETTINGS_FILE] == []  # no temp file left


def test_save_creates_the_file_at_the_root(tmp_path) -> None:
    written = save_settings(tmp_path, ChunkOptions(max_size=600), WalkOptions(exclude=("x y",)))
    assert written == str(tmp_path / SETTINGS_FILE)
    data = tomllib.loads((tmp_path / SETTINGS_FILE).read_text())
    assert data["chunk"]["max_size"] == 600
    assert data["chunk"]["size_unit"] == "nws"  # every option written out
    assert "language" not in data["chunk"]  # None is not TOML
    assert data["walk"]["exclude"] == ["x y"]


def test_saved_strings_survive_special_characters(tmp_path) -> None:
    walk = WalkOptions(exclude=('quote"s', "back\\slash", "tab\there", "ünïcode"))
    path = save_settings(tmp_path, ChunkOptions(), walk)
    assert tomllib.loads(Path(path).read_text(encoding="utf-8"))["walk"]["exclude"] == list(walk.exclude)


SETTINGS_DOC = Path(__file__).resolve().parents[2] / "docs" / "settings.md"


@pytest.mark.parametrize("snippet", re.findall(r"```toml\n(.*?)```", SETTINGS_DOC.read_text(encoding="utf-8"), re.DOTALL))
def test_the_documented_settings_file_takes_effect(tmp_path, snippet) -> None:
    """Every settings file the settings doc shows, taken from the doc itself, is read as written."""
    (tmp_path / SETTINGS_FILE).write_text(snippet)
    documented = tomllib.loads(snippet)
    settings = load_settings(tmp_path)
    # Options written at the top (as the docs once showed) must take effect too, or be refused.
    top_level = {k: v for k, v in documented.items() if not isinstance(v, dict)}
    for key, value in {**top_level, **documented.get("chunk", {})}.items():
        assert getattr(settings.options, key) == value, key
    for key, value in documented.get("walk", {}).items():
        expected = tuple(value) if isinstance(value, list) else parse_size(value) if key == "max_file_size" else value
        assert getattr(settings.walk, key) == expected, key
    assert settings.extra == {k: v for k, v in documented.items() if k not in ("chunk", "walk") and k not in top_level}


def test_the_docs_show_a_settings_file_that_changes_something() -> None:
    snippets = re.findall(r"```toml\n(.*?)```", SETTINGS_DOC.read_text(encoding="utf-8"), re.DOTALL)
    chunk_tables = [tomllib.loads(s).get("chunk", {}) for s in snippets]
    assert any(t and ChunkOptions.build(None, **t) != ChunkOptions() for t in chunk_tables)


def test_save_keeps_comments_layout_and_key_spelling(tmp_path) -> None:
    path = tmp_path / SETTINGS_FILE
    original = (
        "# Our chunking, agreed on 2026-03-01: ask Ana before changing it.\n"
        "\n"
        "[chunk]   # the retrieval pipeline reads these\n"
        "max-chunk-size = 900   # tuned with the sweep\n"
        'language = "python"\n'
        "\n"
        "# Generated code is not worth indexing.\n"
        "[walk]\n"
        'exclude = ["gen"]  # keep\n'
        "\n"
        "[sweep]\n"
        "sizes = [500, 1000]\n"
    )
    path.write_text(original)
    save_settings(tmp_path, ChunkOptions(max_size=1234, overlap_lines=2))
    text = path.read_text()
    assert text.startswith("# Our chunking, agreed on 2026-03-01: ask Ana before changing it.\n\n")
    assert "[chunk]   # the retrieval pipeline reads these\n" in text
    assert "max-chunk-size = 1234   # tuned with the sweep\n" in text  # its spelling, place and comment
    assert "max_size" not in text  # not written a second time under the canonical name
    assert "language" not in text  # auto now: the old override is removed
    assert '# Generated code is not worth indexing.\n[walk]\nexclude = ["gen"]  # keep\n' in text
    assert text.endswith("[sweep]\nsizes = [500, 1000]\n")
    again = read_settings_file(path)
    assert again.options == ChunkOptions(max_size=1234, overlap_lines=2)
    assert again.walk.exclude == ("gen",)


def test_save_writes_to_the_file_named(tmp_path) -> None:
    (tmp_path / SETTINGS_FILE).write_text("[chunk]\nmax_size = 5\n")
    named = tmp_path / "ci" / "chunking.toml"
    named.parent.mkdir()
    named.write_text("# CI settings\n[chunk]\nmax_size = 5\n")
    assert save_settings(tmp_path, ChunkOptions(max_size=700), path=named) == str(named)
    assert named.read_text().startswith("# CI settings\n[chunk]\nmax_size = 700\n")
    assert (tmp_path / SETTINGS_FILE).read_text() == "[chunk]\nmax_size = 5\n"


def test_save_refuses_to_edit_a_malformed_file(tmp_path) -> None:
    path = tmp_path / SETTINGS_FILE
    path.write_text("[chunk\nmax_size = 5\n")
    with pytest.raises(SettingsError, match="not valid TOML"):
        save_settings(tmp_path, ChunkOptions(max_size=700))
    assert path.read_text() == "[chunk\nmax_size = 5\n"


def test_a_new_file_starts_with_its_header(tmp_path) -> None:
    save_settings(tmp_path, ChunkOptions(max_size=600))
    text = (tmp_path / SETTINGS_FILE).read_text()
    assert text.startswith("# Chunk Explorer settings: read by `chunk-explorer`")
    assert tomllib.loads(text)["chunk"]["max_size"] == 600
