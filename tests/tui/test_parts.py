"""The explorer's pure parts: layout and stats of chunks, highlighting by blocks, line painting."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st
from pygments.lexers import PythonLexer
from rich.style import Style

import explorer
from explorer.engine.options import ChunkOptions
from explorer.engine.parse import parse_source
from explorer.engine.text import SourceText
from explorer.tui.document.lexer import lexer_for
from explorer.tui.document.model import ChunkLayout, ChunkStats, longest_line, needs_reparse
from explorer.tui.widgets.chunks.list import chunk_flags, size_bar
from explorer.tui.widgets.source.highlight import LineHighlighter
from explorer.tui.widgets.source.paint import StyleMixer, paint_line

from .helpers import FIXTURES

CODE = (FIXTURES / "inventory.py").read_text()


def test_layout_finds_the_chunk_of_every_byte_and_line():
    source = SourceText(CODE)
    chunks = explorer.chunk("inventory.py", CODE, max_size=200, overlap_lines=2)
    layout = ChunkLayout.of(chunks, source)
    for k, chunk in enumerate(chunks):
        assert layout.chunk_at(chunk.byte_range.start) == k
        assert layout.chunk_at(chunk.byte_range.end - 1) == k
        assert layout.first_chunk_on_line(chunk.line_range.start) in (k, *range(k))
    assert layout.chunk_at(len(source.data)) == len(chunks) - 1
    for line in range(source.line_count):
        start, end = source.line_starts[line], source.line_end(line)
        touching = [k for k, c in enumerate(chunks) if c.byte_range.start < end and c.byte_range.end > start]
        assert list(layout.chunks_between(start, end)) == touching
    # Overlap ranges are the previous chunk's last lines, as the chunk's overlap_text says.
    assert layout.overlaps
    for start, end, k in layout.overlaps:
        assert source.slice(start, end) == chunks[k].overlap_text
        assert end == chunks[k].byte_range.start
        assert layout.overlaps_between(start, end) == [(start, end, k)]


def test_layout_marks_lines_with_forced_cuts():
    code = "x = '" + "a" * 3000 + "'\n"
    chunks = explorer.chunk("long.py", code, max_size=500)
    layout = ChunkLayout.of(chunks, SourceText(code))
    assert any(c.split_start for c in chunks)
    assert layout.forced_cuts == {0: "char"}


def test_stats_count_sizes_over_and_tiny():
    options = ChunkOptions(max_size=200)
    chunks = explorer.chunk("inventory.py", CODE, max_size=200)
    stats = ChunkStats.of(chunks, options)
    sizes = sorted(c.size for c in chunks)
    assert (stats.count, stats.smallest, stats.largest) == (len(chunks), sizes[0], sizes[-1])
    assert stats.over == 0 and stats.tiny == sum(c.nws < 50 for c in chunks)
    assert sum(stats.histogram) == len(chunks) and stats.histogram[-1] == 0
    small = ChunkStats.of(chunks, ChunkOptions(max_size=100))
    assert small.over == sum(c.size > 100 for c in chunks) == small.histogram[-1]


def test_options_that_need_a_new_parse():
    base = ChunkOptions()
    assert not needs_reparse(base, ChunkOptions(max_size=10, overlap_lines=3, context_mode="none"))
    assert needs_reparse(base, ChunkOptions(strategy="lines"))
    assert needs_reparse(base, ChunkOptions(language="javascript"))


def test_longest_line():
    assert longest_line(SourceText("ab\n\tx\n")) == 5


def test_block_lexing_matches_lexing_the_whole_file():
    """Lexing a block at a time, restarting at a multi-line token's start, gives each
    line the same tokens as lexing the file at once."""
    code = CODE + '\nNOTE = """\n' + "\n".join(f"line {i} of a long string" for i in range(120)) + '\n"""\nafter = 1\n'
    source = SourceText(code)
    parsed = parse_source(source, "x.py")
    lexer = lexer_for("x.py", "python")
    whole: list[list] = [[]]
    for ttype, value in PythonLexer(stripnl=False, ensurenl=True).get_tokens(code):
        for i, part in enumerate(value.split("\n")):
            if i:
                whole.append([])
            if part:
                whole[-1].append((part, ttype))
    highlighter = LineHighlighter(source, lexer, parsed.root, max_chars=1000)
    highlighter.BLOCK = 16  # many block starts, several inside the long string
    for line in reversed(range(source.line_count)):  # out of order, as scrolling does
        assert highlighter.tokens(line) == whole[line], line


def test_long_lines_are_cut_before_lexing():
    code = "x = [" + ", ".join(str(i) for i in range(100_000)) + "]\n"
    source = SourceText(code)
    highlighter = LineHighlighter(source, lexer_for("x.py", "python"), None, max_chars=300)
    assert len(highlighter.line_text(0)) == 300 and highlighter.is_cut(0)
    assert sum(len(v) for v, _ in highlighter.tokens(0)) == 300


@settings(max_examples=100, deadline=None)
@given(
    text=st.text(alphabet="ab c", max_size=30),
    cuts=st.lists(st.tuples(st.integers(0, 35), st.integers(0, 35)), max_size=4),
    cursor=st.none() | st.integers(0, 35),
)
def test_painting_keeps_the_text_and_puts_each_style_where_asked(text, cuts, cursor):
    tokens, position = [], 0
    for word in re.findall(r"\S+|\s+", text):
        tokens.append((position, position + len(word), Style(bold=word.startswith("a"))))
        position += len(word)
    colours = ["red", "green", "blue", "yellow"]
    backgrounds = [(min(a, b), max(a, b), Style(bgcolor=colours[i])) for i, (a, b) in enumerate(cuts)]
    mixer = StyleMixer(Style(color="white"), Style(reverse=True))
    segments = paint_line(text, tokens, backgrounds, mixer, cursor, Style(bgcolor="black"))
    painted = "".join(s.text for s in segments)
    extra = 1 if cursor is not None and cursor >= len(text) else 0
    assert painted == text + " " * extra
    offset = 0
    for segment in segments:
        for i in range(offset, offset + len(segment.text)):
            if i >= len(text):
                assert segment.style.reverse and segment.style.bgcolor.name == "black"
                continue
            expected_bg = None
            for a, b, style in backgrounds:
                if a <= i < b:
                    expected_bg = style.bgcolor
            assert segment.style.bgcolor == expected_bg
            assert bool(segment.style.bold) == (text[i] != " " and any(a <= i < b and s.bold for a, b, s in tokens))
            assert bool(segment.style.reverse) == (i == cursor)
        offset += len(segment.text)


def test_size_bar_and_flags():
    assert size_bar(0, 100) == " " * 10
    assert size_bar(100, 100) == "█" * 10
    assert size_bar(250, 100) == "█" * 10
    assert size_bar(55, 100).startswith("█████▌")
    chunk = explorer.chunk("x.py", "x = 1\n", max_size=100)[0]  # 3 nws: over a limit of 1, and tiny
    assert [f for f, _ in chunk_flags(chunk, 1)] == ["over", "tiny"]


def test_palette_commands_are_named_group_action():
    from explorer.tui.app import ChunkExplorerApp
    from explorer.tui.palette.actions import explorer_commands

    app = ChunkExplorerApp(str(FIXTURES), ChunkOptions(language="python"), watch=False)
    names = [name for name, _, _ in explorer_commands(app)]
    assert names and all(re.fullmatch(r"[a-z]+: [a-z].*", name) for name in names), names
    assert "export: whole tree as JSON" in names and "params: language auto" in names
    assert "export: current file as JSON" not in names  # nothing is open yet
    assert len(names) == len(set(names))


def test_every_binding_has_a_unique_id():
    from explorer.tui.app import ChunkExplorerApp
    from explorer.tui.screens.explore import ExploreScreen
    from explorer.tui.screens.help import HelpScreen
    from explorer.tui.widgets.ast.tree import AstTree
    from explorer.tui.widgets.chunks.list import ChunkList
    from explorer.tui.widgets.files.tree import FileTree
    from explorer.tui.widgets.scope.tree import ScopeTree
    from explorer.tui.widgets.source.view import SourceView
    from explorer.tui.widgets.text_pane import TextPane

    owners = (ChunkExplorerApp, ExploreScreen, HelpScreen, SourceView, ChunkList, AstTree, ScopeTree, FileTree, TextPane)
    ids = [binding.id for owner in owners for binding in owner.BINDINGS]
    assert all(ids), [(o.__name__, b.key) for o in owners for b in o.BINDINGS if not b.id]
    assert len(ids) == len(set(ids))


def test_a_cancelled_tree_export_writes_nothing(tmp_path):
    from explorer.tui.export.write import export_tree

    target = tmp_path / "out.json"
    progress = []
    done = export_tree(str(FIXTURES), ChunkOptions(), None, str(target),
                       on_progress=lambda d, t: progress.append((d, t)), should_stop=lambda: len(progress) >= 1)
    assert done is None
    assert not target.exists() and list(tmp_path.iterdir()) == []
    finished = export_tree(str(FIXTURES), ChunkOptions(), None, str(target))
    assert (finished.files, len(finished.failed)) == (2, 0) and target.exists()
