"""The pieces screens share: the latest-request worker, the typed view of the app's
state, and state changes asked for with messages (settings saved where --settings says)."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path

import pytest
from textual.app import App
from textual.message import Message
from textual.widgets import DataTable

from explorer.engine.options import ChunkOptions
from explorer.tui.app import ChunkExplorerApp
from explorer.tui.app_messages import SettingChosen
from explorer.tui.app_state import explorer_state
from explorer.tui.jobs import JobRun, LatestJob
from explorer.tui.sweep.screen import SweepScreen
from explorer.workspace.settings import SETTINGS_FILE, read_settings_file

from .helpers import SIZE, notified, wait_for


@dataclass
class Done(Message):
    value: str
    generation: int


@dataclass
class Failed(Message):
    reason: str
    generation: int


class JobApp(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.job = LatestJob[str](self, "test", Done, Failed)
        self.received: list[Message] = []

    def on_done(self, message: Done) -> None:
        self.received.append(message)

    def on_failed(self, message: Failed) -> None:
        self.received.append(message)


async def test_only_the_latest_request_answers(monkeypatch: pytest.MonkeyPatch):
    app = JobApp()
    release = threading.Event()
    started = threading.Event()
    offered: list[int] = []  # the generations whose run offered a message (posted or dropped)
    post = JobRun.post

    def post_and_tell(run: JobRun, message: Message) -> None:
        post(run, message)
        offered.append(run.generation)

    monkeypatch.setattr(JobRun, "post", post_and_tell)

    def slow(cancelled):
        started.set()
        release.wait(5)
        return "stale"  # a computation that never looks at cancelled()

    async with app.run_test() as pilot:
        first = app.job.start(slow, "slow")
        await wait_for(pilot, started.is_set, what="the first run")
        second = app.job.start(lambda cancelled: "fresh", "fast")
        await wait_for(pilot, lambda: app.received, what="the second result")
        release.set()
        await wait_for(pilot, lambda: first in offered, what="the slow run's result")
        await pilot.pause()  # anything it posted is handled
        assert [(m.value, m.generation) for m in app.received] == [("fresh", second)]
        assert not app.job.is_current(first) and app.job.is_current(second)

        def broken(cancelled):
            raise FileNotFoundError("gone")

        third = app.job.start(broken, "broken")
        await wait_for(pilot, lambda: len(app.received) == 2, what="the failure")
        assert isinstance(app.received[-1], Failed)
        assert (app.received[-1].reason, app.received[-1].generation) == ("The file no longer exists", third)


async def test_screens_read_the_app_through_a_typed_view(tmp_path: Path):
    app = ChunkExplorerApp(str(tmp_path), ChunkOptions(max_size=321), watch=False)
    async with app.run_test(size=SIZE):
        state = explorer_state(app.screen)
        assert state.options.max_size == 321 and state.root == str(tmp_path) and state.document is None
    other = JobApp()
    async with other.run_test():
        with pytest.raises(TypeError, match="only inside the explorer app"):
            explorer_state(other.screen)


async def test_settings_are_saved_to_the_file_named_with_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    project = tmp_path / "project"
    project.mkdir()
    (project / "a.py").write_text("def f():\n    return 1\n")
    named = tmp_path / "ci.toml"
    named.write_text("# kept\n[chunk]\nmax_size = 100\n")
    app = ChunkExplorerApp(str(project), ChunkOptions(max_size=700), watch=False, settings_path=str(named))
    messages: list = []
    async with app.run_test(size=SIZE, message_hook=messages.append) as pilot:
        await pilot.pause()
        app.action_save_settings()  # the palette's "settings: save parameters"
        await pilot.pause()
        assert read_settings_file(named).options.max_size == 700
        assert named.read_text().startswith("# kept\n")
        assert not (project / SETTINGS_FILE).exists()

        # The sweep panel asks the app (a message) to use and save a setting.
        monkeypatch.setattr(SweepScreen, "jobs", 1)  # no process pool
        app.push_screen(SweepScreen(app.root))
        await wait_for(pilot, lambda: isinstance(app.screen, SweepScreen) and app.screen.result is not None,
                       what="the sweep")
        screen = app.screen
        screen.query_one(DataTable).move_cursor(row=0)
        await pilot.press("s")
        await wait_for(pilot, lambda: any(isinstance(m, SettingChosen) for m in messages), what="the choice")
        chosen = next(m for m in messages if isinstance(m, SettingChosen))
        assert chosen.save and chosen.options.max_size == screen.result.settings[0].options.max_size
        await wait_for(pilot, lambda: app.options == chosen.options, what="the app to apply it")
        await pilot.pause()
        assert read_settings_file(named).options == chosen.options
        assert str(screen.query_one(DataTable).get_row_at(0)[0]) == "1*", "the setting in use is marked"
        assert any(n.title == "Settings saved" and str(named) in n.message for n in notified(messages))
        assert not (project / SETTINGS_FILE).exists()
