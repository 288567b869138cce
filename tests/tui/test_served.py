"""The explorer as a served app (``--served``): it opens nothing outside PATH, writes only
into the teacher's folder (or nothing), and sends screenshots to the browser."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from explorer.engine.options import ChunkOptions
from explorer.tui.app import ChunkExplorerApp
from explorer.tui.export.dialog import ExportScreen
from explorer.tui.served import Serving
from explorer.workspace.confine import Confinement

from .helpers import SIZE, notified, wait_for, wait_until_idle


@pytest.fixture
def folders(tmp_path: Path) -> tuple[Path, Path]:
    code, out = tmp_path / "code", tmp_path / "out"
    code.mkdir()
    out.mkdir()
    (code / "a.py").write_text("def a():\n    return 1\n")
    (tmp_path / "secret.py").write_text("SECRET = 1\n")
    (code / "leak.py").symlink_to(tmp_path / "secret.py")
    return code, out


def served_app(code: Path, out: Path | None) -> ChunkExplorerApp:
    serving = Serving(Confinement.of(str(code), str(out) if out else None))
    return ChunkExplorerApp(str(code), ChunkOptions(max_size=300), watch=False, show_timings=False, serving=serving)


async def test_files_outside_path_are_not_opened(folders):
    code, out = folders
    app, messages = served_app(code, out), []
    async with app.run_test(message_hook=messages.append, size=SIZE, notifications=True) as pilot:
        for outside in (code / "leak.py", code.parent / "secret.py", code / ".." / "secret.py"):
            app.open_file(str(outside))
            await wait_until_idle(pilot, app)
            assert app.document is None
        refused = [n for n in notified(messages) if n.title == "Not opened"]
        assert len(refused) == 3 and all("outside the folder being served" in n.message for n in refused)
        app.open_file(str(code / "a.py"))
        await wait_for(pilot, lambda: app.document is not None, what="a.py opened")
        assert any("Served: files are read only under" in n.message for n in notified(messages))


async def test_settings_are_saved_in_the_named_folder_not_the_repository(folders):
    code, out = folders
    app = served_app(code, out)
    async with app.run_test(size=SIZE) as pilot:
        app.action_save_settings()
        await pilot.pause()
    assert (out / ".chunk-explorer.toml").is_file()
    assert "max_size = 300" in (out / ".chunk-explorer.toml").read_text()
    assert not (code / ".chunk-explorer.toml").exists()


async def test_without_a_folder_nothing_is_written(folders):
    code, out = folders
    app, messages = served_app(code, None), []
    async with app.run_test(message_hook=messages.append, size=SIZE, notifications=True) as pilot:
        app.open_file(str(code / "a.py"))
        await wait_for(pilot, lambda: app.document is not None, what="a.py opened")
        app.action_save_settings()
        app.action_export()
        app.action_export_tree()
        await pilot.pause()
        assert not isinstance(app.screen, ExportScreen)
        titles = [n.title for n in notified(messages)]
        assert "Settings not saved" in titles and titles.count("Export off") == 2
    assert sorted(os.listdir(code)) == ["a.py", "leak.py"] and os.listdir(out) == []


async def test_the_export_dialog_proposes_and_accepts_only_the_named_folder(folders):
    code, out = folders
    app = served_app(code, out)
    async with app.run_test(size=SIZE) as pilot:
        app.open_file(str(code / "a.py"))
        await wait_for(pilot, lambda: app.document is not None, what="a.py opened")
        app.action_export()
        await wait_for(pilot, lambda: isinstance(app.screen, ExportScreen), what="the export dialog")
        await pilot.pause()
        assert app.screen.proposal.startswith(str(out))
        assert "outside the folder" in app.exports.refusal(str(code / "b.chunks.json"))
        assert "outside the folder" in app.exports.refusal(os.path.expanduser("~/b.chunks.json"))
        assert app.exports.refusal(str(out / "b.chunks.json")) is None
        await pilot.press("escape")


async def test_a_screenshot_goes_to_the_browser(folders, monkeypatch):
    code, out = folders
    app, sent = served_app(code, out), []
    monkeypatch.setattr(app, "deliver_text", lambda file, **kw: sent.append((file.read(), kw)))
    async with app.run_test(size=SIZE) as pilot:
        app.action_save_screenshot()
        await pilot.pause()
    (svg, how), = sent
    assert svg.startswith("<svg") and how["save_filename"].endswith(".svg")
    assert os.listdir(out) == []
