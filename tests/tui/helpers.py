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


def make_app(path: Path | str, *, watch: bool = False, start_dir: Path | str | None = None, **options) -> ChunkExplorerApp:
    return ChunkExplorerApp(
        os.fspath(path),
        ChunkOptions(**options) if options else ChunkOptions(max_size=300),
        watch=watch,
        show_timings=False,
        start_dir=os.fspath(start_dir) if start_dir is not None else None,
    )


async def wait_for(pilot, predicate: Callable[[], object], timeout: float = 10.0, what: str = "condition"):
    """Let the app run until ``predicate()`` is true (workers finish in their own time)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        result = predicate()
        if result:
            return result
        await pilot.pause(0.02)
    raise AssertionError(f"timed out after {timeout}s waiting for {what}")


async def wait_until_idle(pilot, app: ChunkExplorerApp, timeout: float = 10.0) -> None:
    """Wait for the open/chunk workers (not the never-ending watcher or tree loader)."""
    await wait_for(
        pilot,
        lambda: not app.service.busy
        and not any(w.group in ("open", "chunk", "export") and not w.is_finished for w in app.workers),
        timeout,
        "workers to finish",
    )
    await pilot.pause()


def notified(messages: list) -> list[Notification]:
    """The notifications posted, among the messages a ``run_test(message_hook=...)`` saw."""
    return [message.notification for message in messages if isinstance(message, Notify)]
