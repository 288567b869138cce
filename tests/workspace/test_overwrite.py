"""An export never replaces a file being explored."""

from __future__ import annotations

import os
from pathlib import Path

from explorer.workspace.overwrite import export_refusal
from explorer.workspace.walk import WalkOptions


def make_tree(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / "src").mkdir(parents=True)
    (root / "src" / "app.py").write_text("x = 1\n")
    (root / "notes.txt").write_text("notes\n")
    (root / "app.py.chunks.json").write_text("{}\n")
    (root / "build").mkdir()
    (root / "build" / "gen.py").write_text("y = 2\n")
    (root / ".gitignore").write_text("build/\n")
    return root


def test_sources_in_the_tree_and_the_open_file_are_refused(tmp_path: Path):
    root = make_tree(tmp_path)
    app = str(root / "src" / "app.py")
    assert "file being explored" in export_refusal(app, str(root), None, [app])
    assert "source file of the explored tree" in export_refusal(app, str(root))
    assert "source file" in export_refusal(str(root / "notes.txt"), str(root))
    assert "folder" in export_refusal(str(root / "src"), str(root))


def test_links_to_sources_are_refused(tmp_path: Path):
    root = make_tree(tmp_path)
    outside = tmp_path / "link.json"
    outside.symlink_to(root / "src" / "app.py")
    assert "source file" in export_refusal(str(outside), str(root))
    # The open file reached through another name (a hard link) too.
    other = tmp_path / "hard.py"
    os.link(root / "src" / "app.py", other)
    assert "file being explored" in export_refusal(str(other), str(root), None, [str(root / "src" / "app.py")])


def test_new_files_earlier_exports_and_ignored_files_may_be_written(tmp_path: Path):
    root = make_tree(tmp_path)
    assert export_refusal(str(root / "new.json"), str(root)) is None
    assert export_refusal(str(root / "app.py.chunks.json"), str(root)) is None
    assert export_refusal(str(root / "build" / "gen.py"), str(root)) is None  # gitignored: not in the tree
    assert export_refusal(str(tmp_path / "elsewhere.py"), str(root)) is None
    assert export_refusal(str(root / "notes.txt"), str(root), WalkOptions(exclude=("notes.txt",))) is None
