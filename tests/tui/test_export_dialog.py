"""The export dialog never writes over a file being explored and asks before replacing one."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input, Static

from explorer.tui.export.dialog import ExportScreen

from .helpers import SIZE, make_app, wait_for, wait_until_idle


async def open_dialog(app, pilot) -> ExportScreen:
    await wait_for(pilot, lambda: app.document is not None, what="the file to open")
    await wait_until_idle(pilot, app)
    await pilot.press("e")
    await wait_for(pilot, lambda: isinstance(app.screen, ExportScreen), what="the export dialog")
    return app.screen


def problem(screen: ExportScreen) -> str:
    return str(screen.query_one("#export-problem", Static).content)


async def submit(pilot, screen: ExportScreen, path: str) -> None:
    screen.query_one(Input).value = path
    await pilot.pause()
    await pilot.press("enter")
    await pilot.pause()


async def test_the_open_file_and_sources_of_the_tree_are_never_written(project: Path, tmp_path: Path):
    source = project / "inventory.py"
    before = source.read_bytes(), (project / "router.ts").read_bytes()
    app = make_app(source, start_dir=project)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_dialog(app, pilot)
        await submit(pilot, screen, "inventory.py")  # relative to where the explorer started
        assert app.screen is screen, "the dialog stays open"
        assert "is the file being explored" in problem(screen)
        await pilot.press("enter")  # asking again does not make it acceptable
        assert app.screen is screen
        await submit(pilot, screen, str(project / "router.ts"))
        assert "source file of the explored tree" in problem(screen)
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is not screen, what="the dialog to close")
        await wait_until_idle(pilot, app)
    assert (source.read_bytes(), (project / "router.ts").read_bytes()) == before


async def test_an_existing_file_is_replaced_only_after_asking(project: Path, tmp_path: Path):
    start = tmp_path / "out"
    start.mkdir()
    target = start / "inventory.py.chunks.json"
    target.write_text("an earlier export\n")
    app = make_app(project / "inventory.py", start_dir=start)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_dialog(app, pilot)
        await pilot.press("enter")  # the proposal exists
        assert app.screen is screen
        assert problem(screen) == f"{target} exists: Enter again replaces it"
        assert target.read_text() == "an earlier export\n"

        # Another name, then back: asked again.
        await submit(pilot, screen, str(start / "other.json"))
        await wait_for(pilot, lambda: (start / "other.json").exists(), what="the new file")
        await pilot.press("e")
        await wait_for(pilot, lambda: isinstance(app.screen, ExportScreen), what="the dialog again")
        screen = app.screen
        await pilot.press("enter")
        assert app.screen is screen and "exists" in problem(screen)
        await pilot.press("enter")  # confirmed
        await wait_for(pilot, lambda: target.read_text().startswith("{"), what="the replaced export")


async def test_an_empty_path_says_what_to_do(project: Path):
    app = make_app(project / "inventory.py", start_dir=project)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_dialog(app, pilot)
        await submit(pilot, screen, "   ")
        assert app.screen is screen
        assert "Type the path" in problem(screen)
