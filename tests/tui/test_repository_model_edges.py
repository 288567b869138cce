"""The repository view's lists at their edges, on the model the screen draws from: which files
and chunks are listed under each filter, in which order each sort puts them (ties too), what
the counts and totals say, and how the columns fit a width."""

from __future__ import annotations

import pytest
from textual.app import App, ComposeResult

from explorer.engine.measure.problems import FileProblems, Problem
from explorer.engine.options import ChunkOptions
from explorer.tui.repository import scan as scan_module
from explorer.tui.repository.chunk_rows import ChunkRows, kinds_text
from explorer.tui.repository.columns import Column, cell, fitted, tail
from explorer.tui.repository.messages import RepositoryScanned
from explorer.tui.repository.model import CHUNKS, FILES, ChunkRow, RepositoryModel, ScannedFile
from explorer.tui.repository.problems import ProblemRows
from explorer.workspace.walk import WalkOptions


def problem(kind: str, chunk: int = 0, line: int = 0, detail: str = "") -> Problem:
    return Problem(kind, chunk, line * 10, line * 10 + 1, line, detail or f"{kind} at {line}", "x = 1")


def scanned(
    rel: str, *problems: Problem, language: str | None = "python", chunks: int = 4, embedded: tuple[int, int] = (0, 0)
) -> ScannedFile:
    found = FileProblems(
        f"/repo/{rel}", language, chunks, list(problems), embedded_over=embedded[0], embedded_largest=embedded[1]
    )
    return ScannedFile.of(f"/repo/{rel}", rel, found)


def model_of(*files: ScannedFile, **options) -> RepositoryModel:
    model = RepositoryModel(ChunkOptions(max_size=300, **options))
    model.add(files)
    return model


def rels(files) -> list[str]:
    return [f.rel for f in files]


# -- which files are listed ------------------------------------------------------------------
def test_a_file_without_problems_is_not_listed_but_counts_in_the_languages():
    clean = scanned("clean.rs", language="rust")
    model = model_of(clean, scanned("a.py", problem("tiny")))
    assert rels(model.rows()) == ["a.py"]
    assert model.languages == ["python", "rust"]


def test_a_file_of_no_language_is_plain_text_and_languages_are_sorted_once_each():
    model = model_of(
        scanned("b.py", problem("tiny")),
        scanned("notes", problem("tiny"), language=None),
        scanned("a.py", problem("tiny")),
    )
    assert model.languages == ["plain text", "python"]
    model.language = "plain text"
    assert rels(model.rows()) == ["notes"]


def test_the_kind_filter_lists_only_files_with_that_kind_and_counts_and_scores_only_it():
    both = scanned("both.py", problem("dangling", 0), problem("tiny", 1), problem("tiny", 2))
    tiny = scanned("tiny.py", problem("tiny"))
    model = model_of(both, tiny)
    assert (model.count(both), model.score(both)) == (3, 3 + 1 + 1)
    model.kind = "tiny"
    model._changed()
    assert rels(model.rows()) == ["both.py", "tiny.py"]
    assert (model.count(both), model.score(both)) == (2, 2)
    assert [p.kind for p in model.problems(both)] == ["tiny", "tiny"]
    model.kind = "dangling"
    model._changed()
    assert rels(model.rows()) == ["both.py"]
    assert (model.count(both), model.score(both)) == (1, 3)
    assert model.problems(tiny) == []


def test_files_added_after_a_listing_are_listed_at_the_next_one():
    model = model_of(scanned("a.py", problem("tiny")))
    assert rels(model.rows()) == ["a.py"]
    model.add([scanned("b.py", problem("split"))], [("c.py", "too large")])
    assert rels(model.rows()) == ["b.py", "a.py"]
    assert model.failed == [("c.py", "too large")]
    assert len(model.walk()) == 2


# -- the sorts of the file list ---------------------------------------------------------------
def test_worst_first_is_by_weight_and_a_tie_goes_to_the_file_worse_over_every_kind_then_the_path():
    # Under "tiny", b and c tie on their weight (1); c has a split as well, so c comes first.
    a = scanned("a.py", problem("tiny"), problem("tiny"))
    b = scanned("b.py", problem("tiny"))
    c = scanned("c.py", problem("tiny"), problem("split"))
    d = scanned("d.py", problem("tiny"))
    model = model_of(d, b, c, a)
    assert rels(model.rows()) == ["c.py", "a.py", "b.py", "d.py"]  # 6, 2, 1, 1
    model.kind = "tiny"
    model._changed()
    assert rels(model.rows()) == ["a.py", "c.py", "b.py", "d.py"]  # 2, then 1 (c: 6 in all), 1, 1


def test_most_problems_first_is_by_count_not_weight_and_a_tie_goes_to_the_file_with_more_in_all():
    few_heavy = scanned("heavy.py", problem("split"), problem("split"))
    many_light = scanned("light.py", problem("tiny"), problem("tiny"), problem("tiny"))
    tie = scanned("tie.py", problem("tiny"), problem("tiny"), problem("dangling"), problem("dangling"))
    model = model_of(few_heavy, many_light, tie)
    model.sort = "most"
    model._changed()
    assert rels(model.rows()) == ["tie.py", "light.py", "heavy.py"]  # 4, 3, 2
    model.kind = "tiny"
    model._changed()
    # light and tie have 3 and 2 tiny; under "tiny", heavy is gone.
    assert rels(model.rows()) == ["light.py", "tie.py"]
    equal_a = scanned("a.py", problem("tiny"))
    equal_z = scanned("z.py", problem("tiny"), problem("split"))
    model = model_of(equal_a, equal_z)
    model.sort, model.kind = "most", "tiny"
    model._changed()
    assert rels(model.rows()) == ["z.py", "a.py"]  # one tiny each: z has two problems in all


def test_by_kind_puts_the_file_with_the_worst_kind_first_then_the_heavier_then_the_path():
    tiny = scanned("a_tiny.py", problem("tiny"), problem("tiny"), problem("tiny"), problem("tiny"))
    closer = scanned("b_closer.py", problem("closer"))
    closer_more = scanned("c_closer.py", problem("closer"), problem("tiny"))
    dangling = scanned("d_dangling.py", problem("dangling"), problem("tiny"))
    split = scanned("z_split.py", problem("split"))
    model = model_of(tiny, closer, closer_more, dangling, split)
    model.sort = "kind"
    model._changed()
    assert rels(model.rows()) == ["z_split.py", "d_dangling.py", "c_closer.py", "b_closer.py", "a_tiny.py"]


def test_by_path_is_by_the_relative_name_whatever_the_problems():
    model = model_of(
        scanned("b/x.py", problem("split")), scanned("a/y.py", problem("tiny")), scanned("a.py", problem("tiny"))
    )
    model.cycle_sort(2)  # worst -> most -> path
    assert model.sort == "path"
    assert rels(model.rows()) == ["a.py", "a/y.py", "b/x.py"]


# -- the chunk list ---------------------------------------------------------------------------
def chunk_keys(rows: list[ChunkRow]) -> list[tuple[str, int]]:
    return [(row.file.rel, row.chunk) for row in rows]


def test_a_chunk_row_holds_every_problem_of_its_chunk_in_source_order_even_under_a_kind():
    file = scanned("a.py", problem("tiny", 2, 30), problem("dangling", 2, 31), problem("split", 5, 50))
    model = model_of(file)
    model.kind = "dangling"
    model._changed()
    [row] = model.chunk_rows()
    assert row.chunk == 2 and [p.kind for p in row.problems] == ["tiny", "dangling"]
    assert row.line == 30 and row.score == 4
    assert row.worst.kind == "dangling" and row.worst_kind == 1
    assert kinds_text(row) == "dangling tiny"
    # The walk stops only at the chosen kind's problems, in the chunks' order.
    model.toggle_listing()
    assert model.listing == CHUNKS
    assert [(s.file.rel, s.problem.kind) for s in model.walk()] == [("a.py", "dangling")]


def test_a_chunks_worst_problem_is_the_first_of_its_worst_kind():
    row = ChunkRow(
        scanned("a.py"),
        0,
        (problem("tiny", 0, 1), problem("closer", 0, 2, "first closer"), problem("closer", 0, 3, "second closer")),
    )
    assert row.worst.detail == "first closer"
    assert kinds_text(row) == "closer tiny"


def test_chunks_are_filtered_by_language_and_sorted_in_each_order():
    a = scanned("a.py", problem("tiny", 0), problem("tiny", 1), problem("tiny", 1), problem("closer", 3))
    b = scanned(
        "b.ts",
        problem("split", 0),
        problem("tiny", 2),
        problem("dangling", 4),
        problem("tiny", 4),
        language="typescript",
    )
    model = model_of(b, a)
    # a:0 tiny (1), a:1 tiny tiny (2), a:3 closer (3), b:0 split (5), b:2 tiny (1), b:4 dangling tiny (4)
    assert chunk_keys(model.chunk_rows()) == [
        ("b.ts", 0),
        ("b.ts", 4),
        ("a.py", 3),
        ("a.py", 1),
        ("a.py", 0),
        ("b.ts", 2),
    ]
    model.cycle_sort()
    assert model.sort == "most"
    assert chunk_keys(model.chunk_rows()) == [
        ("b.ts", 4),
        ("a.py", 1),
        ("b.ts", 0),
        ("a.py", 3),
        ("a.py", 0),
        ("b.ts", 2),
    ]
    model.cycle_sort()
    assert model.sort == "path"
    assert chunk_keys(model.chunk_rows()) == [
        ("a.py", 0),
        ("a.py", 1),
        ("a.py", 3),
        ("b.ts", 0),
        ("b.ts", 2),
        ("b.ts", 4),
    ]
    model.cycle_sort()
    assert model.sort == "kind"
    assert chunk_keys(model.chunk_rows()) == [
        ("b.ts", 0),
        ("b.ts", 4),
        ("a.py", 3),
        ("a.py", 1),
        ("a.py", 0),
        ("b.ts", 2),
    ]
    model.cycle_language()
    assert model.language == "python"
    assert chunk_keys(model.chunk_rows()) == [("a.py", 3), ("a.py", 1), ("a.py", 0)]


def test_the_walk_follows_the_list_shown_files_or_chunks():
    a = scanned("a.py", problem("tiny", 0, 1), problem("split", 1, 5))
    b = scanned("b.py", problem("dangling", 0, 2), problem("dangling", 0, 3), problem("tiny", 2, 9))
    model = model_of(a, b)
    model.sort = "path"
    model._changed()
    stops = [(s.file.rel, s.problem.line) for s in model.walk()]
    assert stops == [("a.py", 1), ("a.py", 5), ("b.py", 2), ("b.py", 3), ("b.py", 9)]
    model.sort = "worst"
    model._changed()
    model.toggle_listing()
    # Chunks worst first: b:0 (6), a:1 (5), a:0 (1), b:2 (1).
    stops = [(s.file.rel, s.problem.line) for s in model.walk()]
    assert stops == [("b.py", 2), ("b.py", 3), ("a.py", 5), ("a.py", 1), ("b.py", 9)]
    model.toggle_listing()
    assert model.listing == FILES
    assert [(s.file.rel, s.problem.line) for s in model.walk()][0] == ("b.py", 2)  # b: 7, a: 6


# -- counts, totals, filters described ---------------------------------------------------------
def test_totals_and_the_embedded_line_count_the_files_of_the_chosen_language_only():
    a = scanned("a.py", problem("tiny"), problem("tiny"), problem("split"), chunks=5, embedded=(2, 340))
    b = scanned("b.ts", problem("tiny"), language="typescript", chunks=7, embedded=(1, 900))
    c = scanned("c.py", chunks=3, embedded=(1, 310))
    model = model_of(a, b, c)
    totals = model.totals()
    assert (totals["tiny"], totals["split"], totals["dangling"]) == (3, 1, 0)
    assert model.embedded() == (15, 4, 900)
    model.language = "python"
    assert (model.totals()["tiny"], model.totals()["split"]) == (2, 1)
    assert model.embedded() == (8, 3, 340)


def test_embedded_is_a_kind_only_where_the_limit_binds_the_embedded_text():
    assert "embedded" not in model_of().kinds
    assert model_of(fit="embedded").kinds[-2:] == ("embedded", "tiny")


def test_the_filters_are_described_in_words():
    model = model_of(scanned("a.py", problem("tiny")))
    assert model.describe_filters() == "files · every language · every kind · worst first (weighted)"
    model.toggle_listing()
    model.cycle_language()
    model.cycle_kind(-1)  # wraps to the last kind
    model.cycle_sort(-1)  # wraps to the last sort
    assert model.describe_filters() == "chunks · python · tiny · by kind (the worst kind first)"


def test_the_filters_cycle_both_ways_and_wrap():
    model = model_of(scanned("a.py", problem("tiny")), scanned("b.ts", problem("tiny"), language="typescript"))
    seen = []
    for _ in range(4):
        model.cycle_language()
        seen.append(model.language)
    assert seen == ["python", "typescript", None, "python"]
    model.cycle_language(-1)
    assert model.language is None
    model.cycle_language(-1)
    assert model.language == "typescript"
    model.language = None
    model.cycle_kind()
    assert model.kind == "split"
    model.cycle_kind(2)
    assert model.kind == "closer"
    # A language no longer scanned starts the cycle again from "every language".
    model.language = "rust"
    model.cycle_language()
    assert model.language == "python"


# -- columns ----------------------------------------------------------------------------------
def test_columns_that_fit_are_all_kept_and_the_elastic_one_takes_the_room_left_up_to_its_widest():
    columns = [Column("a", 3, 10), Column("path", 4, 90, elastic=True, widest=20), Column("b", 2, 5)]
    assert [(c.name, w) for c, w in fitted(columns, 3 + 1 + 4 + 1 + 2)] == [("a", 3), ("path", 4), ("b", 2)]
    assert [w for _, w in fitted(columns, 15)] == [3, 8, 2]  # 4 spare cells go to the path
    assert [w for _, w in fitted(columns, 100)] == [3, 20, 2]  # never wider than its widest


def test_the_least_kept_columns_go_first_and_the_elastic_one_stays():
    columns = [Column("a", 3, 10), Column("path", 4, 0, elastic=True, widest=4), Column("b", 2, 5), Column("c", 2, 1)]
    assert [c.name for c, _ in fitted(columns, 3 + 1 + 4 + 1 + 2)] == ["a", "path", "b"]  # one over: c goes
    assert [c.name for c, _ in fitted(columns, 3 + 1 + 4)] == ["a", "path"]
    assert [c.name for c, _ in fitted(columns, 1)] == ["path"]


def test_the_most_kept_column_stays_even_when_it_alone_is_too_wide():
    columns = [Column("a", 10, 5), Column("b", 10, 1)]
    assert [(c.name, w) for c, w in fitted(columns, 3)] == [("a", 10)]


def test_an_elastic_column_takes_at_most_its_share_of_the_room():
    columns = [Column("where", 5, 90, elastic=True, widest=60, most=0.4), Column("what", 16, 50)]
    assert [w for _, w in fitted(columns, 100)] == [40, 16]
    # Its share never takes it under its own width.
    assert [w for _, w in fitted(columns, 22)] == [5, 16]


def test_a_cell_is_aligned_or_cut_with_an_ellipsis_in_terminal_cells():
    assert cell("ab", 4, True) == "  ab" and cell("ab", 4, False) == "ab  "
    assert cell("abcd", 4, True) == "abcd"
    assert cell("abcdef", 4, False) == "abc…"
    assert cell("日本語", 4, False) == "日… "  # a wide character that does not fit leaves a space
    assert cell("abc", 0, True) == ""


def test_a_tail_is_cut_at_its_start():
    assert tail("pkg/rules.py", 12) == "pkg/rules.py"
    assert tail("ab", 4) == "ab  "
    assert tail("pkg/rules.py", 6) == "…es.py"
    assert tail("x/日本語", 4) == " …語"
    assert tail("abc", 0) == ""


@pytest.mark.parametrize(("width", "start", "end"), [(1, "…", "…"), (2, "a…", "…c")])
def test_a_cell_of_one_or_two_cells_still_marks_the_cut(width: int, start: str, end: str):
    assert cell("abc", width, True) == start
    assert tail("abc", width) == end


# -- the lists as drawn -------------------------------------------------------------------------
class Lists(App[None]):
    """The view's lists alone, over a model built here (no scan)."""

    def __init__(self, model: RepositoryModel) -> None:
        super().__init__()
        self.model = model

    def compose(self) -> ComposeResult:
        yield ChunkRows(self.model, id="chunks")
        yield ProblemRows(id="problems")


async def test_the_lists_say_what_they_wait_for_before_any_row():
    app = Lists(model_of())
    async with app.run_test(size=(100, 20)) as pilot:
        await pilot.pause()
        chunks, problems = app.query_one(ChunkRows), app.query_one(ProblemRows)
        assert chunks.render_line(1).text.rstrip() == " scanning…"
        assert problems.current is None
        assert problems.render_line(1).text.rstrip() == " no problems of the chosen kind"
        assert problems.header() == "   line  chunk  kind      what · source line"


async def test_a_problem_row_gives_its_line_and_chunk_from_one_and_the_cursor_starts_on_the_first():
    found = [problem("tiny", 0, 2, "under 20 nws"), problem("dangling", 4, 11, "ends on `=`")]
    app = Lists(model_of())
    async with app.run_test(size=(100, 20)) as pilot:
        problems = app.query_one(ProblemRows)
        problems.show(found)
        await pilot.pause()
        assert problems.current is found[0]
        assert problems.row(1).plain == "     12      5  dangling  ends on `=` · x = 1"


async def test_a_chunk_row_lines_up_under_its_header_and_what_is_wrong_is_muted_as_the_chunk_number():
    long_name = "src/package/module_name.py"
    model = model_of(scanned(long_name, problem("closer", 123_455, 41, "starts with `}`")))
    app = Lists(model)
    async with app.run_test(size=(100, 20)) as pilot:
        chunks = app.query_one(ChunkRows)
        chunks.set_count(len(model.chunk_rows()))
        await pilot.pause()
        where = f"{long_name}:42"
        # The numbers are aligned right, the place and the words left.
        assert chunks.header().startswith("score " + "where".ljust(len(where)) + "  chunk kinds")
        row = chunks.row(0)
        assert row.plain.startswith("    3 " + where + " 123456 closer")
        assert row.plain.endswith(" python   starts with `}`")
        styles = {row.plain[span.start : span.end]: span.style for span in row.spans}
        assert styles["starts with `}`"] == styles["123456"]
        assert styles["starts with `}`"] != styles["closer"]  # the kinds stand out


# -- the scan ---------------------------------------------------------------------------------
CODE = "def f(x):\n    return [\n        x,\n    ]\n"


def test_the_scan_walks_with_the_views_walk_settings_and_tags_every_batch_with_its_generation(
    tmp_path, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setenv("CHUNK_EXPLORER_CACHE", "off")
    monkeypatch.setattr(scan_module, "POST_EVERY", 0)  # a batch per finished file
    root = tmp_path / "repo"
    (root / "gen").mkdir(parents=True)
    for name in ("a.py", "b.py", "gen/c.py"):
        (root / name).write_text(CODE)
    posted: list[RepositoryScanned] = []
    scan_module.scan(
        str(root), WalkOptions(exclude=("gen",)), ChunkOptions(max_size=10), 1, 7, posted.append, lambda: False
    )
    assert sorted(f.rel for m in posted for f in m.files) == ["a.py", "b.py"]
    assert [m.generation for m in posted] == [7] * len(posted) and len(posted) >= 3
    assert [(m.done, m.total) for m in posted[:2]] == [(1, 2), (2, 2)]
    assert posted[-1].finished and (posted[-1].done, posted[-1].total) == (2, 2)
