"""Teach mode: play a chunking run step by step on one file.

The trace is computed once per (file, options) in a worker, eagerly, into a list;
the screen then only moves an index through it, so stepping is instant at any
file size. Changing a parameter (the explorer's keys and palette work here too)
traces again from the first step.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import replace
from functools import partial

from rich.style import Style
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Header, Static

from explorer.engine.cancel import Cancelled
from explorer.engine.options import ChunkOptions
from explorer.engine.trace import TraceStep
from explorer.terminal_text import visible

from ..app_state import explorer_state
from ..document.load import load_file
from ..document.model import Document, LoadedFile
from ..jobs import LatestJob
from ..literal import literal
from ..palette.samples import SampleCommands
from ..palette.screen_keys import ScreenKeyCommands
from ..widgets.ast.tree import AstTree
from ..widgets.footer import KeyFooter
from .gauge import WindowGauge
from .messages import TraceFailed, TraceReady
from .model import (
    DECISION_KINDS,
    DEFAULT_SPEED,
    KIND_ORDER,
    SPEEDS,
    TraceRun,
    compute_run,
    first_step_about,
    node_for_step,
    step_near,
)
from .narration import StepNarration
from .source import TraceSourceView
from .timeline import TraceTimeline


def trace_file(file: LoadedFile | None, path: str, options: ChunkOptions, root: str | None,
               cancelled: Callable[[], bool]) -> TraceRun | None:
    """The trace of a file (loaded first when not given); None when cancelled."""
    try:
        if file is None:
            file = load_file(path, options, root)
        return compute_run(file, options, cancelled)
    except Cancelled:
        return None


class TeachScreen(Screen):
    """The chunker explaining itself on one file."""

    #: Pairs of keys the footer shows as one.
    STEP = Binding.Group("Step", compact=True)
    DECISION = Binding.Group("Decision", compact=True)
    SIZE = Binding.Group("Size", compact=True)

    # The order is the footer's: what a class needs first (play, step) survives a narrow terminal.
    BINDINGS = [
        Binding("space", "play", "Play", id="teach.play", priority=True,
                tooltip="Play the steps at the chosen speed"),
        Binding("space", "pause", "Pause", id="teach.pause", priority=True, tooltip="Pause the steps"),
        Binding("left,h", "step(-1)", "Prev", key_display="←", id="teach.previous", priority=True, group=STEP,
                tooltip="Go back one step"),
        Binding("right,l", "step(1)", "Next", key_display="→", id="teach.next", priority=True, group=STEP,
                tooltip="Go to the next step"),
        Binding("z", "present", "Present", id="teach.present",
                tooltip="Presentation: the source, the sentence and the size gauge fill the screen (z again restores)"),
        Binding("left_square_bracket", "jump(-1)", "Prev decision", key_display="[", id="teach.jump_previous", group=DECISION,
                priority=True, tooltip="Go to the previous decision of the chosen kind"),
        Binding("right_square_bracket", "jump(1)", "Next decision", key_display="]", id="teach.jump_next", group=DECISION,
                priority=True, tooltip="Go to the next decision of the chosen kind"),
        Binding("t", "toggle_tree", "Tree", id="teach.tree", tooltip="Show or hide the syntax tree"),
        Binding("d", "cycle_kind", "Kind", id="teach.kind",
                tooltip="Choose which kind of decision ] and [ jump to"),
        Binding("f", "speed(1)", "Faster", id="teach.faster", tooltip="Play faster"),
        Binding("s", "speed(-1)", "Slower", id="teach.slower", tooltip="Play slower"),
        Binding("n", "jump_chunk(1)", "Next chunk", show=False, id="teach.next_chunk",
                tooltip="Go to the step that completes the next chunk"),
        Binding("p", "jump_chunk(-1)", "Prev chunk", show=False, id="teach.previous_chunk",
                tooltip="Go to the step that completed the previous chunk"),
        Binding("home", "go(0)", "First step", show=False, id="teach.first", priority=True,
                tooltip="Go to the first step"),
        Binding("end", "go(-1)", "Last step", show=False, id="teach.last", priority=True,
                tooltip="Go to the last step"),
        Binding("plus,equals_sign", "app.size_step(1)", "Size+", key_display="+", id="teach.size_up",
                group=SIZE, tooltip="Increase the max chunk size by one step (the trace stays at the same place)"),
        Binding("minus", "app.size_step(-1)", "Size-", key_display="-", id="teach.size_down",
                group=SIZE, tooltip="Decrease the max chunk size by one step"),
        Binding("escape", "leave", "Back", id="teach.leave",
                tooltip="Leave the presentation layout; else back to the screen teach mode was opened from"),
    ]

    BINDING_GROUP_TITLE = "teach mode"
    COMMANDS = {ScreenKeyCommands, SampleCommands}
    HELP = """
Teach mode plays the chunker's decisions on one file, one sentence a step. The gauge
shows the window being built against the size limit.
Colours in the source: the node considered now, a node too big on its own (it gets
opened up), the window being built; finished chunks keep their own colours.
Timeline marks (one line for the whole run; click to go there):
  ┃  a chunk was closed (in that chunk's colour)     ✂  a cut had to fall inside a token
  ▾  a node too big was opened up into its children  +  pieces kept together
  ●  the step shown now                              ─  other steps
Line numbers are 1-based, in the sentences and in the syntax tree (line:column).
Layout: z is the presentation layout (the source, the sentence and a large size gauge fill
the screen, for a projector); t shows or hides the syntax tree (hidden from the start below
110 columns); below 30 lines the legend is left out.
"""

    #: Below this many columns the syntax tree starts hidden (t shows it): the source keeps its room.
    NARROW = 110
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (NARROW, "-wide")]
    VERTICAL_BREAKPOINTS = [(0, "-short"), (30, "-tall")]

    DEFAULT_CSS = """
    TeachScreen {
        #teach-main { height: 1fr; }
        &.-no-tree #teach-ast { display: none; }
        &.-short #teach-legend { display: none; }
        /* Presentation: the source, the sentence and a large gauge; nothing else. */
        &.-present {
            Header, #teach-ast, #teach-timeline, #teach-legend { display: none; }
            #teach-panel { border: none; padding: 0 1; }
            #teach-narration { text-style: bold; }
            #teach-gauge { height: 3; margin: 1 0 0 0; }
        }
        &.-present.-short #teach-gauge { height: 2; margin: 0; }
        #teach-ast { width: 36%; min-width: 30; max-width: 70; }
        #teach-ast > .tree--cursor { background: $accent 45%; text-style: bold; }
        #teach-source { width: 1fr; }
        #teach-panel { height: auto; }
        #teach-legend { height: auto; padding: 0 1; text-wrap: nowrap; text-overflow: ellipsis; }
        #teach-ast, #teach-source, #teach-panel {
            border: round $panel-lighten-2;
            border-title-color: $text-muted;
            border-title-style: bold;
            border-subtitle-color: $text-muted;
        }
        #teach-ast:focus, #teach-source:focus { border: round $accent; border-title-color: $text; }
    }
    """

    def __init__(self, *, file: LoadedFile | None = None, path: str | None = None, sample: bool = False,
                 present: bool = False):
        """``present``: start in the presentation layout (as ``z`` does; ``z`` or escape leaves it)."""
        super().__init__(classes="-present" if present else None)
        if path is None:
            if file is None:
                raise ValueError("teach mode needs a loaded file or a path")
            path = file.path
        self.file = file
        self.path = path
        #: A sample's language comes from its name, whatever the explorer's override says.
        self.sample = sample
        self.run: TraceRun | None = None
        self.index = 0
        self.kind = "decision"
        self.speed = DEFAULT_SPEED
        self.tracing = LatestJob[TraceRun](self, "trace", TraceReady, TraceFailed)
        self._timer: Timer | None = None
        #: Play as soon as the trace being computed is ready (space pressed meanwhile, or
        #: a parameter changed while playing).
        self._play_when_ready = False
        #: Where in the file the shown step was when the parameters changed (stay there).
        self._stay_at: int | None = None

    # -- layout ----------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Header(icon="▦")
        with Horizontal(id="teach-main"):
            yield AstTree(id="teach-ast")
            yield TraceSourceView(id="teach-source")
        with Vertical(id="teach-panel"):
            yield StepNarration(id="teach-narration")
            yield WindowGauge(id="teach-gauge")
            yield TraceTimeline(id="teach-timeline")
            yield Static(id="teach-legend")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.set_class(self.app.size.width < self.NARROW, "-no-tree")
        self.title = "Teach"
        self.sub_title = visible(os.path.basename(self.path))
        self.query_one("#teach-ast").border_title = "Syntax tree"
        self.query_one("#teach-source").border_title = literal(os.path.basename(self.path))
        self.query_one("#teach-panel").border_title = "Step"
        self.query_one(StepNarration).show_step(None)
        self.query_one(TraceSourceView).focus()
        self.watch(self.app, "options", self._options_changed, init=False)
        self._show_legend()
        self._show_status()
        self.trace()

    def _show_legend(self) -> None:
        styles = self.query_one(TraceSourceView).styles_for_teaching
        text = Text(no_wrap=True, overflow="ellipsis")
        for label, style in (("node considered", styles.piece), ("too big on its own", styles.oversized),
                             ("window being built", styles.window)):
            text.append(f" {label} ", style)
            text.append("  ")
        text.append("chunks done: their own colours", Style(dim=True))
        marks = Text("\n")
        marks.append("marks: ", Style(dim=True))
        for glyph, label in (("┃", "chunk closed"), ("✂", "cut in a token"), ("▾", "opened up"),
                             ("+", "kept together"), ("●", "now")):
            marks.append(glyph, Style(bold=True))
            marks.append(f" {label}  ", Style(dim=True))
        self.query_one("#teach-legend", Static).update(text + marks)

    def _show_status(self) -> None:
        playing = "▶ playing" if self.playing else "❚❚ paused"
        speed = SPEEDS[self.speed]
        self.query_one("#teach-panel").border_subtitle = (
            f"{playing} at {speed:g} steps/s (f/s) · ]/[ jump to: {DECISION_KINDS[self.kind][1]} (d)"
        )

    # -- tracing ----------------------------------------------------------------------------
    @property
    def options(self) -> ChunkOptions:
        options = explorer_state(self).options
        return replace(options, language=None) if self.sample else options

    def trace(self) -> None:
        """(Re)compute the trace for the current options, in a worker."""
        resume = self.playing or self._play_when_ready
        self.pause()
        self._play_when_ready = resume
        self.tracing.start(partial(trace_file, self.file, self.path, self.options, explorer_state(self).root),
                           f"trace chunking {os.path.basename(self.path)}")

    def load(self, path: str, *, sample: bool = False) -> None:
        """Teach another file (a sample picked in the palette)."""
        self.file, self.path, self.sample = None, path, sample
        self._stay_at = None
        self.run = None
        name = os.path.basename(path)
        self.sub_title = visible(name)
        self.query_one("#teach-source").border_title = literal(name)
        self.trace()

    def _options_changed(self, options: ChunkOptions) -> None:
        step = self.step
        if step is not None:
            self._stay_at = step.piece.start if step.piece is not None else None
            if self._stay_at is None and self.index > 0:
                self._stay_at = self.step_start_before()
        self.trace()

    def step_start_before(self) -> int | None:
        """The start of the last piece placed before the shown step (a step about no piece)."""
        if self.run is None:
            return None
        for step in reversed(self.run.steps[: self.index]):
            if step.piece is not None:
                return step.piece.start
        return None

    @on(TraceReady)
    def _trace_ready(self, message: TraceReady) -> None:
        if not self.tracing.is_current(message.generation):
            return
        run = self.run = message.run
        self.file = run.file  # keep the parse: a later parameter change re-chunks it
        source = self.query_one(TraceSourceView)
        source.show_document(Document(run.file, run.chunking_at(0), message.generation))
        options = run.options
        self.query_one(AstTree).show_file(run.file.parsed, options.max_size, options.measure)
        parsed = run.file.parsed
        mode = f"line-based ({parsed.fallback})" if parsed.fallback else "AST"
        source.border_subtitle = (
            f"{parsed.language or 'plain text'} · {mode} · max {options.max_size:,} {options.size_unit} · "
            f"{len(run.steps):,} steps · {len(run.chunks):,} chunks"
        )
        stay, self._stay_at = self._stay_at, None
        self.go(step_near(run, stay) if stay is not None else 0)
        if self._play_when_ready:
            self._play_when_ready = False
            self.play()

    @on(TraceFailed)
    def _trace_failed(self, message: TraceFailed) -> None:
        if not self.tracing.is_current(message.generation):
            return
        self.query_one(TraceSourceView).show_message(message.reason)
        self.notify(message.reason, title="Cannot trace this file", severity="error", markup=False)

    # -- moving through the steps ---------------------------------------------------------
    @property
    def step(self) -> TraceStep | None:
        return self.run.steps[self.index] if self.run is not None and self.run.steps else None

    def go(self, index: int, *, move_tree: bool = True) -> None:
        """Show step ``index`` everywhere (negative counts from the end); ``move_tree``
        False leaves the syntax tree's cursor where the user put it."""
        run = self.run
        if run is None or not run.steps:
            return
        if index < 0:
            index += len(run.steps)
        index = max(0, min(index, len(run.steps) - 1))
        self.index = index
        step = run.steps[index]
        source = self.query_one(TraceSourceView)
        chunking = run.chunking_at(index)
        if source.document is not None and source.document.chunking is not chunking:
            source.show_chunking(chunking)
        source.show_step(step)
        if move_tree:  # a step without a node (parse, done) is about the whole tree
            self.query_one(AstTree).reveal_node(node_for_step(run.file.parsed, step) or run.file.parsed.root)
        self.query_one(StepNarration).show_step(step, len(run.steps), run.done[index])
        before = (run.steps[index - 1].window_size or 0) if index > 0 else 0
        self.query_one(WindowGauge).show_step(step, before, run.options.size_unit)
        self.query_one(TraceTimeline).show(run, index)

    def action_step(self, delta: int) -> None:
        self.pause()
        self.go(self.index + delta)

    def action_go(self, index: int) -> None:
        self.pause()
        self.go(index)

    def action_jump(self, direction: int) -> None:
        self._jump(self.kind, direction)

    def action_jump_chunk(self, direction: int) -> None:
        self._jump("close", direction)

    def _jump(self, kind: str, direction: int) -> None:
        if self.run is None:
            return
        self.pause()
        target = self.run.jump(self.index, kind, direction)
        if target is None:
            where = "after" if direction > 0 else "before"
            self.notify(f"No step {where} this one where {DECISION_KINDS[kind][1]}", timeout=2, markup=False)
            return
        self.go(target)

    def action_cycle_kind(self) -> None:
        self.kind = KIND_ORDER[(KIND_ORDER.index(self.kind) + 1) % len(KIND_ORDER)]
        self._show_status()
        self.notify(f"] and [ now jump to where {DECISION_KINDS[self.kind][1]}", timeout=2, markup=False)

    @on(AstTree.SyntaxNodeSelected)
    def _ast_node_selected(self, message: AstTree.SyntaxNodeSelected) -> None:
        """A node picked in the tree: go to the step where the chunker first met it."""
        message.stop()
        # Only the user's own picks, made in the focused tree: the tree also moves on
        # its own (following the steps, or reset for a new trace), and on a busy machine
        # those moves are announced after the steps have gone on.
        if self.run is None or not self.query_one(AstTree).has_focus:
            return
        index = first_step_about(self.run, message.start_byte, message.end_byte)
        if index is not None and index != self.index:
            self.pause()
            self.go(index, move_tree=False)

    @on(TraceTimeline.StepPicked)
    def _timeline_picked(self, message: TraceTimeline.StepPicked) -> None:
        self.pause()
        self.go(message.index)

    # -- playing ------------------------------------------------------------------------------
    @property
    def playing(self) -> bool:
        return self._timer is not None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # space is Play while paused and Pause while playing: the footer shows the one it does.
        running = self.playing or self._play_when_ready
        if action == "play":
            return not running
        if action == "pause":
            return running
        return True

    def action_play(self) -> None:
        self.play()

    def action_pause(self) -> None:
        self.pause()

    def action_toggle_play(self) -> None:
        if self.playing or self._play_when_ready:
            self.pause()
        else:
            self.play()

    def play(self) -> None:
        if self.run is None:
            self._play_when_ready = True
            self.refresh_bindings()
            return
        if self.playing:
            return
        if self.index >= len(self.run.steps) - 1:
            self.go(0)  # from the start again
        self._timer = self.set_interval(1 / SPEEDS[self.speed], self._tick)
        self._show_status()
        self.refresh_bindings()

    def pause(self) -> None:
        self._play_when_ready = False
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
            self._show_status()
        self.refresh_bindings()

    def _tick(self) -> None:
        if self.run is None or self.index >= len(self.run.steps) - 1:
            self.pause()
            return
        self.go(self.index + 1)

    def action_speed(self, direction: int) -> None:
        self.speed = max(0, min(len(SPEEDS) - 1, self.speed + direction))
        if self.playing:  # restart the timer at the new pace
            self.pause()
            self.play()
        self._show_status()

    # -- layout -------------------------------------------------------------------------------
    @property
    def presenting(self) -> bool:
        return self.has_class("-present")

    def action_present(self) -> None:
        """The presentation layout, for a projector: the lesson large, the rest hidden."""
        self.toggle_class("-present")
        self.query_one(TraceSourceView).focus()

    def action_toggle_tree(self) -> None:
        self.toggle_class("-no-tree")
        if self.has_class("-no-tree"):
            self.query_one(TraceSourceView).focus()
        elif self.presenting:
            self.remove_class("-present")  # the tree is shown in the full layout

    def action_leave(self) -> None:
        if self.presenting:
            self.remove_class("-present")
            return
        self.pause()
        self.dismiss()
