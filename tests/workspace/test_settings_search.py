"""Where the settings search looks, at its boundaries: the repository's top, the current
folder (outside a repository), and a folder whose name only starts like the current one.

Every call names its ``cwd``: where pytest runs from must not decide what is found."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from explorer.workspace.settings import (
    SETTINGS_FILE,
    Settings,
    find_settings,
    settings_notice,
    settings_search_dirs,
)


def settings_file(folder: Path, max_size: int) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / SETTINGS_FILE
    path.write_text(f"[chunk]\nmax_size = {max_size}\n")
    return path


@pytest.fixture
def x(tmp_path: Path) -> Path:
    """``x/app`` (where the user stands) and ``x/app-old/src`` (a sibling whose name starts
    with ``app``), with a settings file in ``x``, above both, that belongs to neither."""
    root = tmp_path / "x"
    (root / "app").mkdir(parents=True)
    (root / "app-old" / "src").mkdir(parents=True)
    settings_file(root, 7)
    return root


def test_a_sibling_folder_whose_name_starts_like_the_current_one_is_not_inside_it(x: Path) -> None:
    start, cwd = x / "app-old" / "src", x / "app"
    assert settings_search_dirs(start, cwd) == [str(start)]
    assert find_settings(start, cwd) is None  # never x/.chunk-explorer.toml
    assert find_settings(start, str(cwd) + os.sep) is None  # the same with a trailing separator
    settings_file(x / "app-old", 8)
    assert find_settings(start, cwd) is None  # nor the sibling's own parent
    own = settings_file(start, 9)
    assert find_settings(start, cwd) == str(own)


def test_inside_the_current_folder_the_search_goes_up_to_it_and_no_further(x: Path) -> None:
    cwd = x / "app"
    deep = cwd / "src" / "pkg"
    deep.mkdir(parents=True)
    assert settings_search_dirs(deep, cwd) == [str(deep), str(cwd / "src"), str(cwd)]
    assert find_settings(deep, cwd) is None  # x's file is above the current folder
    mine = settings_file(cwd, 11)
    assert find_settings(deep, cwd) == str(mine)
    nearer = settings_file(cwd / "src", 12)
    assert find_settings(deep, cwd) == str(nearer)  # the nearest wins
    assert find_settings(cwd, cwd) == str(mine)  # start == cwd: that folder alone
    assert settings_search_dirs(cwd, cwd) == [str(cwd)]


def test_the_current_folder_above_the_start_by_a_relative_path(x: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(x / "app")
    (x / "app" / "lib").mkdir()
    mine = settings_file(x / "app", 13)
    assert find_settings("lib") == str(mine)  # cwd defaults to the current directory
    assert find_settings("../app-old/src") is None


def test_a_file_is_searched_from_its_folder(x: Path) -> None:
    cwd = x / "app"
    module = cwd / "src" / "m.py"
    module.parent.mkdir()
    module.write_text("x = 1\n")
    assert settings_search_dirs(module, cwd) == [str(cwd / "src"), str(cwd)]
    mine = settings_file(cwd, 14)
    assert find_settings(module, cwd) == str(mine)


def test_a_repository_bounds_the_search_wherever_the_current_folder_is(x: Path) -> None:
    repo = x / "app-old"
    (repo / ".git").mkdir()
    start = repo / "src"
    # the current folder is a sibling: inside a repository its top is the bound, not the start
    assert settings_search_dirs(start, x / "app") == [str(start), str(repo)]
    assert find_settings(start, x / "app") is None  # x's file is outside the repository
    top = settings_file(repo, 15)
    assert find_settings(start, x / "app") == str(top)
    # standing above the repository changes nothing: the search stops at its top
    assert settings_search_dirs(start, x) == [str(start), str(repo)]
    assert find_settings(start, x) == str(top)
    # a .git file (a linked worktree or a submodule) bounds it too
    (repo / ".git").rmdir()
    (repo / ".git").write_text("gitdir: /elsewhere\n")
    assert settings_search_dirs(start, x) == [str(start), str(repo)]


def test_the_filesystem_root_as_the_current_folder(tmp_path: Path) -> None:
    start = tmp_path / "a" / "b"
    start.mkdir(parents=True)
    dirs = settings_search_dirs(start, os.sep)
    assert dirs[0] == str(start) and dirs[-1] == os.sep
    assert [os.path.dirname(d) for d in dirs[:-1]] == dirs[1:]  # every folder up to the root, in order


def test_the_notice_names_the_folders_searched(x: Path) -> None:
    cwd = x / "app"
    deep = cwd / "src"
    deep.mkdir()
    assert settings_notice(Settings(), deep, cwd) == (
        f"settings: none ({SETTINGS_FILE} not found in {deep} up to {cwd}); built-in defaults")
    assert settings_notice(Settings(), x / "app-old" / "src", cwd) == (
        f"settings: none ({SETTINGS_FILE} not found in {x / 'app-old' / 'src'}); built-in defaults")
    found = Settings(path=str(x / SETTINGS_FILE))
    assert settings_notice(found, deep, cwd) == f"settings: {x / SETTINGS_FILE}"
