"""Screenshots of the explorer's main screens, from the real app on this repository's code.

    python scripts/screenshots.py [--out screenshots] [--only NAME ...]

Writes SVG files (Textual's own export) and, where ``rsvg-convert`` is installed
(Debian: librsvg2-bin), PNG files beside them.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from explorer.engine.options import ChunkOptions  # noqa: E402
from explorer.tui.app import ChunkExplorerApp  # noqa: E402

SIZE = (180, 48)

Steps = Callable[[object], Awaitable[None]]


async def wait_for(pilot, predicate, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise TimeoutError("the app did not get there in time")
        await pilot.pause(0.05)


async def settled(pilot) -> None:
    """The file is open and no parse or chunking is running."""
    app = pilot.app
    await wait_for(pilot, lambda: app.document is not None or app.problem)
    await wait_for(pilot, lambda: not app.service.busy
                   and not any(w.group in ("open", "chunk", "export") and not w.is_finished for w in app.workers))
    await pilot.pause(0.3)


async def press(pilot, *keys: str) -> None:
    for key in keys:
        await pilot.press(key)
    await settled(pilot)


async def main_screen(pilot) -> None:
    await press(pilot, "full_stop", "full_stop", "full_stop")


async def scope_and_overlap(pilot) -> None:
    await press(pilot, "greater_than_sign", "greater_than_sign", "4", "j", "j", "j", "j", "j", "j")


async def ast_anonymous(pilot) -> None:
    # The AST pane with anonymous nodes, an export statement opened down to its keywords.
    await press(pilot, "3", "a", "j", "j", "j", "enter", "j", "enter", "j", "j")


async def tuning(pilot) -> None:
    await press(pilot, *["minus"] * 10)
    await press(pilot, "full_stop", "full_stop")


async def help_screen(pilot) -> None:
    await press(pilot, "question_mark")


async def export_dialog(pilot) -> None:
    await press(pilot, "full_stop", "e")


async def repository_view(pilot) -> None:
    from explorer.tui.repository.screen import RepositoryScreen

    app = pilot.app
    await pilot.press("R")
    await wait_for(pilot, lambda: isinstance(app.screen, RepositoryScreen) and app.screen.model.complete)
    await pilot.pause(0.5)
    await pilot.press("j", "j")
    await pilot.pause(0.5)


async def repository_chunks(pilot) -> None:
    await repository_view(pilot)
    await pilot.press("c", "j")
    await pilot.pause(0.5)


#: name -> (file relative to the repo, options, steps)
SHOTS: dict[str, tuple[str, ChunkOptions, Steps]] = {
    "explorer-main": ("explorer/engine/chunker.py", ChunkOptions(max_size=800), main_screen),
    "explorer-scope-overlap": ("explorer/engine/text.py", ChunkOptions(max_size=600), scope_and_overlap),
    "explorer-ast": ("explorer/samples/files/inventory.ts", ChunkOptions(max_size=400), ast_anonymous),
    "explorer-tuning": ("explorer/engine/chunker.py", ChunkOptions(max_size=1500), tuning),
    "explorer-help": ("explorer/engine/chunker.py", ChunkOptions(), help_screen),
    "explorer-export": ("explorer/engine/text.py", ChunkOptions(), export_dialog),
    # The repository view over this repository's engine, at a size small enough to cost something.
    "repository-view": ("explorer/engine/chunker.py", ChunkOptions(max_size=600), repository_view),
    "repository-chunks": ("explorer/engine/chunker.py", ChunkOptions(max_size=600), repository_chunks),
}


async def shoot(name: str, out: Path) -> Path:
    relative, options, steps = SHOTS[name]
    app = ChunkExplorerApp(str(REPO / relative), options, watch=False, show_timings=False, start_dir=str(REPO))
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        await steps(pilot)
        target = out / f"{name}.svg"
        target.write_text(app.export_screenshot(title=f"chunk-explorer {relative}"))
    return target


def to_png(svg: Path) -> Path | None:
    converter = shutil.which("rsvg-convert")
    if converter is None:
        return None
    png = svg.with_suffix(".png")
    # librsvg collapses leading spaces of a text run unless told to preserve them.
    text = svg.read_text().replace("<svg ", '<svg xml:space="preserve" ', 1)
    subprocess.run([converter, "-w", "1800", "-o", str(png)], input=text.encode(), check=True)
    return png


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default=str(REPO / "screenshots"), help="directory to write to")
    parser.add_argument("--only", nargs="*", choices=sorted(SHOTS), help="just these screenshots")
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for name in args.only or SHOTS:
        svg = asyncio.run(shoot(name, out))
        png = to_png(svg)
        print(f"{svg}" + (f"  {png}" if png else "  (no rsvg-convert: SVG only)"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
