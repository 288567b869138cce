"""What a served explorer may read and write (the server and the app both ask this)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from explorer.workspace.cache_dir import CACHE_VARIABLE, cache_file
from explorer.workspace.confine import Confinement, PathRefused


@pytest.fixture
def layout(tmp_path: Path) -> tuple[Path, Path]:
    code, out = tmp_path / "code", tmp_path / "out"
    (code / "pkg").mkdir(parents=True)
    out.mkdir()
    (code / "pkg" / "a.py").write_text("x = 1\n")
    (tmp_path / "secret.py").write_text("s = 1\n")
    (code / "pkg" / "leak.py").symlink_to(tmp_path / "secret.py")
    (code / "pkg" / "inner.py").symlink_to(code / "pkg" / "a.py")
    (code / "up").symlink_to(tmp_path)
    (out / "away").symlink_to(code)
    return code, out


def test_reads_stay_under_the_root_links_resolved(layout):
    code, out = layout
    rules = Confinement.of(str(code), str(out))
    assert rules.readable("pkg/a.py") == str((code / "pkg" / "a.py").resolve())
    assert rules.readable(str(code / "pkg" / "inner.py")) == str((code / "pkg" / "a.py").resolve())
    for outside in ("../secret.py", "pkg/../../secret.py", "pkg/leak.py", "up/secret.py", "/etc/passwd",
                    str(code.parent / "secret.py")):
        with pytest.raises(PathRefused, match="outside the folder being served"):
            rules.readable(outside)
    with pytest.raises(PathRefused, match="not a file"):
        rules.readable("pkg")
    with pytest.raises(PathRefused, match="not a file"):
        rules.readable("pkg/missing.py")


def test_writes_stay_in_the_named_folder(layout):
    code, out = layout
    rules = Confinement.of(str(code), str(out))
    assert rules.write_refusal(str(out / "x.chunks.json")) is None
    assert rules.write_refusal(str(out / "new" / "x.json")) is None  # its folder resolves inside
    for outside in (code / "x.json", out / ".." / "x.json", out / "away" / "x.json", Path("/tmp/x.json")):
        assert "outside the folder this served explorer writes into" in rules.write_refusal(str(outside))
    (out / "link.json").symlink_to(code / "pkg" / "a.py")
    assert rules.write_refusal(str(out / "link.json")) is not None  # replacing it would write in the code


def test_no_folder_means_no_write(layout):
    code, _ = layout
    rules = Confinement.of(str(code))
    assert not rules.writes
    assert "writes nothing" in rules.write_refusal(str(code.parent / "out" / "x.json"))


def test_the_cache_folder_can_be_moved_or_turned_off(monkeypatch, tmp_path):
    monkeypatch.setenv(CACHE_VARIABLE, str(tmp_path))
    assert cache_file("history.sqlite") == os.path.join(str(tmp_path), "history.sqlite")
    monkeypatch.setenv(CACHE_VARIABLE, "off")
    assert cache_file("history.sqlite") is None
    monkeypatch.delenv(CACHE_VARIABLE)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cache_file("x") == os.path.join(str(tmp_path), "chunk-explorer", "x")
