"""Process-wide effects (the collector hook and freeze, stderr) last only as long as the app."""

from __future__ import annotations

import gc
import os
import sys
from pathlib import Path

from explorer.tui import heap

from .helpers import SIZE, make_app, wait_for, wait_until_idle


def hooked() -> bool:
    return any(getattr(callback, "__module__", None) == heap.__name__ for callback in gc.callbacks)


async def test_the_collector_is_managed_only_while_the_app_runs(project: Path):
    import explorer.tui.app  # noqa: F401  (importing the app changes nothing)

    assert not hooked()
    assert gc.get_freeze_count() == 0
    app = make_app(project / "inventory.py")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.document is not None, what="the file")
        await wait_until_idle(pilot, app)
        assert hooked()
        assert gc.get_freeze_count() > 0
    assert not hooked(), "the hook is removed when the app ends"
    assert gc.get_freeze_count() == 0, "nothing stays frozen"
    heap.keep()  # a stray call after the app ended freezes nothing
    assert gc.get_freeze_count() == 0


class RealStderr:
    """Stands in for ``sys.__stderr__``: records whether anything reached for it."""

    def __init__(self) -> None:
        self.used = False

    def fileno(self) -> int:
        self.used = True
        return 2

    def write(self, text: str) -> int:
        self.used = True
        return len(text)

    def flush(self) -> None:
        pass


async def test_exporting_with_a_process_pool_never_swaps_stderr(project: Path, tmp_path: Path, monkeypatch):
    for k in range(20):  # enough files for the export to use a process pool
        (project / f"m{k}.py").write_text(f"def f{k}():\n    return {k}\n")
    real = RealStderr()
    monkeypatch.setattr(sys, "__stderr__", real)
    target = tmp_path / "project.chunks.json"
    app = make_app(project / "inventory.py", start_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.document is not None, what="the file")
        app.action_export_tree()
        await pilot.pause()
        await pilot.press("enter")
        await wait_for(pilot, lambda: target.exists(), what="the export")
    assert os.path.getsize(target) > 0
    assert not real.used, "sys.stderr was swapped for the real one"
