"""The settings file's messages read whole: a path that is not a file says what it is and
nothing more; a save into a file whose [walk] is not a table names that file."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from explorer.engine.options import ChunkOptions
from explorer.workspace.settings import SettingsError, read_settings_file, save_settings
from explorer.workspace.walk import WalkOptions


def test_a_folder_named_as_the_settings_file_is_refused_in_one_plain_line(tmp_path: Path) -> None:
    folder = tmp_path / "settings.toml"
    folder.mkdir()
    with pytest.raises(SettingsError) as caught:
        read_settings_file(folder)
    assert str(caught.value) == f"cannot read settings file {folder}: not a regular file: directory"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_a_named_pipe_is_refused_without_waiting(tmp_path: Path) -> None:
    pipe = tmp_path / "settings.toml"
    os.mkfifo(pipe)
    with pytest.raises(SettingsError) as caught:
        read_settings_file(pipe)
    assert str(caught.value) == f"cannot read settings file {pipe}: not a regular file: named pipe"


def test_saving_walk_options_into_a_walk_that_is_no_table_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    path.write_text("walk = 1\n", encoding="utf-8")
    with pytest.raises(SettingsError) as caught:
        save_settings(tmp_path, ChunkOptions(), WalkOptions(), path=path)
    assert str(caught.value) == f"{path}: walk must be a table ([walk])"
    assert path.read_text(encoding="utf-8") == "walk = 1\n"  # nothing written
