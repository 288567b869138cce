"""The repository view's scan reads the results cache: the next start lists the same rows
without chunking a file again."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from explorer.engine.options import ChunkOptions
from explorer.tui.repository.messages import RepositoryScanned
from explorer.tui.repository.scan import scan

CODE = "def f(x):\n    return x\n\n\nclass A:\n    def m(self):\n        return [\n            1,\n        ]\n"


def scanned(root: Path, options: ChunkOptions) -> tuple[list[tuple], list[tuple[str, str]], int]:
    posted: list[RepositoryScanned] = []
    scan(str(root), None, options, 1, 1, posted.append, lambda: False)
    assert posted[-1].finished
    files = sorted((f.rel, f.found) for m in posted for f in m.files)
    failed = sorted(item for m in posted for item in m.failed)
    return files, failed, posted[-1].total


def test_the_second_scan_comes_from_the_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "repo"
    (root / "pkg").mkdir(parents=True)
    for n in range(6):
        (root / "pkg" / f"m{n}.py").write_text(CODE * (n + 1))
    (root / "data.py").write_bytes(b"\x00\x01\x02")
    folder = tmp_path / "cache"
    monkeypatch.setenv("CHUNK_EXPLORER_CACHE", str(folder))
    options = ChunkOptions(max_size=20)
    first = scanned(root, options)
    entries = sorted(folder.rglob("*.entry"))
    assert len(entries) == 7 and len(first[0]) == 6
    assert any(found.problems for _, found in first[0])
    for entry in entries:
        os.utime(entry, (1_000_000, 1_000_000))
    monkeypatch.setenv("CHUNK_EXPLORER_CACHE", "off")
    assert scanned(root, options) == first  # the same rows, chunked anew
    monkeypatch.setenv("CHUNK_EXPLORER_CACHE", str(folder))
    assert scanned(root, options) == first
    # Every entry was read (a hit marks its entry used), and none was written again.
    assert sorted(folder.rglob("*.entry")) == entries
    assert all(entry.stat().st_mtime > 1_000_000 for entry in entries)
