"""No number is ever shown cut: at 80x24 the panes that hold numbers of four and five
digits show them whole (or abbreviated visibly, ``1.0k``, ``…``), never a ``103`` for 1,036."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from explorer.display import count_text, plural
from explorer.tui.widgets.ast.tree import AstTree

from .helpers import make_app, wait_for
from .test_teach import open_teach

SMALL = (80, 24)


@pytest.fixture
def big_module(tmp_path: Path) -> Path:
    """A module of about 20,000 nws: its size has five digits, its functions' four."""
    body = "".join(f"    total_{j} = value * {j} + offset_{j} - {j}\n" for j in range(40))
    path = tmp_path / "big.py"
    path.write_text("".join(f"def compute_{i}(value, offset):\n{body}    return value\n\n\n" for i in range(14)))
    return path


def test_count_text_shortens_visibly_and_never_cuts() -> None:
    assert count_text(1036) == "1,036" and count_text(1036, 4) == "1036"
    assert count_text(1036, 3) == "1k" and count_text(12_345, 4) == "12k" and count_text(1_234_567, 4) == "1.2M"
    assert count_text(99_999, 2) == "…"
    for value in (7, 1036, 12_345, 987_654, 1_234_567):
        for width in range(1, 8):
            shown = count_text(value, width)
            assert len(shown) <= width or shown == count_text(value)
            # Whatever is shown is the number, shortened with a sign, never its first digits alone.
            assert shown == "…" or shown.replace(",", "") == str(value) or shown[-1] in "kMG"


async def test_teach_tree_shows_four_and_five_digit_sizes_whole(big_module: Path) -> None:
    app = make_app(big_module, max_size=1500)
    async with app.run_test(size=SMALL) as pilot:
        screen = await open_teach(app, pilot)
        tree = screen.query_one(AstTree)
        if not tree.display:  # below 110 columns teach starts with the tree hidden: t shows it
            await pilot.press("t")
            await wait_for(pilot, lambda: tree.display and tree.scrollable_content_region.width > 0,
                           what="the syntax tree")
            await pilot.pause()
        width = tree.scrollable_content_region.width
        parsed = app.document.file.parsed
        sizes = {count_text(parsed.source.nws(n.start_byte, n.end_byte))
                 for n in [parsed.root, *parsed.root.named_children]}
        shown = []
        for y in range(tree.scrollable_content_region.height):
            line = tree.render_line(y).text.rstrip()
            assert len(line) <= width, line  # nothing runs past the pane's edge
            shown += re.findall(r"([\d,]+)/1,500 nws", line)
        assert shown, "the tree shows sizes"
        assert set(shown) <= sizes  # every size shown is a node's size, whole
        assert any(len(s.replace(",", "")) == 5 for s in shown) and any(len(s.replace(",", "")) == 4 for s in shown)


async def test_the_compare_views_quality_table_shows_every_value_whole_at_80x24(big_module: Path) -> None:
    from textual.widgets import Static

    from explorer.tui.compare.model import MEASURES

    from .test_compare import open_compare

    app = make_app(big_module, max_size=1500)
    async with app.run_test(size=SMALL) as pilot:
        screen = await open_compare(app, pilot)
        measures = screen.query_one("#compare-measures", Static)
        width = measures.content_region.width
        rows = [measures.render_line(y).text for y in range(1, measures.region.height - 1)]  # inside the border
        shown = "\n".join(row[: width + 2] for row in rows)
        comparison = screen.comparison
        sizes = comparison.first.summary.size_stats()
        assert sizes["max"] >= 1000  # four digits: the full form does not fit at 80 columns
        for measure in MEASURES:
            for side in (comparison.first, comparison.second):
                # each value whole, in the full form or the compact one, a cell of its own
                forms = {measure.shown(side, False), measure.shown(side, True)}
                assert any(re.search(rf"(?<!\S){re.escape(form)}(?!\S)", shown) for form in forms), (forms, shown)
        assert "(…" not in shown and "–…" not in shown
        assert all(len(row.rstrip()) <= width + 2 for row in rows)


async def test_the_stats_lines_are_whole_at_80x24(big_module: Path) -> None:
    from explorer.tui.widgets.chunks.stats import StatsPanel

    app = make_app(big_module, max_size=1500)
    async with app.run_test(size=SMALL) as pilot:
        await wait_for(pilot, lambda: app.document is not None and not app.document.file.partial, what="the file")
        await wait_for(pilot, lambda: app.document.chunks, what="the chunks")
        await pilot.pause()
        panel = app.explore.query_one(StatsPanel)
        width = panel.content_region.width
        rows = [panel.render_line(y).text for y in range(panel.region.height)]
        shown = "\n".join(rows)
        stats = app.document.chunking.stats
        assert stats.largest >= 1000 and width < 40  # four digits in a narrow pane
        assert "…" not in shown and all(len(row.rstrip()) <= width + 1 for row in rows)  # (+1: the padding)
        for figure in (f"{plural(stats.count, 'chunk')}", f"min {stats.smallest}", f"median {stats.median:g}",
                       f"max {stats.largest}", f"over {stats.over}", f"embedded over {stats.embedded_over}",
                       f"tiny {stats.tiny}", f" {stats.max_size} "):
            assert re.search(rf"(?<!\S){re.escape(figure.strip())}(?!\S)", shown), (figure, shown)
        assert rows[-1].lstrip().startswith("sizes 0 ") and rows[-1].rstrip().endswith(" over")
