"""Snapshots of the explorer's main screens (pytest-textual-snapshot).

Fixed terminal size, fixed fixture files, no timings and no temporary paths, so
the pictures are the same on every run. Refresh after an intended change with
``pytest tests/tui/test_snapshots.py --snapshot-update`` and look at the report.
"""

from __future__ import annotations

import pytest

from .helpers import FIXTURES, SIZE, focus, make_app, settled, wait_for, wait_until_idle

#: A start directory that exists nowhere: only shown as text in the export dialog.
START_DIR = "/home/user/work"


def app_for(name: str, **options):
    return make_app(FIXTURES / name, start_dir=START_DIR, **options)


async def loaded(pilot) -> None:
    app = pilot.app
    await wait_for(pilot, lambda: app.document is not None or app.problem, what="the file")
    await wait_until_idle(pilot, app)
    if app.initial_file:
        from explorer.tui.widgets.files.tree import FileTree

        tree = app.explore.query_one(FileTree)
        await wait_for(pilot, lambda: tree.cursor_node is not None and tree.cursor_node.data is not None
                       and str(tree.cursor_node.data.path) == app.initial_file, what="the tree")
    await settled(pilot)


def test_main_screen(snap_compare):
    async def run_before(pilot):
        await loaded(pilot)
        await pilot.press("full_stop", "full_stop", "full_stop")
        await settled(pilot)

    assert snap_compare(app_for("inventory.py"), terminal_size=SIZE, run_before=run_before)


def test_scope_pane_and_overlap(snap_compare):
    async def run_before(pilot):
        await loaded(pilot)
        await pilot.press("greater_than_sign", "greater_than_sign")
        await wait_until_idle(pilot, pilot.app)
        await pilot.press("4", "j", "j", "j")
        await settled(pilot)

    assert snap_compare(app_for("inventory.py"), terminal_size=SIZE, run_before=run_before)


def test_typescript_with_anonymous_ast_nodes(snap_compare):
    async def run_before(pilot):
        await loaded(pilot)
        await pilot.press("3", "a", "j", "j", "j", "enter")
        await settled(pilot)

    assert snap_compare(make_app(FIXTURES / "router.ts", start_dir=START_DIR, max_size=200), terminal_size=SIZE,
                        run_before=run_before)


def test_markup_renders_literally(snap_compare):
    assert snap_compare(app_for("markup.txt"), terminal_size=SIZE, run_before=loaded)


def test_help_screen(snap_compare):
    async def run_before(pilot):
        await loaded(pilot)
        await pilot.press("question_mark")
        await settled(pilot)

    assert snap_compare(app_for("inventory.py"), terminal_size=SIZE, run_before=run_before)


def test_export_dialog(snap_compare):
    async def run_before(pilot):
        await loaded(pilot)
        await pilot.press("e")
        await settled(pilot)

    assert snap_compare(app_for("inventory.py"), terminal_size=SIZE, run_before=run_before)


# -- the main screens at the smallest supported terminal and at a large one ----------------------
SCREEN_SIZES = [(80, 24), (160, 45)]


def _fixed_titles(pilot) -> None:
    """Screens over a directory show its absolute path: name it the same on every checkout."""
    pilot.app.screen.sub_title = "project"


async def _explorer(pilot) -> None:
    await loaded(pilot)
    await pilot.press("full_stop", "full_stop")
    await settled(pilot)


async def _teach(pilot) -> None:
    from explorer.tui.teach.screen import TeachScreen

    await loaded(pilot)
    await pilot.press("t")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, TeachScreen) and pilot.app.screen.run is not None,
                   what="the trace")
    await pilot.press("right_square_bracket", "right_square_bracket", "right_square_bracket")
    await settled(pilot)


async def _teach_presentation(pilot) -> None:
    await _teach(pilot)
    await pilot.press("z")
    await pilot.pause(0.2)


async def _repository(pilot, chunks: bool = False) -> None:
    from explorer.tui.repository.screen import RepositoryScreen

    await loaded(pilot)
    await pilot.press("R")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, RepositoryScreen) and pilot.app.screen.model.complete,
                   what="the scan")
    _fixed_titles(pilot)
    if chunks:
        await pilot.press("c")
    await pilot.pause(0.2)


async def _repository_chunks(pilot) -> None:
    await _repository(pilot, chunks=True)


async def _compare(pilot) -> None:
    from explorer.tui.compare.screen import CompareScreen

    await loaded(pilot)
    await pilot.press("c")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, CompareScreen)
                   and pilot.app.screen.comparison is not None, what="the comparison")
    await settled(pilot)


async def _sweep(pilot) -> None:
    from explorer.tui.sweep.retrieval import RetrievalPanel
    from explorer.tui.sweep.screen import SweepScreen

    await loaded(pilot)
    pilot.app.action_sweep()
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, SweepScreen) and pilot.app.screen.result is not None,
                   what="the sweep")
    panel = pilot.app.screen.query_one(RetrievalPanel)
    await wait_for(pilot, lambda: panel.run is not None, what="the retrieval evaluation")
    _fixed_titles(pilot)
    await focus(pilot, pilot.app.screen.query_one("#sweep-table"))
    await settled(pilot)


async def _queries(pilot) -> None:
    from explorer.tui.queries.screen import QueriesScreen

    await loaded(pilot)
    await pilot.press("r")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, QueriesScreen) and pilot.app.screen.run is not None,
                   what="the evaluation")
    _fixed_titles(pilot)
    await pilot.press("down", "down")
    await settled(pilot)


@pytest.mark.parametrize("size", SCREEN_SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
@pytest.mark.parametrize("screen", ["explorer", "teach", "teach-presentation", "compare", "sweep", "queries",
                                    "repository", "repository-chunks"])
def test_main_screens_fit_the_terminal(snap_compare, monkeypatch, screen: str, size: tuple[int, int]):
    from explorer.tui.queries.screen import QueriesScreen
    from explorer.tui.repository.screen import RepositoryScreen
    from explorer.tui.sweep.screen import SweepScreen

    for screen_class in (SweepScreen, QueriesScreen, RepositoryScreen):  # no process pool: the same figures
        monkeypatch.setattr(screen_class, "jobs", 1)
    run_before = {"explorer": _explorer, "teach": _teach, "teach-presentation": _teach_presentation,
                  "compare": _compare, "sweep": _sweep, "queries": _queries, "repository": _repository,
                  "repository-chunks": _repository_chunks}[screen]
    assert snap_compare(app_for("inventory.py"), terminal_size=size, run_before=run_before)
