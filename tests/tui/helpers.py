"""Helpers for driving the explorer in tests (fixtures are in conftest.py)."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

from textual.notifications import Notification, Notify

from explorer.engine.options import ChunkOptions
from explorer.tui.app import ChunkExplorerApp

FIXTURES = Path(__file__).parent / "fixtures" / "project"
SIZE = (160, 45)
#: Seconds a wait may take before it counts as a hang. A wait ends as soon as what it waits
#: for happens, so this only bounds a hang: it is generous because a machine busy with other
#: work can take many seconds for a step that takes a fraction of one alone.
HANG_SECONDS = float(os.environ.get("EXPLORER_TEST_HANG_SECONDS", "60"))


def make_app(path: Path | str, *, watch: bool = False, start_dir: Path | str | None = None, **options) -> ChunkExplorerApp:
    return ChunkExplorerApp(
        os.fspath(path),
        ChunkOptions(**options) if options else ChunkOptions(max_size=300),
        watch=watch,
        show_timings=False,
        start_dir=os.fspath(start_dir) if start_dir is not None else None,
    )


async def wait_for(pilot, predicate: Callable[[], object], timeout: float = HANG_SECONDS, what: str = "condition"):
    """Let the app run until ``predicate()`` is true (workers finish in their own time).
    ``timeout`` only guards against a hang: wait for the event itself, never for a delay."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        result = predicate()
        if result:
            return result
        await pilot.pause(0.02)
    raise AssertionError(f"timed out after {timeout}s waiting for {what}")


async def wait_until_idle(pilot, app: ChunkExplorerApp, timeout: float = HANG_SECONDS) -> None:
    """Wait for the open/chunk workers (not the never-ending watcher or tree loader)."""
    await wait_for(
        pilot,
        lambda: not app.service.busy
        and not any(w.group in ("open", "chunk", "export") and not w.is_finished for w in app.workers),
        timeout,
        "workers to finish",
    )
    await pilot.pause()


async def settled(pilot) -> None:
    """Let the screen finish what the last keys started, whatever the machine's load: the
    messages handled, the callbacks run after the next refresh (trees follow the cursor,
    views scroll to it), animations done. A worker or a timer is waited for by its own
    condition (:func:`wait_for`), never by a fixed delay."""
    await pilot.pause()
    await pilot.wait_for_scheduled_animations()
    await pilot.pause()


async def focus(pilot, widget):
    """Give ``widget`` the focus and wait until it has it. ``Widget.focus`` takes effect when
    the app gets to it: keys pressed before then go to whatever had the focus (the screen's
    bindings: ``e`` exports, ``enter`` confirms). Returns the widget."""
    widget.focus()
    await wait_for(pilot, lambda: widget.screen.focused is widget, what=f"the focus on {widget!r}")
    return widget


async def edit_field(pilot, panel, field_id: str):
    """Start editing a field of the Parameters pane (as enter on it does) and wait until it
    takes typed keys: the pane says it is editing it and it has the focus (a choice: its
    list, inside it, has it). Returns the field."""
    panel.edit(field_id)
    field = panel.field(field_id)

    def editing() -> bool:
        focused = panel.screen.focused
        return panel.editing is field and focused is not None and field in focused.ancestors_with_self

    await wait_for(pilot, editing, what=f"the {field_id} field to be edited")
    await settled(pilot)
    assert editing(), f"the {field_id} field lost the focus before a key was typed"
    return field


async def wait_until_watching(pilot, app: ChunkExplorerApp) -> None:
    """Wait until the directory watcher is set up: it starts in its own time, and a change
    made before that is never seen."""
    await wait_for(pilot, lambda: app.watch_started, what="the watcher")


async def run_from_palette(pilot, words: str, expected: str | None = None) -> None:
    """Open the command palette, type ``words`` once its field has the focus, wait until
    its first match holds ``expected`` (default: ``words``; the search runs in its own
    time), and run that match."""
    from textual.command import CommandList, CommandPalette
    from textual.widgets import Input

    app = pilot.app
    await pilot.press("ctrl+p")
    await wait_for(pilot, lambda: isinstance(app.screen, CommandPalette) and isinstance(app.screen.focused, Input),
                   what="the command palette")
    await pilot.press(*words)

    def first_match() -> bool:
        found = app.screen.query(CommandList)
        return bool(found) and found.first().option_count > 0 and \
            (expected or words) in str(found.first().get_option_at_index(0).prompt)

    await wait_for(pilot, first_match, what=f"the palette to find {expected or words!r}")
    await pilot.press("enter")


def notified(messages: list) -> list[Notification]:
    """The notifications posted, among the messages a ``run_test(message_hook=...)`` saw."""
    return [message.notification for message in messages if isinstance(message, Notify)]
