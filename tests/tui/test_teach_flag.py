"""``--teach FILE`` (and ``serve --teach``): the explorer starts in teach mode on the file,
and steps from there."""

from __future__ import annotations

from pathlib import Path

from explorer.engine.options import ChunkOptions
from explorer.tui.app import ChunkExplorerApp
from explorer.tui.served import Serving
from explorer.tui.teach.screen import TeachScreen
from explorer.workspace.confine import Confinement

from .helpers import SIZE, notified, wait_for


async def test_the_explorer_starts_teaching_the_file(tmp_path: Path):
    target = tmp_path / "a.py"
    target.write_text("def a():\n    return 1\n\n\ndef b():\n    return 2\n")
    app = ChunkExplorerApp(str(tmp_path), ChunkOptions(max_size=10), watch=False, show_timings=False,
                           teach=str(target))
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_for(pilot, lambda: isinstance(app.screen, TeachScreen) and app.screen, what="teach")
        await wait_for(pilot, lambda: screen.run is not None, what="the trace")
        assert screen.path == str(target)
        # In the presentation layout: the source and the step fill the screen, no syntax tree.
        assert screen.presenting
        assert not screen.query_one("#teach-ast").display
        await pilot.press("right", "right")
        assert screen.index == 2
        await pilot.press("escape")  # leaves the presentation layout first, as z would
        assert not screen.presenting and app.screen is screen


async def test_teach_mode_opened_by_its_key_is_not_presenting(tmp_path: Path):
    target = tmp_path / "a.py"
    target.write_text("def a():\n    return 1\n")
    app = ChunkExplorerApp(str(target), watch=False, show_timings=False)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.document is not None, what="the file")
        await pilot.press("t")
        screen = await wait_for(pilot, lambda: isinstance(app.screen, TeachScreen) and app.screen, what="teach")
        assert not screen.presenting


async def test_a_served_app_refuses_to_teach_a_file_outside_path(tmp_path: Path):
    (tmp_path / "code").mkdir()
    (tmp_path / "secret.py").write_text("s = 1\n")
    app, messages = ChunkExplorerApp(str(tmp_path / "code"), watch=False, show_timings=False,
                                     teach=str(tmp_path / "secret.py"),
                                     serving=Serving(Confinement.of(str(tmp_path / "code")))), []
    async with app.run_test(message_hook=messages.append, size=SIZE, notifications=True) as pilot:
        await wait_for(pilot, lambda: any(n.title == "Not opened" for n in notified(messages)), what="the refusal")
        assert not isinstance(app.screen, TeachScreen)
