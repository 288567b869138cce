"""Reading walked files into memory for the retrieval evaluation: capped, regular files only."""

from __future__ import annotations

import os

import pytest

from explorer.workspace.sources import read_sources
from explorer.workspace.walk import plan


def test_reads_in_plan_order_and_skips_what_cannot_be_read(tmp_path):
    (tmp_path / "a.py").write_text("x = 1\n")
    (tmp_path / "b.py").write_text("y = 2\n" * 100)
    (tmp_path / "c.py").write_text("z = 3\n")
    files_plan = plan([tmp_path])
    (tmp_path / "c.py").unlink()  # gone between the walk and the read
    sources, skipped = read_sources(files_plan, max_bytes=100)
    assert sources == [("a.py", b"x = 1\n")]
    assert {(s.rel, s.reason) for s in skipped} == {("b.py", "too-large"), ("c.py", "unreadable")}


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_swapped_in_after_the_walk_does_not_hang(tmp_path):
    (tmp_path / "a.py").write_text("x = 1\n")
    files_plan = plan([tmp_path])
    (tmp_path / "a.py").unlink()
    os.mkfifo(tmp_path / "a.py")
    sources, skipped = read_sources(files_plan, max_bytes=1000)
    assert sources == [] and [s.reason for s in skipped] == ["not-regular"]
