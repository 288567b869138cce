"""A path is named relative to its root, in POSIX form, in every face and adapter."""

from __future__ import annotations

from explorer.workspace.paths import display_path


def test_inside_the_root_the_path_is_relative():
    assert display_path("/a/b/c.py", "/a") == "b/c.py"
    assert display_path("/a/b/c.py", "/a/") == "b/c.py"


def test_outside_the_root_or_without_one_the_path_is_as_given():
    assert display_path("/elsewhere/c.py", "/a") == "/elsewhere/c.py"
    assert display_path("/a/c.py", None) == "/a/c.py"
    assert display_path("src/c.py", "/a") == "src/c.py"  # already relative


def test_a_name_starting_with_two_dots_lies_inside():
    assert display_path("/a/..notes.md", "/a") == "..notes.md"
    assert display_path("/a/..", "/a/b") == "/a/.."
