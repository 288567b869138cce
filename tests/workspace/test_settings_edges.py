"""The settings file's edges: messages that name the problem exactly, what a save writes,
and where a settings file is looked for when no root is given."""

from __future__ import annotations

import pytest

from explorer.workspace.settings import (
    SETTINGS_FILE,
    SettingsError,
    load_settings,
    read_settings_file,
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
