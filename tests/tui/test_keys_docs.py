"""The keys a user reads about are the keys that work: every key a screen binds (its own and
its panes') is in its help and in docs/explorer-keys.md, and every key a page's key table
names is bound by a screen.

Each screen is opened in the app and every pane in it focused in turn, so the keys checked
are those that work there (``active_bindings``), not a list kept beside them.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from textual.binding import Binding
from textual.screen import Screen

from explorer.tui.screens.help import help_entries
from explorer.tui.widgets.footer import key_name

from .helpers import focus, make_app, wait_for, wait_until_idle

ROOT = Path(__file__).resolve().parents[2]
KEYS_PAGE = ROOT / "docs" / "explorer-keys.md"
#: Pages whose key tables name keys (a table with a ``key`` column).
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
#: How the pages write some keys.
WRITTEN = {"→": "right", "←": "left", "↑": "up", "↓": "down", "esc": "escape", "⏎": "enter"}
#: The section of the keys page for each screen (the keys that work everywhere apply to all).
SECTIONS = {
    "ExploreScreen": "The explorer (main screen)",
    "TeachScreen": "Teach mode (`t`)",
    "CompareScreen": "Compare view (`c`)",
    "SweepScreen": "Sweep (`S`)",
    "QueriesScreen": "Queries view (`r` in the explorer, `v` in the sweep)",
    "RepositoryScreen": "Repository view (`R`)",
    "SettingsPicker": "Queries view (`r` in the explorer, `v` in the sweep)",
    "EntityDocScreen": "The explorer (main screen)",
    "ExportScreen": "The explorer (main screen)",
    "HelpScreen": "Keys that work everywhere",
}
EVERYWHERE = "Keys that work everywhere"
#: The panes' keys: they work in every screen that shows the pane (a source view, a syntax tree).
PANES = "Keys of the panes"


def table_keys(text: str) -> dict[str, set[str]]:
    """The keys named in the key tables of a page, by the ``##`` section they are in."""
    found: dict[str, set[str]] = {}
    section = ""
    column: int | None = None
    for line in text.splitlines():
        if line.startswith("## "):
            section, column = line[3:].strip(), None
            continue
        if not line.startswith("|"):
            column = None
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if column is None:  # the header row: a key table has a key column and says what each does
            column = cells.index("key") if "key" in cells and {"what it does", "does"} & set(cells) else -1
            continue
        if column < 0 or set(cells[0]) <= {"-", ":"}:
            continue
        cell = cells[column]
        keys = re.findall(r"`([^`]+)`", cell)
        if re.search(r"`(\d)` … `(\d)`", cell):  # `1` … `7`: every digit between
            first, last = map(int, re.search(r"`(\d)` … `(\d)`", cell).groups())  # type: ignore[union-attr]
            keys += [str(k) for k in range(first, last + 1)]
        found.setdefault(section, set()).update(WRITTEN.get(key, key) for key in keys)
    return found


def declared_here(node: object, key: str, binding: Binding) -> bool:
    """Whether the explorer (not Textual) binds ``key`` to ``binding``'s action on ``node``'s class."""
    for cls in type(node).__mro__:
        if cls.__module__.startswith("explorer.") and any(
            isinstance(b, Binding) and b.action == binding.action and key in [k.strip() for k in b.key.split(",")]
            for b in vars(cls).get("BINDINGS", [])
        ):
            return True
    return False


async def bound_keys(pilot, screen: Screen) -> tuple[set[str], set[str]]:
    """(every key that works somewhere on ``screen``, the explorer's own among them), each
    pane of the screen focused in turn."""
    every: set[str] = set()
    own: set[str] = set()
    panes = [widget for widget in screen.query("*") if widget.focusable] or [None]
    for pane in panes:
        if pane is not None:
            await focus(pilot, pane)
            await pilot.pause()
        for key, active in screen.active_bindings.items():
            every.add(key_name(key))
            if declared_here(active.node, key, active.binding):
                own.add(key_name(key))
    return every, own


async def visit_screens(project: Path, monkeypatch: pytest.MonkeyPatch):
    """Open every screen of the explorer on the fixture project; yield (pilot, screen) for each."""
    from explorer.engine.structure import Entity
    from explorer.tui.compare.screen import CompareScreen
    from explorer.tui.export.dialog import ExportScreen
    from explorer.tui.queries.picker import SettingsPicker
    from explorer.tui.queries.screen import QueriesScreen
    from explorer.tui.repository.screen import RepositoryScreen
    from explorer.tui.screens.help import HelpScreen
    from explorer.tui.sweep.screen import SweepScreen
    from explorer.tui.teach.screen import TeachScreen
    from explorer.tui.widgets.scope.doc import EntityDocScreen
    from explorer.tui.widgets.scope.tree import ScopeTree

    for screen_class in (SweepScreen, QueriesScreen, RepositoryScreen):
        monkeypatch.setattr(screen_class, "jobs", 1)
    app = make_app(project / "inventory.py")
    async with app.run_test(size=(160, 45)) as pilot:
        await wait_for(pilot, lambda: app.document is not None, what="the file")
        await wait_until_idle(pilot, app)
        await pilot.pause(0.3)
        yield pilot, app.screen
        for key, kind, ready in (
            ("t", TeachScreen, lambda s: s.run is not None),
            ("c", CompareScreen, lambda s: s.comparison is not None),
            ("R", RepositoryScreen, lambda s: s.model.complete),
            ("r", QueriesScreen, lambda s: s.run is not None),
            ("S", SweepScreen, lambda s: s.retrieval.run is not None),
            ("question_mark", HelpScreen, lambda s: True),
            ("e", ExportScreen, lambda s: True),
        ):
            app.explore.focus_source()
            await pilot.press(key)
            await wait_for(pilot, lambda kind=kind, ready=ready: isinstance(app.screen, kind) and ready(app.screen),
                           what=kind.__name__)
            await pilot.pause(0.2)
            yield pilot, app.screen
            if kind is QueriesScreen:
                await pilot.press("s")
                await wait_for(pilot, lambda: isinstance(app.screen, SettingsPicker), what="the settings picker")
                yield pilot, app.screen
                await pilot.press("escape")
            await pilot.press("escape")
            await wait_for(pilot, lambda: app.screen is app.explore, what="the explorer again")
        scope = app.explore.query_one(ScopeTree)  # the scope pane: d opens an entity's docstring
        scope.move_cursor(next(node for node in scope.root.children if isinstance(node.data, Entity)))
        await pilot.press("4", "d")
        await wait_for(pilot, lambda: isinstance(app.screen, EntityDocScreen), what="the docstring")
        yield pilot, app.screen


async def test_every_key_a_screen_binds_is_in_its_help_and_in_the_keys_page(project: Path,
                                                                              monkeypatch: pytest.MonkeyPatch):
    documented = table_keys(KEYS_PAGE.read_text(encoding="utf-8"))
    everywhere = documented[EVERYWHERE] | documented[PANES]
    seen = set()
    async for pilot, screen in visit_screens(project, monkeypatch):
        name = type(screen).__name__
        seen.add(name)
        _, own = await bound_keys(pilot, screen)
        helped = {key for entry in help_entries(screen.app, screen) for key in entry.keys.split(" ") if entry.keys}
        assert own - helped == set(), f"{name}: keys bound but missing from its help"
        page = documented[SECTIONS[name]] | everywhere
        assert own - page == set(), f"{name}: keys bound but missing from {KEYS_PAGE.name} ({SECTIONS[name]})"
    assert seen >= set(SECTIONS), "every screen was visited"


async def test_every_key_a_page_names_is_bound(project: Path, monkeypatch: pytest.MonkeyPatch):
    bound: dict[str, set[str]] = {}
    async for pilot, screen in visit_screens(project, monkeypatch):
        every, _ = await bound_keys(pilot, screen)
        bound.setdefault(SECTIONS[type(screen).__name__], set()).update(every)
    anywhere = set().union(*bound.values())
    bound[EVERYWHERE] = bound[PANES] = anywhere
    for page in PAGES:
        for section, keys in table_keys(page.read_text(encoding="utf-8")).items():
            known = bound.get(section, anywhere) if page == KEYS_PAGE else anywhere
            assert keys - known == set(), f"{page.name} ({section}) names keys no screen binds"


def test_the_page_reader_finds_keys_in_tables_only():
    page = ("## A\n\nSome `x` in prose.\n\n| key | what it does |\n|---|---|\n| `→`, `l` / `1` … `3` | go |\n\n"
            "| key | what |\n|---|---|\n| `recall@5` | a measure, not a key |\n")
    assert table_keys(page) == {"A": {"right", "l", "1", "2", "3"}}


async def test_the_chunk_text_hint_names_the_keys_that_step_through_chunks(project: Path):
    from explorer.tui.screens.explore import ExploreScreen
    from explorer.tui.widgets.chunks.detail import ChunkDetail

    keys = {b.id: b.key_display or b.key for b in ExploreScreen.BINDINGS if isinstance(b, Binding)}
    hint = ChunkDetail.EMPTY_HINT
    assert f"{keys['chunks.next']} is the next" in hint and f"{keys['chunks.previous']} the previous" in hint, hint
    app = make_app(project)  # a directory: no file open, so no chunk selected
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.3)
        detail = app.explore.query_one(ChunkDetail)
        assert detail.shown is None and detail.lines[0][0] == hint
