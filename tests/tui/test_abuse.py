"""The explorer under abuse: special files, huge files, deep nesting, quitting mid-work."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

import pytest

from explorer.engine.options import ChunkOptions
from explorer.tui.app import ChunkExplorerApp
from explorer.tui.widgets.files.tree import FileTree
from explorer.tui.widgets.source.view import SourceView
from explorer.workspace.walk import WalkOptions

from .helpers import SIZE, make_app, wait_for, wait_until_idle


async def choose_in_tree(pilot, app: ChunkExplorerApp, path: Path) -> None:
    """Pick a file in the file tree as a user does: cursor on it, enter."""
    tree = app.explore.query_one(FileTree)
    node = await wait_for(pilot, lambda: tree.find_node(str(path)), what=f"{path.name} in the tree")
    tree.focus()
    tree.move_cursor(node)
    await pilot.pause()
    await pilot.press("enter")


def release_fifo_reader(path: Path) -> None:
    """Unblock a reader stuck opening the FIFO (only a broken explorer has one)."""
    with contextlib.suppress(OSError):  # no reader waiting: nothing to release
        os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
async def test_a_named_pipe_is_refused_without_hanging(project: Path):
    fifo = project / "x.py"
    os.mkfifo(fifo)
    app = make_app(project)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await choose_in_tree(pilot, app, fifo)
            await wait_for(pilot, lambda: app.problem, timeout=5, what="the refusal")
            assert "named pipe" in app.problem and "x.py" in app.problem
            assert app.document is None
            await wait_until_idle(pilot, app, timeout=5)
    finally:
        release_fifo_reader(fifo)


async def test_a_link_to_a_device_is_refused_with_the_reason(project: Path):
    if not os.path.exists("/dev/zero"):
        pytest.skip("needs /dev/zero")
    link = project / "zero.py"
    link.symlink_to("/dev/zero")
    app = make_app(project)
    async with app.run_test(size=SIZE) as pilot:
        await choose_in_tree(pilot, app, link)
        await wait_for(pilot, lambda: app.problem, timeout=5, what="the refusal")
        assert "device" in app.problem and "a link to /dev/zero" in app.problem
        assert app.document is None
        await wait_until_idle(pilot, app, timeout=5)


async def test_a_file_over_the_size_limit_opens_only_when_asked(project: Path):
    big = project / "big.py"
    big.write_text("".join(f"value_{k} = {k}\n" for k in range(400)))
    app = ChunkExplorerApp(
        os.fspath(project), ChunkOptions(max_size=300), walk=WalkOptions(max_file_size=1000),
        watch=False, show_timings=False,
    )
    async with app.run_test(size=SIZE) as pilot:
        await choose_in_tree(pilot, app, big)
        await wait_for(pilot, lambda: app.problem, timeout=5, what="the refusal")
        assert "too large" in app.problem and "press o" in app.problem
        assert app.document is None
        assert "too large" in app.explore.query_one(SourceView).message
        await pilot.press("o")
        await wait_for(pilot, lambda: app.document is not None, timeout=10, what="the file to open anyway")
        assert app.document.path == os.fspath(big) and app.problem == ""
        assert app.document.source.line_count == 400
