"""The repository view: every file's chunking problems, filters, Enter opening the file at the
problem, and n/p walking the problems across files."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.content import Content

from explorer.engine.api import chunk_parsed, parse
from explorer.engine.measure.problems import WEIGHTS, find_problems
from explorer.engine.options import ChunkOptions
from explorer.tui.repository.chunk_rows import ChunkRows
from explorer.tui.repository.files import FileRows
from explorer.tui.repository.model import CHUNKS
from explorer.tui.repository.problems import ProblemRows
from explorer.tui.repository.screen import RepositoryScreen
from explorer.tui.widgets.chunks.list import ChunkList
from explorer.tui.widgets.source.view import SourceView

from .helpers import SIZE, make_app, wait_for, wait_until_idle


@pytest.fixture(autouse=True)
def _in_process(monkeypatch: pytest.MonkeyPatch) -> None:
    # One job: the scan runs in the worker thread, no process pool to start in a test.
    monkeypatch.setattr(RepositoryScreen, "jobs", 1)


def expected(path: Path, options: ChunkOptions):
    """The engine's problems of a file, computed here without the app."""
    parsed = parse(path.name, path.read_bytes(), options)
    return find_problems(parsed, chunk_parsed(parsed, options), options)


#: At this size the fixture's inventory.py has dangling openers (and router.ts none), tiny
#: chunks and too-big definitions: every kind the filters walk through.
DANGLING_SIZE = 120

async def open_repository(app, pilot) -> RepositoryScreen:
    await pilot.pause()
    await pilot.press("R")
    await wait_for(pilot, lambda: isinstance(app.screen, RepositoryScreen) and app.screen.model.complete,
                   what="the scan")
    await pilot.pause()
    return app.screen  # type: ignore[return-value]


async def test_the_view_lists_every_file_worst_first_with_the_engines_problems(project: Path):
    app = make_app(project, max_size=300)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_repository(app, pilot)
        options = ChunkOptions(max_size=300)
        want = {name: expected(project / name, options) for name in ("inventory.py", "router.ts")}
        rows = screen.model.rows()
        assert [f.rel for f in rows] == sorted(want, key=lambda n: -want[n].score)
        for file in rows:
            assert [(p.kind, p.start) for p in file.found.problems] == [
                (p.kind, p.start) for p in want[file.rel].problems]
        files = screen.query_one(FileRows)
        assert files.count == 2 and files.current is rows[0]
        problems = screen.query_one(ProblemRows)
        assert problems.problems == rows[0].found.problems
        status = str(screen.query_one("#repository-status").content)
        assert "2 files scanned" in status and "max 300 nws" in status

        # Moving down the file list shows the other file's problems.
        await pilot.press("down")
        assert problems.problems == rows[1].found.problems


async def test_filters_by_kind_and_language_and_sorts(project: Path):
    app = make_app(project, max_size=DANGLING_SIZE)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_repository(app, pilot)
        model = screen.model
        await pilot.press("f", "f")  # every kind -> split -> dangling
        assert model.kind == "dangling"
        assert [f.rel for f in model.rows()] == ["inventory.py"]  # router.ts has no dangling opener
        problems = screen.query_one(ProblemRows).problems
        assert problems and {p.kind for p in problems} == {"dangling"}
        await pilot.press("F", "F")  # back to every kind
        assert model.kind is None and len(model.rows()) == 2
        await pilot.press("l")
        assert model.language == "python" and [f.rel for f in model.rows()] == ["inventory.py"]
        await pilot.press("l")
        assert model.language == "typescript" and [f.rel for f in model.rows()] == ["router.ts"]
        await pilot.press("l", "s", "s")
        assert model.language is None and model.sort == "path"
        assert [f.rel for f in model.rows()] == ["inventory.py", "router.ts"]


async def test_enter_opens_the_file_at_the_problem_and_n_p_walk_across_files(project: Path):
    app = make_app(project, max_size=DANGLING_SIZE)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_repository(app, pilot)
        await pilot.press("f", "f")  # dangling openers only
        stop = screen.chosen()
        assert stop is not None and stop.problem.kind == "dangling"
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.document is not None and app.document.path == stop.file.path,
                       what="the file to open")
        await wait_until_idle(pilot, app)
        await pilot.pause()
        explore = app.explore
        assert app.screen is explore
        chunks = explore.query_one(ChunkList)
        source = explore.query_one(SourceView)
        assert chunks.cursor == stop.problem.chunk
        assert source.cursor_line == stop.problem.line
        assert source.highlighted_range == (stop.problem.start, stop.problem.end)
        # The chunk list flags the chunk that ends on the opener.
        chunk = app.document.chunks[stop.problem.chunk]
        assert chunk.text.rstrip().endswith(stop.problem.token)
        row = chunks.render_line(stop.problem.chunk + 1 - int(chunks.scroll_y)).text
        assert f"ends{stop.problem.token}" in row

        # Back in the view (the scan is kept, not redone), every kind, the first problem.
        model = explore.repository
        await pilot.press("R")
        await pilot.pause()
        assert isinstance(app.screen, RepositoryScreen) and app.screen.model is model
        await pilot.press("F", "F", "s", "s")  # every kind, by path: inventory.py, then router.ts
        await pilot.press("enter")
        await wait_until_idle(pilot, app)
        walk = model.walk()
        assert explore.walk_at == 0 and walk[0].file.rel == "inventory.py"
        in_first = sum(1 for s in walk if s.file.rel == "inventory.py")
        for _ in range(in_first):
            await pilot.press("n")
        await wait_for(pilot, lambda: app.document is not None and app.document.path.endswith("router.ts"),
                       what="n to cross into the next file")
        await wait_until_idle(pilot, app)
        await pilot.pause()
        first_of_router = walk[in_first].problem
        assert explore.walk_at == in_first
        assert source.cursor_line == first_of_router.line and chunks.cursor == first_of_router.chunk
        await pilot.press("p")
        await wait_for(pilot, lambda: app.document.path.endswith("inventory.py"), what="p to go back")
        await wait_until_idle(pilot, app)
        await pilot.pause()
        assert source.cursor_line == walk[in_first - 1].problem.line


async def test_without_a_scan_n_and_p_walk_the_open_files_problems(project: Path):
    path = project / "inventory.py"
    app = make_app(path, max_size=DANGLING_SIZE)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until_idle(pilot, app)
        await pilot.pause()
        found = app.document.chunking.problems
        assert found is not None and len(found.problems) >= 3
        source = app.explore.query_one(SourceView)
        source.move_cursor(0, 0)
        await pilot.press("n")
        assert source.cursor_line == found.problems[0].line
        await pilot.press("n", "n")
        assert source.cursor_line == found.problems[2].line
        await pilot.press("p")
        assert source.cursor_line == found.problems[1].line


async def test_changed_parameters_scan_again(project: Path):
    app = make_app(project, max_size=300)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_repository(app, pilot)
        first = screen.model
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("plus")  # max size 300 -> 400
        await wait_until_idle(pilot, app)
        screen = await open_repository(app, pilot)
        assert screen.model is not first and screen.model.options.max_size == 400


async def test_undecodable_files_are_left_out_and_names_are_shown_literally(project: Path):
    (project / "latin1.py").write_bytes(b"x = '\xe9t\xe9'\n" * 3)
    odd = project / "[b]odd[@click=app.quit].py"
    odd.write_text("import os\n\n\nclass K:\n    pass\n")
    app = make_app(project, max_size=300)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_repository(app, pilot)
        names = {f.rel for f in screen.model.files}
        assert "latin1.py" not in names and odd.name in names
        assert not screen.model.failed
        await pilot.press("s", "s", "g")  # by path: the odd name first
        files = screen.query_one(FileRows)
        assert screen.model.rows()[0].rel == odd.name
        assert odd.name in files.render_line(1).text
        # The title is shown as written: its markup escaped, the name whole.
        title = Content.from_markup(str(screen.query_one(ProblemRows).border_title)).plain
        assert title == f"Problems in {odd.name} (1)"


async def test_the_chunk_list_ranks_chunks_across_the_repository_and_enter_opens_one(project: Path):
    app = make_app(project, max_size=DANGLING_SIZE)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_repository(app, pilot)
        model = screen.model
        await pilot.press("c")
        assert model.listing == CHUNKS and screen.focused is screen.query_one(ChunkRows)
        options = ChunkOptions(max_size=DANGLING_SIZE)
        want: dict[tuple[str, int], set[str]] = {}
        for name in ("inventory.py", "router.ts"):
            for problem in expected(project / name, options).problems:
                want.setdefault((name, problem.chunk), set()).add(problem.kind)
        rows = model.chunk_rows()
        assert {(row.file.rel, row.chunk): {p.kind for p in row.problems} for row in rows} == want
        scores = [row.score for row in rows]
        assert scores == sorted(scores, reverse=True) and scores[0] > scores[-1], "worst first"
        assert all(row.score == sum(WEIGHTS[p.kind] for p in row.problems) for row in rows)
        listed = screen.query_one(ChunkRows)
        assert listed.count == len(rows) and "where" in listed.header() and "kinds" in listed.header()

        # Filters and sorts apply to the chunks as to the files.
        await pilot.press("f", "f")  # dangling
        assert model.chunk_rows() and all(any(p.kind == "dangling" for p in r.problems) for r in model.chunk_rows())
        await pilot.press("F", "F", "l")  # every kind, python only
        assert {r.file.language for r in model.chunk_rows()} == {"python"}
        await pilot.press("l", "l", "s", "s", "s")  # every language; most, path, then by kind
        assert model.sort == "kind"
        kinds = [r.worst_kind for r in model.chunk_rows()]
        assert kinds == sorted(kinds)

        # Enter opens the file at the chunk under the cursor; n then walks the chunks' order.
        await pilot.press("home", "j")
        row = model.chunk_rows()[1]
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.document is not None and app.document.path == row.file.path,
                       what="the chunk's file")
        await wait_until_idle(pilot, app)
        await pilot.pause()
        explore = app.explore
        assert explore.query_one(ChunkList).cursor == row.chunk
        walk = model.walk()
        at = explore.walk_at
        assert at is not None and walk[at].file is row.file and walk[at].problem.chunk == row.chunk
        await pilot.press("n")
        await wait_until_idle(pilot, app)
        await pilot.pause()
        following = walk[at + 1]
        assert explore.walk_at == at + 1
        assert app.document.path == following.file.path
        assert explore.query_one(ChunkList).cursor == following.problem.chunk
