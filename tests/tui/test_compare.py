"""The compare view: one file chunked two ways, side by side, with measures and split definitions."""

from __future__ import annotations

import io
from pathlib import Path

from textual.widgets import Static

import explorer
from explorer.engine.measure.quality import measure_file
from explorer.engine.parse import parse_source
from explorer.engine.text import SourceText
from explorer.tui.compare.model import BASELINE, MEASURES, SECOND_SET
from explorer.tui.compare.screen import CompareScreen
from explorer.tui.screens.explore import ExploreScreen
from explorer.tui.steps import stepped_size

from .helpers import SIZE, make_app, wait_for, wait_until_idle

#: Small enough that the fixture's definitions do not all fit in one chunk.
MAX = 300


def spans(chunks) -> list[tuple[int, int]]:
    return [(c.byte_range.start, c.byte_range.end) for c in chunks]


def engine_chunks(path: Path, root: Path, **options):
    return explorer.chunk(path.relative_to(root).as_posix(), path.read_bytes(), **options)


async def open_compare(app, pilot) -> CompareScreen:
    await wait_for(pilot, lambda: app.document is not None, what="the file to open")
    await wait_until_idle(pilot, app)
    await pilot.press("c")
    await wait_for(pilot, lambda: isinstance(app.screen, CompareScreen) and app.screen.comparison is not None,
                   what="the comparison")
    await pilot.pause()
    return app.screen  # type: ignore[return-value]


async def test_ast_against_the_line_baseline(project: Path):
    path = project / "inventory.py"
    app = make_app(path, max_size=MAX)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_compare(app, pilot)
        comparison = screen.comparison
        first, second = screen.first_view, screen.second_view
        # Left: the explorer's parameters; right: the lines baseline. Both exactly as the engine makes them.
        assert spans(first.document.chunks) == spans(engine_chunks(path, project, max_size=MAX))
        assert spans(second.document.chunks) == spans(engine_chunks(path, project, max_size=MAX, strategy="lines"))
        assert spans(first.document.chunks) != spans(second.document.chunks)
        assert first.border_title.startswith("Left: AST") and "lines (baseline)" in second.border_title

        # The measures are measure_file's, against the same tree on both sides.
        source = SourceText(path.read_bytes())
        parsed = parse_source(source, "inventory.py")
        for side, chunks in ((comparison.first, first.document.chunks), (comparison.second, second.document.chunks)):
            want = measure_file(parsed, list(chunks), side.options)
            assert side.metrics.any_split == want.any_split and side.metrics.sizes == want.sizes
            # Each definition a side splits is marked in that side's source.
            marked = {(o.start, o.end) for o in side_view(screen, side).overlays if o.bar is not None}
            assert marked == {(s.start, s.end) for s in want.splits}
        assert comparison.second.metrics.splits, "the baseline should split a definition of the fixture"
        table = table_text(screen)
        for measure in MEASURES:
            assert f"{measure.name}" in table
        assert f"{comparison.first.summary.chunks}" in table and f"{comparison.second.summary.chunks}" in table

        # Scrolled together.
        first.scroll_to(y=20, animate=False, immediate=True)
        await pilot.pause()
        assert second.scroll_y == first.scroll_y == 20

        # n goes to the first split definition (either side), in both views.
        await pilot.press("n")
        await pilot.pause()
        split_line = min(source.line_of(s.start) for s in comparison.second.metrics.splits + comparison.first.metrics.splits)
        assert first.cursor_line == second.cursor_line == split_line

        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ExploreScreen)


def side_view(screen: CompareScreen, side):
    return screen.first_view if side is screen.comparison.first else screen.second_view


def table_text(screen: CompareScreen) -> str:
    from rich.console import Console

    console = Console(width=200, record=True, file=io.StringIO())
    console.print(screen.query_one("#compare-measures", Static).content)
    return console.export_text()


async def test_second_set_of_parameters(project: Path):
    path = project / "inventory.py"
    app = make_app(path, max_size=MAX)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_compare(app, pilot)
        assert screen.second.kind == BASELINE

        async def recomputed(action):
            generation = screen.comparing.generation
            await pilot.press(action)
            await wait_for(pilot, lambda: screen.comparing.generation > generation and screen.comparison is not None
                           and screen.comparison.second.options == screen.second.options(app.options)
                           and screen.comparison.first.options == app.options, what="the new comparison")
            await pilot.pause()

        # b: a second set of parameters, at twice the max size.
        await recomputed("b")
        assert screen.second == type(screen.second)(SECOND_SET, 2 * MAX)
        right = screen.second_view.document.chunks
        assert spans(right) == spans(engine_chunks(path, project, max_size=2 * MAX))
        assert "AST · max 600 nws" in screen.second_view.border_title
        # ] raises the right side's size by the step of + and -; the left side keeps the explorer's.
        await recomputed("right_square_bracket")
        assert screen.second.max_size == 700 == stepped_size(2 * MAX, "nws", 1)
        assert spans(screen.second_view.document.chunks) == spans(engine_chunks(path, project, max_size=700))
        assert spans(screen.first_view.document.chunks) == spans(engine_chunks(path, project, max_size=MAX))
        # The explorer's - changes the left side.
        await recomputed("minus")
        assert app.options.max_size == 200
        assert spans(screen.first_view.document.chunks) == spans(engine_chunks(path, project, max_size=200))
        assert screen.comparison.second.options.max_size == 700
