"""The settings file's edges: messages that name the problem exactly, what a save writes,
and where a settings file is looked for when no root is given."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

import pytest

from explorer.engine.options import ChunkOptions
from explorer.workspace.settings import (
    SETTINGS_FILE,
    SettingsError,
    load_settings,
    read_settings_file,
    save_settings,
    settings_from_dict,
    settings_walk_values,
)
from explorer.workspace.walk import DEFAULT_MAX_FILE_SIZE, WalkOptions


def test_without_a_root_the_settings_file_of_the_current_directory_is_read(tmp_path, monkeypatch):
    (tmp_path / SETTINGS_FILE).write_text("[chunk]\nmax_size = 321\n")
    monkeypatch.chdir(tmp_path)
    assert load_settings().options.max_size == 321


def test_a_missing_settings_file_is_named_as_missing(tmp_path):
    path = tmp_path / "nope.toml"
    with pytest.raises(SettingsError) as caught:
        read_settings_file(path)
    assert str(caught.value) == f"settings file {path} does not exist"


def test_a_path_through_a_file_says_why_it_cannot_be_read(tmp_path):
    (tmp_path / "file").write_text("x")
    path = tmp_path / "file" / "s.toml"
    with pytest.raises(SettingsError) as caught:
        read_settings_file(path)
    assert str(caught.value) == f"cannot read settings file {path}: Not a directory"


@pytest.mark.parametrize(("keys", "said"), [(["colour"], "unknown key colour;"),
                                             (["colour", "size"], "unknown keys colour, size;")])
def test_unknown_walk_keys_are_listed_in_the_singular_or_plural(keys, said):
    with pytest.raises(SettingsError) as caught:
        settings_from_dict({"walk": dict.fromkeys(keys, 1)})
    assert f"settings: [walk] {said} valid keys: " in str(caught.value)


def test_a_save_writes_the_lists_and_the_cap_and_only_what_differs_from_the_defaults():
    assert settings_walk_values(WalkOptions()) == {"include": [], "exclude": [], "max_file_size": DEFAULT_MAX_FILE_SIZE}
    changed = WalkOptions(exclude=("build",), gitignore=False, follow_symlinks=True)
    assert settings_walk_values(changed) == {
        "include": [], "exclude": ["build"], "max_file_size": DEFAULT_MAX_FILE_SIZE,
        "gitignore": False, "follow_symlinks": True,
    }


def test_every_table_is_checked_after_an_extra_one(tmp_path):
    # [sweep] is kept as an extra table; the misspelt table after it is still caught
    path = tmp_path / SETTINGS_FILE
    path.write_text("[sweep]\nsizes = [1]\n[chunks]\nmax_size = 3\n")
    with pytest.raises(SettingsError, match=r"unknown table \[chunks\]; did you mean \[chunk\]"):
        read_settings_file(path)


def test_a_single_glob_string_is_one_pattern():
    walk = settings_from_dict({"walk": {"include": "*.py", "exclude": "tests/fixtures"}}).walk
    assert walk.include == ("*.py",) and walk.exclude == ("tests/fixtures",)


@pytest.mark.parametrize("key", ["include", "exclude"])
def test_a_glob_list_of_other_values_is_refused_naming_the_key(key):
    with pytest.raises(SettingsError, match=f"{key} must be a list of glob strings"):
        settings_from_dict({"walk": {key: ["*.py", 3]}}, "repo/.chunk-explorer.toml")


@pytest.mark.parametrize("key", ["gitignore", "default_excludes", "follow_symlinks", "all_languages"])
def test_every_switch_must_be_true_or_false(key):
    with pytest.raises(SettingsError, match=f"{key} must be true or false, not 'yes'"):
        settings_from_dict({"walk": {key: "yes"}})
    assert getattr(settings_from_dict({"walk": {key: True}}).walk, key) is True


def test_saving_over_a_chunk_key_that_is_not_a_table_names_it_and_writes_nothing(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text("chunk = 3\n")
    with pytest.raises(SettingsError, match=r"bad.toml: chunk must be a table \(\[chunk\]\)"):
        save_settings(tmp_path, ChunkOptions(max_size=700), path=path)
    assert path.read_text() == "chunk = 3\n"


def test_dashed_keys_keep_their_spelling_when_saved(tmp_path):
    path = tmp_path / SETTINGS_FILE
    path.write_text("[chunk]\noverlap-lines = 1\nmax-size = 900\n[walk]\nmax-file-size = \"2M\"\n")
    from explorer.workspace.walk import WalkOptions as Walk

    save_settings(tmp_path, ChunkOptions(max_size=800, overlap_lines=3), Walk(max_file_size=1 << 20))
    text = path.read_text()
    assert "overlap-lines = 3\n" in text and "max-size = 800\n" in text and "max-file-size = 1048576\n" in text
    assert "overlap_lines" not in text and "max_size" not in text and "max_file_size" not in text
    again = read_settings_file(path)
    assert (again.options.overlap_lines, again.options.max_size, again.walk.max_file_size) == (3, 800, 1 << 20)


def test_a_tokenizer_path_is_relative_to_the_settings_file_wherever_the_run_starts(tmp_path, monkeypatch):
    from tokenizers import Tokenizer, models

    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "models").mkdir()
    Tokenizer(models.WordLevel({"[UNK]": 0}, unk_token="[UNK]")).save(str(repo / "models" / "tokenizer.json"))
    (repo / SETTINGS_FILE).write_text('[chunk]\nsize_unit = "tokens"\ntokenizer = "models/tokenizer.json"\n')
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / "models").mkdir(parents=True)  # a same-named file where the run starts must not be the one
    monkeypatch.chdir(elsewhere)
    settings = load_settings(repo)
    assert settings.options.tokenizer == os.path.join(str(repo), "models/tokenizer.json")
    # a path that leaves the repository is refused, even when the current folder holds it
    (repo / SETTINGS_FILE).write_text('[chunk]\nsize_unit = "tokens"\ntokenizer = "../elsewhere/t.json"\n')
    (elsewhere / "t.json").write_text("{}")
    with pytest.raises(SettingsError, match="outside the repository"):
        load_settings(repo)


def test_a_saved_tokenizer_path_is_written_relative_and_read_back(tmp_path):
    from tokenizers import Tokenizer, models

    (tmp_path / ".git").mkdir()
    (tmp_path / "models").mkdir()
    spec = str(tmp_path / "models" / "tokenizer.json")
    Tokenizer(models.WordLevel({"[UNK]": 0}, unk_token="[UNK]")).save(spec)
    path = save_settings(tmp_path, ChunkOptions(size_unit="tokens", tokenizer=spec, max_size=256))
    assert tomllib.loads(Path(path).read_text())["chunk"]["tokenizer"] == os.path.join("models", "tokenizer.json")
    assert read_settings_file(path).options.tokenizer == os.path.join(str(tmp_path), "models", "tokenizer.json")
