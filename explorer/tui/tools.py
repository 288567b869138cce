"""Opening the teaching and tuning tools (teach mode, compare view, sweep panel, queries
view) from the explorer: their keys and their palette commands (:mod:`.palette.tools`) call these.

Each tool is a screen pushed over the one it was opened from; escape goes back to
that screen.
"""

from __future__ import annotations

from typing import Any

from textual.app import App
from textual.screen import Screen

from explorer.samples import list_samples

from .app_state import explorer_state

#: The sample teach mode opens when no file is open.
DEFAULT_SAMPLE = "python"


def _show(app: App[Any], screen: Screen) -> None:
    app.push_screen(screen)


def open_teach(app: App[Any], sample: str | None = None) -> None:
    """Teach mode on a sample (by language or file name), else on the open file,
    else on the default sample."""
    from .teach.screen import TeachScreen

    document = explorer_state(app).document
    if sample is None and document is not None:
        _show(app, TeachScreen(file=document.file))
        return
    found = {s.language: s for s in list_samples()} | {s.name: s for s in list_samples()}
    chosen = found.get(sample or DEFAULT_SAMPLE)
    if chosen is None:
        app.notify(f"No sample named {sample}", severity="error", markup=False)
        return
    if isinstance(app.screen, TeachScreen):
        app.screen.load(str(chosen.path), sample=True)
    else:
        _show(app, TeachScreen(path=str(chosen.path), sample=True))


def open_teach_on(app: App[Any], path: str, *, present: bool = False) -> None:
    """Teach mode on a file of the explored directory (``--teach FILE``), in the
    presentation layout when ``present``."""
    from .teach.screen import TeachScreen

    _show(app, TeachScreen(path=path, present=present))


def open_compare(app: App[Any]) -> None:
    from .compare.screen import CompareScreen

    document = explorer_state(app).document
    if document is None:
        app.notify("Open a file first: the compare view chunks it two ways", severity="warning", markup=False)
        return
    _show(app, CompareScreen(document.file))


def open_sweep(app: App[Any]) -> None:
    from .sweep.screen import SweepScreen

    if isinstance(app.screen, SweepScreen):
        return
    _show(app, SweepScreen(explorer_state(app).root))


def open_queries(app: App[Any]) -> None:
    """The queries view over the explored directory: the explorer's settings (the
    reference) against the other strategy and double the max size, with the query
    sources chosen in the sweep."""
    from .queries.screen import QueriesScreen, default_settings

    if isinstance(app.screen, QueriesScreen):
        return
    state = explorer_state(app)
    _show(app, QueriesScreen(state.root, settings=default_settings(state.options), walk=state.walk_options,
                             queries=",".join(state.query_sources)))
