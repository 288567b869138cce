"""Screenshots of teach mode, the compare view and the sweep panel, from the real app.

    python scripts/screenshots_teach.py [--out screenshots]

Writes SVG files (Textual's own export) and, where ``rsvg-convert`` is installed
(Debian: librsvg2-bin), PNG files beside them. The teach-mode pictures are the ones
docs/how-ast-chunking-works.md walks through: each is a chosen step of the trace of
the Python sample at max size 500 nws.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from explorer.engine.options import ChunkOptions  # noqa: E402
from explorer.samples import get_sample  # noqa: E402
from explorer.tui.app import ChunkExplorerApp  # noqa: E402
from explorer.tui.compare.screen import CompareScreen  # noqa: E402
from explorer.tui.sweep.retrieval import RetrievalPanel  # noqa: E402
from explorer.tui.sweep.screen import SweepScreen  # noqa: E402
from explorer.tui.teach.screen import TeachScreen  # noqa: E402

sys.path.insert(0, str(REPO / "scripts"))
from screenshots import SIZE, to_png  # noqa: E402  (the explorer's screenshots: same size, same PNG step)

TEACH_OPTIONS = ChunkOptions(max_size=500)

#: Teach-mode pictures: (file stem, which step: (action, first node kind or None, occurrence)).
TEACH_STEPS = (
    ("teach-1-descend-module", ("descend", "module", 0)),
    ("teach-2-split-lines", ("split_lines", None, 0)),
    ("teach-3-window-grows", ("add", None, 8)),
    ("teach-4-close", ("close", None, 0)),
    ("teach-5-split-chars", ("split_chars", None, 0)),
    ("teach-6-keep-together", ("keep_together", None, 0)),
    ("teach-7-descend-function", ("descend", "function_definition", 0)),
    ("teach-8-done", ("done", None, 0)),
)


async def wait_for(pilot, predicate, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise TimeoutError("the app did not get there in time")
        await pilot.pause(0.05)


def find_step(run, action: str, kind: str | None, occurrence: int) -> int:
    seen = 0
    for index, step in enumerate(run.steps):
        if step.action == action and (kind is None or (step.node_types and step.node_types[0] == kind)):
            if seen == occurrence:
                return index
            seen += 1
    raise LookupError(f"no step {action} {kind or ''} #{occurrence} in the trace")


def save(app, out: Path, stem: str) -> Path:
    svg = out / f"{stem}.svg"
    svg.write_text(app.export_screenshot(title=f"chunk-explorer {stem}"))
    png = to_png(svg)
    print(f"{svg}" + (f"  {png}" if png else "  (no rsvg-convert: SVG only)"))
    return svg


def make_app(path: Path, options: ChunkOptions) -> ChunkExplorerApp:
    return ChunkExplorerApp(str(path), options, watch=False, show_timings=False, start_dir=str(REPO))


async def teach_shots(out: Path) -> None:
    sample = get_sample("python")
    app = make_app(Path(sample.path), TEACH_OPTIONS)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.document is not None)
        await pilot.press("t")
        await wait_for(pilot, lambda: isinstance(app.screen, TeachScreen) and app.screen.run is not None)
        screen = app.screen
        assert isinstance(screen, TeachScreen) and screen.run is not None
        for stem, (action, kind, occurrence) in TEACH_STEPS:
            screen.go(find_step(screen.run, action, kind, occurrence))
            await pilot.pause(0.3)
            save(app, out, stem)
    # The presentation layout (z) as a projector with a large font shows it: 80x24.
    app = make_app(Path(sample.path), TEACH_OPTIONS)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.document is not None)
        await pilot.press("t")
        await wait_for(pilot, lambda: isinstance(app.screen, TeachScreen) and app.screen.run is not None)
        screen = app.screen
        assert isinstance(screen, TeachScreen) and screen.run is not None
        screen.go(find_step(screen.run, "add", None, 2))
        await pilot.press("z")
        await pilot.pause(0.3)
        save(app, out, "teach-presentation")


async def compare_shots(out: Path) -> None:
    path = REPO / "explorer" / "engine" / "chunker.py"
    app = make_app(path, ChunkOptions(max_size=1000))
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.document is not None)
        await pilot.press("c")
        await wait_for(pilot, lambda: isinstance(app.screen, CompareScreen) and app.screen.comparison is not None)
        await pilot.press("n")  # scroll to the first definition a side splits
        await pilot.pause(0.3)
        save(app, out, "compare-baseline")
        screen = app.screen
        assert isinstance(screen, CompareScreen)
        generation = screen.comparing.generation
        await pilot.press("b")  # a second set: twice the max size
        await wait_for(pilot, lambda: screen.comparison is not None and screen.comparing.generation > generation
                       and screen.comparison.second.options.strategy == "ast")
        await pilot.pause(0.3)
        save(app, out, "compare-second-set")


async def sweep_shot(out: Path) -> None:
    root = REPO / "explorer" / "engine"
    app = make_app(root, ChunkOptions())
    async with app.run_test(size=SIZE) as pilot:
        app.action_sweep()
        await wait_for(pilot, lambda: isinstance(app.screen, SweepScreen) and app.screen.result is not None, 300)
        panel = app.screen.query_one(RetrievalPanel)  # the retrieval evaluation that follows a sweep
        await wait_for(pilot, lambda: panel.run is not None, 300)
        await pilot.pause(0.3)
        save(app, out, "sweep")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(REPO / "screenshots"), help="folder for the pictures")
    parser.add_argument("--only", choices=("teach", "compare", "sweep"), help="make one group only")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    os.environ.setdefault("TEXTUAL_ANIMATIONS", "none")
    groups = {"teach": teach_shots, "compare": compare_shots, "sweep": sweep_shot}
    for name, make in groups.items():
        if args.only in (None, name):
            asyncio.run(make(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
