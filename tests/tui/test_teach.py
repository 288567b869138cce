"""Teach mode: the trace played step by step on a sample, driven with Pilot."""

from __future__ import annotations

from pathlib import Path

import explorer
from explorer.engine.options import ChunkOptions
from explorer.samples import get_sample
from explorer.tui.document.load import load_file
from explorer.tui.palette.samples import sample_commands
from explorer.tui.screens.explore import ExploreScreen
from explorer.tui.teach.gauge import WindowGauge
from explorer.tui.teach.model import compute_run, node_for_step
from explorer.tui.teach.narration import StepNarration
from explorer.tui.teach.screen import TeachScreen
from explorer.tui.teach.source import TraceSourceView
from explorer.tui.widgets.ast.tree import AstEntry, AstTree

from .helpers import SIZE, focus, make_app, wait_for, wait_until_idle

SAMPLE = get_sample("python")


async def open_teach(app, pilot) -> TeachScreen:
    await wait_for(pilot, lambda: app.document is not None, what="the file to open")
    await wait_until_idle(pilot, app)
    await pilot.press("t")
    await wait_for(pilot, lambda: isinstance(app.screen, TeachScreen) and app.screen.run is not None,
                   what="the trace")
    await pilot.pause()
    return app.screen  # type: ignore[return-value]


def highlighted_node(screen: TeachScreen):
    node = screen.query_one(AstTree).cursor_node
    assert node is not None and isinstance(node.data, AstEntry)
    return node.data.node


def piece_overlay(screen: TeachScreen):
    """The (start, end) painted as the node considered (the last overlay)."""
    overlays = screen.query_one(TraceSourceView).overlays
    return (overlays[-1].start, overlays[-1].end) if overlays else None


def test_trace_run_matches_chunk_and_finds_decisions():
    options = ChunkOptions(max_size=500)
    file = load_file(str(SAMPLE.path), options)
    run = compute_run(file, options)
    want = explorer.chunk(str(SAMPLE.path), SAMPLE.path.read_bytes(), max_size=500)
    assert [(c.byte_range.start, c.byte_range.end) for c in run.chunks] == \
        [(c.byte_range.start, c.byte_range.end) for c in want]
    # Every chunk is completed by exactly one step, in order.
    assert [s.chunk_index for s in run.steps if s.chunk is not None] == list(range(len(want)))
    assert run.done[-1] == len(want) and run.done[0] == 0
    closes = run.by_kind["close"]
    assert closes and all(run.steps[i].action in ("close", "emit_chars", "finish") for i in closes)
    assert run.jump(0, "close", 1) == closes[0]
    assert run.jump(closes[0], "close", -1) is None
    assert run.jump(closes[1], "close", -1) == closes[0]
    assert run.chunking_at(closes[1]).chunks == run.chunks[:2]
    # The node a step is about has the step's first node kind.
    for step in run.steps:
        if step.node_types and step.node_types[0].isidentifier():
            node = node_for_step(file.parsed, step)
            assert node is not None and node.type == step.node_types[0]
            assert step.piece.start <= node.start_byte and node.end_byte <= step.piece.end
    # A cut minified line: the node shown is the token being cut, not the whole module.
    split_chars = next(step for step in run.steps if step.action == "split_chars")
    assert node_for_step(file.parsed, split_chars).type == SAMPLE.cases["minified_line"]


async def test_stepping_highlights_the_node_window_and_sentence():
    app = make_app(SAMPLE.path, max_size=500)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_teach(app, pilot)
        run = screen.run
        narration = screen.query_one(StepNarration)
        source = screen.query_one(TraceSourceView)
        assert screen.index == 0
        assert narration.sentence.startswith("Parsed ") and "500 nws" in narration.sentence
        assert source.document.chunks == ()

        # Step 2: the whole module is too big, the chunker descends into it.
        await pilot.press("right")
        await pilot.pause()
        step = run.steps[1]
        assert step.action == "descend" and step.node_types == ("module",)
        assert narration.sentence == step.sentence
        assert highlighted_node(screen).type == "module"
        assert piece_overlay(screen) == (step.piece.start, step.piece.end)

        # ] jumps to the next decision (skipping plain additions); its node is highlighted.
        await pilot.press("right_square_bracket")
        await pilot.pause()
        assert screen.index == run.jump(1, "decision", 1)
        step = screen.step
        assert step.action != "add" and narration.sentence == step.sentence
        assert highlighted_node(screen).type == node_for_step(run.file.parsed, step).type

        # An addition: the window grows to cover the piece; the size bar says so.
        add = next(i for i in range(screen.index, len(run.steps)) if run.steps[i].action == "add")
        screen.go(add)
        await pilot.pause()
        step = run.steps[add]
        window = source.overlays[0]
        assert (window.start, window.end) == (step.window.start, step.window.end)
        assert window.end == step.piece.end
        assert f"window {step.window_size:,}/500 nws" in screen.query_one(WindowGauge).caption

        # d cycles the kind to "a chunk is closed"; ] goes to the first close.
        await pilot.press("d")
        assert screen.kind == "close"
        screen.go(0)
        await pilot.press("right_square_bracket")
        await pilot.pause()
        step = screen.step
        assert step.action == "close" and step.chunk_index == 0
        assert narration.sentence == step.sentence and "chunk 1 is closed" in step.sentence
        assert len(source.document.chunks) == 1 and source.selected_chunk == 0
        assert source.document.chunks[0].byte_range.end == step.chunk.end
        # Back one step: the chunk is not done yet.
        await pilot.press("left")
        await pilot.pause()
        assert screen.index == run.by_kind["close"][0] - 1
        assert source.document.chunks == () and source.selected_chunk is None

        # The last step: every chunk is done.
        await pilot.press("end")
        await pilot.pause()
        assert screen.step.action == "done" and len(source.document.chunks) == len(run.chunks)

        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ExploreScreen)


async def test_play_pause_speed_and_parameter_change_restarts():
    app = make_app(SAMPLE.path, max_size=500)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_teach(app, pilot)
        first_run = screen.run
        await pilot.press("f", "f", "f")  # 16 steps per second
        await pilot.press("space")
        assert screen.playing
        await wait_for(pilot, lambda: screen.index >= 3, what="playing to advance")
        await pilot.press("space")
        assert not screen.playing
        stopped = screen.index
        await pilot.pause(0.2)  # three steps' time at 16 steps per second: a step would show
        assert screen.index == stopped
        assert "16 steps/s" in screen.query_one("#teach-panel").border_subtitle

        # + changes the max size: the trace is computed again with the new limit, at the
        # same place in the file, still playing.
        await pilot.press("space")
        await pilot.press("plus")
        await wait_for(pilot, lambda: screen.run is not first_run, what="a new trace")
        assert screen.run.options.max_size == app.options.max_size == 600
        assert screen.run.steps[0].limit == 600 and "600 nws" in screen.run.steps[0].sentence
        await wait_for(pilot, lambda: screen.playing, what="playing to resume on the new trace")
        await pilot.press("space")
        assert not screen.playing


async def test_samples_open_from_the_palette_commands(tmp_path: Path):
    (tmp_path / "empty.txt").write_text("")
    app = make_app(tmp_path)  # nothing open: t teaches the default sample
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("t")
        await wait_for(pilot, lambda: isinstance(app.screen, TeachScreen) and app.screen.run is not None,
                       what="the default sample")
        assert app.screen.run.file.parsed.language == "python"
        commands = {name: callback for name, callback, _ in sample_commands(app.screen.run_action)}
        names = [f"teach: open sample {s}" for s in ("inventory.rs", "inventory.go", "Inventory.java")]
        assert all(name in commands for name in names)
        screen = app.screen
        await commands["teach: open sample inventory.rs"]()
        await wait_for(pilot, lambda: screen.run is not None and screen.run.file.parsed.language == "rust",
                       what="the Rust sample")
        assert screen.query_one("#teach-source").border_title == "inventory.rs"
        assert screen.query_one(StepNarration).sentence.startswith("Parsed ")

        # Picking a function in the tree goes to the step where the chunker first met it.
        ast = screen.query_one(AstTree)
        function = next(child for child in ast.root.children
                        if isinstance(child.data, AstEntry) and child.data.node.type == "function_item")
        node = function.data.node
        await pilot.pause()  # let the load's own tree move land first, as it would for a user
        await focus(pilot, ast)
        ast.move_cursor(function)
        await wait_for(pilot, lambda: screen.index > 0, what="the step about the function")
        piece = screen.step.piece
        assert piece.start <= node.start_byte and node.end_byte <= piece.end
        assert screen.step.action not in ("descend", "separate") or screen.step.node_types == ("function_item",)
        assert not any(s.action in ("add", "open") and s.piece.start <= node.start_byte and node.end_byte <= s.piece.end
                       for s in screen.run.steps[:screen.index]), "the first step about it"
        assert ast.cursor_node is function, "the tree keeps the user's cursor"


async def test_tree_moves_the_user_did_not_make_never_stop_playing():
    # On a busy machine the tree's own moves (following the steps, or its reset for a new
    # trace) are announced late, after the steps have gone on: they are not picks.
    app = make_app(SAMPLE.path, max_size=500)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_teach(app, pilot)
        await pilot.press("space")
        await wait_for(pilot, lambda: screen.index >= 2, what="playing to advance")
        ast = screen.query_one(AstTree)
        assert not ast.has_focus
        far = max(i for i, step in enumerate(screen.run.steps) if step.action in ("add", "open"))
        node = screen.run.steps[far].piece
        ast.post_message(AstTree.SyntaxNodeSelected(node.start, node.end))  # as a late, unfocused highlight
        await pilot.pause()  # handled
        assert screen.playing and screen.index < far
        await focus(pilot, ast)
        await pilot.pause()
        ast.post_message(AstTree.SyntaxNodeSelected(node.start, node.end))  # the same, picked by the user
        await wait_for(pilot, lambda: not screen.playing, what="a pick to pause")


def test_pieces_without_a_node_are_named_for_what_they_are():
    from explorer.engine.api import parse
    from explorer.engine.trace import trace_parsed

    # One line far over the limit is cut at characters: its parts are pieces of a long line.
    code = 'x = "' + "a" * 600 + '"\n'  # one token 600 characters long
    options = ChunkOptions(max_size=100)
    sentences = [step.sentence for step in trace_parsed(parse("long.py", code, options), options)]
    assert not any("`text`" in sentence for sentence in sentences)
    assert any(sentence.startswith("`part of a long line` (line 1,") for sentence in sentences)
    # Without a syntax tree the file is packed line by line: its pieces are lines.
    plain = ChunkOptions(max_size=20, language="text")
    lines = [step.sentence for step in trace_parsed(parse("notes.txt", "a b c d e\n" * 30, plain), plain)]
    assert not any("`text`" in sentence for sentence in lines)


async def test_presentation_layout_at_80_by_24():
    from textual.widgets import Header

    from explorer.tui.teach.timeline import TraceTimeline
    from explorer.tui.widgets.footer import KeyFooter
    from explorer.tui.widgets.footer_key import FooterKey

    def footer(screen) -> list[str]:
        return [key.description for key in screen.query_one(KeyFooter).query(FooterKey)]

    app = make_app(SAMPLE.path, max_size=500)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_teach(app, pilot)
        ast, source = screen.query_one(AstTree), screen.query_one(TraceSourceView)
        # A narrow terminal: the tree starts hidden (t shows it) and Play is in the footer.
        assert not ast.display and "Play" in footer(screen)
        # The two keys of each way show once each (h and l share the arrows' signs).
        shown = {key.description: key.key_display for key in screen.query_one(KeyFooter).query(FooterKey)}
        assert shown["Step"] == "←→", shown
        await pilot.press("t")
        await pilot.pause()
        assert ast.display and ast.region.width > 0
        await pilot.press("t", "space")
        await pilot.pause(0.2)
        assert screen.playing and "Pause" in footer(screen) and "Play" not in footer(screen)
        await pilot.press("space")
        normal = source.region.height
        # z: the source, the sentence and a large gauge fill the screen; the rest is hidden.
        await pilot.press("z")
        await pilot.pause(0.2)
        assert screen.presenting
        for hidden in (screen.query_one(Header), ast, screen.query_one(TraceTimeline), screen.query_one("#teach-legend")):
            assert not hidden.display
        narration, gauge = screen.query_one(StepNarration), screen.query_one(WindowGauge)
        assert source.region.height > normal and source.region.height >= 16
        assert gauge.region.height >= 2 and gauge.region.bottom <= 23 and narration.region.bottom <= gauge.region.y
        assert "Play" in footer(screen) and "Present" in footer(screen)
        at = screen.index  # playing may have gone on a step before the pause
        await pilot.press("right", "right")
        await pilot.pause()
        assert narration.sentence == screen.step.sentence and screen.index == at + 2
        # escape leaves the presentation first, then teach mode.
        await pilot.press("escape")
        await pilot.pause()
        assert not screen.presenting and isinstance(app.screen, TeachScreen)
        await pilot.press("z", "z")
        assert not screen.presenting
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, TeachScreen), what="teach to close")


async def test_teach_can_start_in_the_presentation_layout():
    """The way another face (a served class, a launcher) starts teach on a projector:
    ``TeachScreen(path=..., present=True)``; z or escape leaves the layout as usual."""
    app = make_app(SAMPLE.path, max_size=500)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.document is not None, what="the file to open")
        app.push_screen(TeachScreen(path=str(SAMPLE.path), present=True))
        await wait_for(pilot, lambda: isinstance(app.screen, TeachScreen) and app.screen.run is not None,
                       what="the trace")
        await pilot.pause()
        screen = app.screen
        assert screen.presenting and not screen.query_one(AstTree).display
        assert screen.query_one(WindowGauge).region.height >= 2
        await pilot.press("escape")
        await pilot.pause()
        assert not screen.presenting and app.screen is screen
