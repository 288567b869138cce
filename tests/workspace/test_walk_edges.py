"""Walking edges: --exclude on files (name and directory-only patterns), a broken link
named on the command line, and the reason a skipped file is shown with."""

from __future__ import annotations

import json
import os

import pytest

from explorer.engine.batch.skips import SkipReason, count_reasons
from explorer.workspace.walk import Skipped, WalkedFile, WalkOptions, plan, walk


def records(root, options: WalkOptions) -> dict[str, tuple[str, str]]:
    return {r.rel: ("taken", r.path) if isinstance(r, WalkedFile) else (r.reason, r.path) for r in walk(root, options)}


def test_exclude_by_name_skips_files_at_any_depth_with_the_reason(tmp_path):
    (tmp_path / "deep" / "er").mkdir(parents=True)
    for rel in ("a.py", "a.log.py", "deep/b.py", "deep/er/c.py"):
        (tmp_path / rel).write_text("x = 1\n")
    found = records(tmp_path, WalkOptions(exclude=("*.log.py", "b.py")))
    assert found == {
        "a.py": ("taken", str(tmp_path / "a.py")),
        "a.log.py": (SkipReason.EXCLUDED, str(tmp_path / "a.log.py")),
        "deep/b.py": (SkipReason.EXCLUDED, str(tmp_path / "deep" / "b.py")),
        "deep/er/c.py": ("taken", str(tmp_path / "deep" / "er" / "c.py")),
    }


def test_a_directory_only_exclude_leaves_a_file_of_that_name(tmp_path):
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "x.py").write_text("x = 1\n")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "out").write_text("#!/usr/bin/env python\nx = 1\n")
    found = records(tmp_path, WalkOptions(exclude=("out/",)))
    assert found["out"][0] == SkipReason.EXCLUDED
    assert found["sub/out"][0] == "taken"
    assert "out/x.py" not in found


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symbolic links")
def test_a_broken_link_named_on_the_command_line_is_reported_with_its_target(tmp_path):
    link = tmp_path / "gone.py"
    os.symlink(tmp_path / "missing.py", link)
    result = plan([str(link)], WalkOptions(), root=str(tmp_path))
    assert result.files == [] and result.missing == []
    assert result.skipped == [Skipped(str(link), str(link), SkipReason.BROKEN_SYMLINK, False, str(tmp_path / "missing.py"))]


def test_a_skipped_file_is_described_by_its_reason_and_detail():
    assert Skipped("p", "p", SkipReason.TOO_LARGE, False, "3.0M > 2.0M").describe() == "larger than --max-file-size (3.0M > 2.0M)"
    assert Skipped("p", "p", SkipReason.EXCLUDED, False).describe() == "matched --exclude"


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symbolic links")
def test_a_link_to_a_script_without_extension_is_recognised_by_its_shebang(tmp_path):
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / "real").write_text("#!/usr/bin/env python3\nprint(1)\n")
    os.symlink(tmp_path / "bin" / "real", tmp_path / "tool")
    languages = {r.rel: r.language for r in walk(tmp_path, WalkOptions()) if isinstance(r, WalkedFile)}
    assert languages == {"bin/real": "python", "tool": "python"}


def test_skip_reasons_are_written_as_their_plain_codes():
    record = Skipped("p", "p", SkipReason.TOO_LARGE, False, "3.0M > 2.0M").to_dict()
    assert json.dumps(record) == '{"path": "p", "reason": "too-large", "detail": "3.0M > 2.0M"}'
    assert json.dumps(count_reasons([record_of(SkipReason.BINARY)] * 2)) == '{"binary": 2}'
    assert [str(reason) for reason in SkipReason] == [
        "gitignored", "excluded-dir", "environment", "excluded", "not-included", "unknown-language",
        "too-large", "symlink-loop", "outside-root", "linked-dir", "broken-symlink", "unreadable",
        "not-regular", "binary", "undecodable", "settings-file",
    ]


def record_of(reason: SkipReason) -> Skipped:
    return Skipped("p", "p", reason)
