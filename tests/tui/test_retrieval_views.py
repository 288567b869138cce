"""The retrieval views: whiskers in the sweep, the queries view, leaving during a run."""

from __future__ import annotations

import io
import re
import shutil
import threading
from pathlib import Path

import pytest
from rich.console import Console
from textual.widgets import Input, Static

from explorer.display import recommendation_sentence
from explorer.engine.options import ChunkOptions
from explorer.engine.retrieval import evaluate
from explorer.engine.retrieval.recommend import recommend
from explorer.tui.queries.model import RetrievalRun
from explorer.tui.queries.screen import QueriesScreen, default_settings
from explorer.tui.queries.table import QueryTable
from explorer.tui.sweep.advice import AdviceLine
from explorer.tui.sweep.retrieval import RetrievalPanel
from explorer.tui.sweep.screen import SweepScreen
from explorer.tui.sweep.whiskers import WHISKER_METRICS
from explorer.workspace.settings import SETTINGS_FILE, read_settings_file
from explorer.workspace.sources import read_sources
from explorer.workspace.walk import WalkOptions, plan

from .helpers import SIZE, focus, make_app, notified, run_from_palette, wait_for

MARKS = re.compile(r"(ref|▲|▼|≈)")


@pytest.fixture(autouse=True)
def _in_process(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(SweepScreen, "jobs", 1)
    monkeypatch.setattr(QueriesScreen, "jobs", 1)


class Watched:
    """Wraps the real ``evaluate_directory`` of the worker: holds the run at its first
    progress report until ``release`` is set (so the test acts while it is surely
    running), and records what it returned, and when."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch):
        import explorer.tui.queries.runner as runner

        self.release = threading.Event()
        self.done = threading.Event()
        self.results: list[object] = []
        real = runner.evaluate_directory

        def watched(*args, on_progress, **kwargs):
            def held(progress):
                self.release.wait(30)
                on_progress(progress)

            try:
                result = real(*args, on_progress=held, **kwargs)
                self.results.append(result)
                return result
            finally:
                self.done.set()

        monkeypatch.setattr(runner, "evaluate_directory", watched)


def engine_result(root: Path, settings: list[ChunkOptions], reference: int, queries: str = "docs,calls,types"):
    """The engine's own evaluation of the same files, for comparison (with the query sources
    the explorer evaluates with unless told otherwise)."""
    walk = WalkOptions()
    sources, _ = read_sources(plan([str(root)], walk, root=str(root)), walk.max_file_size)
    return evaluate(sources, settings, reference=reference, jobs=1, queries=queries)


def rendered(renderable) -> str:
    console = Console(width=200, record=True, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


async def test_sweep_shows_retrieval_whiskers_and_marks_settings_not_separated(project: Path):
    app = make_app(project, max_size=1500)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.action_sweep()
        await wait_for(pilot, lambda: isinstance(app.screen, SweepScreen) and app.screen.result is not None,
                       what="the sweep")
        screen = app.screen
        sizes = screen.query_one("#sweep-sizes", Input)
        panel = screen.query_one(RetrievalPanel)
        sizes.value = "40, 300, 1500"
        await focus(pilot, sizes)
        await pilot.press("enter")
        await wait_for(pilot, lambda: panel.run is not None and len(panel.run.settings) == 3,
                       what="the retrieval evaluation")
        await pilot.pause()
        settings = [ChunkOptions(max_size=s) for s in (40, 300, 1500)]
        want = engine_result(project, settings, reference=2)  # 1500 is the setting in use
        chart = rendered(panel.query_one("#retrieval-chart", Static).content)
        rows = {int(line.split()[0]): line for line in chart.splitlines()  # the whisker rows, not the trade-off's
                if re.match(r"\s*\d+\s+\d", line) and "●" in line}
        assert sorted(rows) == [1, 2, 3], chart
        seen_marks = set()
        for k, setting in enumerate(want.settings):
            row = rows[k + 1]
            assert row.count("●") == len(WHISKER_METRICS), row  # one whisker per measure
            assert "├" in row and "┤" in row
            marks = MARKS.findall(row)
            expected = []
            for name in WHISKER_METRICS:
                delta = setting.delta[name]
                expected.append("ref" if k == 2 else "≈" if not delta.separated
                                else "▲" if delta.value > 0 else "▼")
                assert f"{100 * setting.metrics[name].value:5.1f}" in row
            assert marks == expected, (row, expected)
            seen_marks.update(marks)
        # The fixture is known to give both kinds: a real difference and none.
        assert {"≈", "▼", "ref"} <= seen_marks
        assert "not separated" in chart and "only 7 queries" in chart

        # v opens the queries view on this evaluation (no second run); escape comes back.
        await pilot.press("v")
        await wait_for(pilot, lambda: isinstance(app.screen, QueriesScreen), what="the queries view")
        queries = app.screen
        assert queries.run is panel.run
        await pilot.pause()
        assert queries.query_one(QueryTable).row_count == len(want.queries)
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is screen, what="back to the sweep")

        # The panel recommends a setting for the top 5 (the engine's rule, on the same figures);
        # a uses it and writes it to the settings file.
        advice = recommend(want, "top5", current=2)
        assert panel.run.recommendation is not None
        assert panel.run.recommendation.setting == advice.setting
        reason = recommendation_sentence(want, advice)  # the verdict, when there is no head, and why
        assert reason in " ".join(chart.split()) or reason[:60] in chart
        line = rendered(screen.query_one(AdviceLine).content)
        chosen = want.settings[advice.setting]
        head = (f"Advice: keep your current settings, #{chosen.index + 1}" if advice.keep_current
                else f"Advice: use #{chosen.index + 1}")
        assert head in line and "only 7 queries" in line, line
        assert not (project / SETTINGS_FILE).exists()
        await pilot.press("a")
        await pilot.pause()
        recommended = want.settings[advice.setting].options.max_size
        assert app.options.max_size == recommended
        assert read_settings_file(project / SETTINGS_FILE).options.max_size == recommended


def cell_texts(table: QueryTable, row: int) -> list[str]:
    return [str(cell) for cell in table.get_row_at(row)]


async def test_queries_view_lists_ranks_and_draws_target_and_top_chunks(project: Path):
    app = make_app(project, max_size=300)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("r")
        await wait_for(pilot, lambda: isinstance(app.screen, QueriesScreen), what="the queries view")
        screen: QueriesScreen = app.screen  # type: ignore[assignment]
        await wait_for(pilot, lambda: screen.run is not None, what="the evaluation")
        await pilot.pause()
        settings = default_settings(ChunkOptions(max_size=300))
        assert [s.strategy for s in settings] == ["ast", "lines", "ast"]
        want = engine_result(project, settings, reference=0)
        table = screen.query_one(QueryTable)
        assert table.row_count == len(want.queries) == 7
        for q, query in enumerate(want.queries):
            cells = cell_texts(table, q)
            assert cells[0] == str(q + 1)
            # Ranks past the top 10 read ">10", as the header says, whatever their number.
            ranks = [str(rank) if rank is not None and rank <= 10 else ">10"
                     for rank in (s.outcomes[q].rank for s in want.settings)]
            assert cells[1] == f"{query.path}:{query.line_start + 1}"
            assert cells[2:5] == ranks
            assert query.text[:20] in cells[5]

        # A query whose top 5 (under the reference) holds both a hit and a miss in the target's own file.
        run: RetrievalRun = screen.run  # type: ignore[assignment]
        chosen = next(
            q for q, query in enumerate(want.queries)
            if {c.hit for c in want.settings[0].outcomes[q].top if c.path == query.path} == {True, False}
        )
        await focus(pilot, table)
        table.move_cursor(row=chosen)
        await pilot.pause()
        query = want.queries[chosen]
        top = want.settings[0].outcomes[chosen].top
        view = screen.source_view
        assert view.document is not None and view.document.path.endswith(query.path)
        await wait_for(pilot, lambda: view.scroll_y <= query.line_start < view.scroll_y + view.scrollable_content_region.height,
                       what="the target scrolled into view")
        styles = screen.overlay_styles
        source = view.document.source

        def drawn(line: int):
            view.scroll_to(y=max(0, line - 2), animate=False, immediate=True)
            strip = view.render_line(line - int(view.scroll_y))
            return strip

        def backgrounds(line: int) -> set:
            strip = drawn(line)
            code = strip.crop(view.gutter_width, strip.cell_length)
            return {seg.style.bgcolor for seg in code if seg.style is not None and seg.text.strip()}

        def gutter_bar(line: int):
            strip = drawn(line)
            bar = strip.crop(view.gutter_width - 2, view.gutter_width - 1)
            return next(iter(bar)).style

        for line in (query.line_start, query.line_end):
            assert gutter_bar(line).color == styles.target.color, "the target's lines carry its bar"
        outside = next(line for line in range(source.line_count)
                       if not query.line_start <= line <= query.line_end and source.line_text(line).strip())
        assert gutter_bar(outside).color != styles.target.color
        for chunk in top:
            if chunk.path != query.path:
                continue
            line = next(line for line in range(chunk.line_start, chunk.line_end + 1) if source.line_text(line).strip())
            expected = (styles.hit if chunk.hit else styles.miss).bgcolor
            assert expected in backgrounds(line), (chunk, line)
        assert styles.hit.bgcolor != styles.miss.bgcolor

        # The detail says what each setting did and lists the top 5 with hits and misses.
        detail = rendered(screen.query_one("#queries-detail", Static).content)
        assert query.text[:30] in detail
        assert "✓ hit" in detail and "✗ miss" in detail
        for chunk in top:
            assert f"{chunk.rank} {'✓ hit ' if chunk.hit else '✗ miss'}  {chunk.path}:{chunk.line_start + 1}–" in detail
        for k, setting in enumerate(want.settings):
            rank = setting.outcomes[chosen].rank
            assert f"{run.labels()[k]}{' (ref)' if k == 0 else ''}: rank {rank if rank else '>10'}" in detail

        # ] shows the next setting's chunks: its top 5 and its chunk boundaries.
        await pilot.press("right_square_bracket")
        await pilot.pause()
        assert screen.shown_setting == 1
        assert view.document.options.strategy == "lines"
        assert "as chunked by" in str(view.border_title) and "lines" in str(view.border_title)


async def test_the_lesson_names_the_setting_that_cut_the_definition(project: Path):
    app = make_app(project, max_size=300)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.push_screen(QueriesScreen(str(project), settings=[ChunkOptions(max_size=300),
                                                              ChunkOptions(max_size=40)]))
        await wait_for(pilot, lambda: isinstance(app.screen, QueriesScreen) and app.screen.run is not None,
                       what="the evaluation")
        screen: QueriesScreen = app.screen  # type: ignore[assignment]
        run = screen.run
        assert run is not None
        # "matches" (four lines) fits one 300-nws chunk; 40-nws chunks cut it, and it ranks lower.
        q = next(k for k, query in enumerate(run.result.queries) if query.name == "matches")
        ranks = [s.outcomes[q].rank for s in run.settings]
        assert ranks[0] is not None and ranks[1] is not None and ranks[0] < ranks[1]
        table = screen.query_one(QueryTable)
        await focus(pilot, table)
        table.move_cursor(row=q)
        await pilot.press("right_square_bracket")  # show the 40-nws chunks
        await pilot.pause()
        target = run.result.queries[q]
        layout = screen.source_view.document.chunking.layout
        pieces = len(layout.chunks_between(target.start, target.end))
        assert pieces > 1
        detail = rendered(screen.query_one("#queries-detail", Static).content)
        lesson = (f"max_size=40 cut this definition into {pieces} pieces: rank {ranks[1]}; "
                  f"max_size=300 kept it whole: rank {ranks[0]}.")
        assert lesson in " ".join(detail.split())


async def test_leaving_during_a_run_cancels_it_without_hanging(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    watched = Watched(monkeypatch)
    # A real tree: the explorer's own sources, a few hundred definitions with docs.
    root = tmp_path / "code"
    shutil.copytree(Path(__file__).parents[2] / "explorer", root)
    app = make_app(root, max_size=300)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("r")
        await wait_for(pilot, lambda: isinstance(app.screen, QueriesScreen), what="the queries view")
        screen: QueriesScreen = app.screen  # type: ignore[assignment]
        # The screen starts its evaluation when mounted.
        worker = await wait_for(pilot, lambda: screen.evaluation.worker, what="the evaluation to start")
        assert not worker.is_finished, screen.query_one("#queries-status", Static).content
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, QueriesScreen), what="the explorer")
        assert worker.is_cancelled
        # The thread itself stops: the engine polls the cancellation and the run gives up (None).
        watched.release.set()
        await wait_for(pilot, watched.done.is_set, what="the evaluation thread to stop")
        assert watched.results == [None] and screen.run is None
        # The explorer still answers.
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: type(app.screen).__name__ == "HelpScreen", what="help")
        help_text = "\n".join(str(line[0]) for line in app.screen.query_one("#help-text").lines)  # type: ignore[attr-defined]
        assert "Retrieval query by query" in help_text and "Order the queries" not in help_text  # its own keys: in its own help


async def test_choosing_a_query_scrolls_its_target_into_view(project: Path):
    app = make_app(project, max_size=300)
    async with app.run_test(size=(160, 24)) as pilot:  # a short view: targets far down are off screen
        await pilot.pause()
        await pilot.press("r")
        await wait_for(pilot, lambda: isinstance(app.screen, QueriesScreen) and app.screen.run is not None,
                       what="the evaluation")
        screen: QueriesScreen = app.screen  # type: ignore[assignment]
        view = screen.source_view
        queries = screen.run.result.queries  # type: ignore[union-attr]
        lowest = max(range(len(queries)), key=lambda q: queries[q].line_start)
        assert queries[lowest].line_start > 2 * view.scrollable_content_region.height
        screen.query_one(QueryTable).move_cursor(row=lowest)
        line = queries[lowest].line_start
        await wait_for(pilot, lambda: view.scroll_y <= line < view.scroll_y + view.scrollable_content_region.height,
                       what="the target scrolled into view")
        assert view.cursor_line == line


async def test_leaving_the_sweep_during_its_retrieval_run_cancels_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    watched = Watched(monkeypatch)
    root = tmp_path / "code"
    shutil.copytree(Path(__file__).parents[2] / "explorer", root)
    app = make_app(root, max_size=1000)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.action_sweep()
        await wait_for(pilot, lambda: isinstance(app.screen, SweepScreen) and app.screen.result is not None, what="the sweep")
        workers = [w for w in app.workers if w.group == "retrieval"]
        assert workers and not workers[0].is_finished, "the retrieval evaluation starts after the sweep"
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, SweepScreen), what="the explorer")
        assert workers[0].is_cancelled
        watched.release.set()
        await wait_for(pilot, watched.done.is_set, what="the evaluation thread to stop")
        assert watched.results == [None]


async def test_the_palette_opens_the_queries_view_and_o_orders_by_disagreement(project: Path):
    from explorer.tui.palette.screen_keys import screen_key_commands
    from explorer.tui.queries.model import disagreement, disagrees

    app = make_app(project, max_size=300)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        names = [name for name, _, _ in screen_key_commands(app.screen)]
        assert "tools: retrieval query by query: which settings find each definition" in names
        await run_from_palette(pilot, "tools: retrieval query")
        await wait_for(pilot, lambda: isinstance(app.screen, QueriesScreen) and app.screen.run is not None,
                       what="the evaluation")
        screen: QueriesScreen = app.screen  # type: ignore[assignment]
        run = screen.run
        assert run is not None
        table = screen.query_one(QueryTable)
        await focus(pilot, table)
        as_found = [cell_texts(table, row)[0] for row in range(table.row_count)]
        assert as_found == [str(q + 1) for q in range(len(run.result.queries))]
        await pilot.press("o")
        await pilot.pause()
        ordered = [int(cell_texts(table, row)[0]) - 1 for row in range(table.row_count)]
        # First the queries some settings find in the top 10 and others miss; then by rank spread.
        keys = [disagreement(run, q) for q in ordered]
        assert keys == sorted(keys, reverse=True) and keys[0] > keys[-1]
        split = [disagrees(run, q) for q in ordered]
        assert split == sorted(split, reverse=True)
        # Home and End reach both ends of the reordered list.
        await pilot.press("end")
        assert table.cursor_row == table.row_count - 1
        await pilot.press("home")
        assert table.cursor_row == 0
        assert sorted(ordered) == list(range(len(run.result.queries)))


def _uses_project(root: Path) -> Path:
    """Code with no docs, whose definitions are called and typed from other files: only the
    calls and types sources find queries in it."""
    root.mkdir()
    (root / "shapes.py").write_text(
        "class Rectangle:\n    def __init__(self, width, height):\n        self.width = width\n"
        "        self.height = height\n\n    def area(self):\n        return self.width * self.height\n\n\n"
        "def scale_rectangle(shape, factor):\n    return Rectangle(shape.width * factor, shape.height * factor)\n")
    (root / "report.py").write_text(
        "from shapes import Rectangle, scale_rectangle\n\n\n"
        "def summarize(items: list[Rectangle]) -> str:\n    total = 0\n    for item in items:\n"
        "        bigger = scale_rectangle(item, 2)\n        total += bigger.area()\n    return str(total)\n\n\n"
        "def build_report(width, height):\n    first = Rectangle(width, height)\n"
        "    return summarize([first, scale_rectangle(first, 3)])\n")
    return root


async def test_the_sweep_evaluates_with_the_query_sources_listed_as_eval_does(tmp_path: Path):
    root = _uses_project(tmp_path / "code")
    app = make_app(root, max_size=300)
    messages: list = []
    async with app.run_test(size=SIZE, message_hook=messages.append) as pilot:
        await pilot.pause()
        await pilot.press("S")
        await wait_for(pilot, lambda: isinstance(app.screen, SweepScreen) and app.screen.retrieval.run is not None,
                       what="the evaluation")
        screen: SweepScreen = app.screen  # type: ignore[assignment]
        field = screen.query_one("#sweep-queries", Input)
        assert field.value == "docs,calls,types" and app.query_sources == ("docs", "calls", "types")
        run = screen.retrieval.run
        settings = [s.options for s in screen.result.settings]
        want = engine_result(root, settings, reference=0, queries="docs,calls,types")  # 300 is not in the grid
        assert run.result.query_source == "docs,calls,types"
        assert len(run.result.queries) == len(want.queries) > 0, "calls and types find what docs cannot"
        assert [q.text for q in run.result.queries] == [q.text for q in want.queries]
        line = rendered(screen.query_one(AdviceLine).content)
        assert "Advice:" in line and f"only {len(want.queries)} queries" in line, "the same warning as eval's"

        # Docs alone: the same sweep, evaluated again (not swept again), with nothing to measure.
        swept = screen.result
        field.value = "docs"
        await focus(pilot, field)
        await pilot.press("enter")
        await wait_for(pilot, lambda: screen.retrieval.run is not None and screen.retrieval.run is not run,
                       what="the evaluation with docs only")
        assert screen.result is swept and app.query_sources == ("docs",)
        assert screen.retrieval.run.result.queries == []
        assert "No advice" in rendered(screen.query_one(AdviceLine).content)
        chart = rendered(screen.query_one("#retrieval-chart", Static).content)
        assert "No queries. docs: no function, method or class here has a doc" in chart and "Another source" in chart

        # A source eval does not know: refused, with the known ones named; nothing runs.
        field.value = "docs,commits"
        await focus(pilot, field)
        generation = screen.retrieval.evaluation.generation
        await pilot.press("enter")
        await pilot.pause()
        assert screen.retrieval.evaluation.generation == generation
        assert any("query sources are docs, calls, types, history" in n.message for n in notified(messages))

        # The queries view opened from the explorer uses the sources chosen in the sweep.
        await pilot.press("escape", "escape")
        await wait_for(pilot, lambda: app.screen is app.explore, what="the explorer")
        await pilot.press("r")
        await wait_for(pilot, lambda: isinstance(app.screen, QueriesScreen) and app.screen.run is not None,
                       what="the queries view")
        assert app.screen.run.result.query_source == "docs"  # type: ignore[attr-defined]
