"""The parameter form: max size, unit, overlap, context mode, language, strategy, tokenizer, fit.

The form is one pane, one focus stop (``6``, or ``tab``), like every other pane: its
keys move a cursor between the fields (``↑``/``↓``) and change the one under it
(``←``/``→``: a size by the step of ``+`` and ``-``, a choice to the next one). Digits
stay pane keys there, so ``6`` then ``2`` goes to the source and edits nothing. Enter
(or a click) edits the field under the cursor: only then does a field take typed
characters, and only what it takes (digits in a number). A typed value is applied once,
when the field is left: ``enter`` or ``escape``, the same in every field (``tab`` and a
click elsewhere leave it too), so typing 1500 re-chunks once, not four times.

State flows down (``show_options``); edits flow up as ``OptionsChanged``.
"""

from __future__ import annotations

from typing import Any

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid
from textual.validation import Integer
from textual.widget import Widget
from textual.widgets import Input, Label, Select

from explorer.engine.languages import GRAMMARS, UNSAFE_GRAMMARS
from explorer.engine.options import CONTEXT_MODES, FITS, MINIMUMS, SIZE_UNITS, STRATEGIES, ChunkOptions, parse_option
from explorer.engine.tokens import ENCODINGS

from ...app_messages import OptionsChanged, UnitChosen
from ...steps import stepped_size

AUTO = "auto"

#: The fields in the order of the form (and of the field cursor): (widget id, label, option name).
FIELDS = (
    ("max-size", "max size", "max_size"),
    ("size-unit", "unit", "size_unit"),
    ("overlap", "overlap", "overlap_lines"),
    ("context-mode", "context", "context_mode"),
    ("language", "language", "language"),
    ("strategy", "strategy", "strategy"),
    ("tokenizer", "tokenizer", "tokenizer"),
    ("fit", "fit", "fit"),
)
FIELD_IDS = frozenset(field_id for field_id, _, _ in FIELDS)
#: The number fields: their smallest value.
MINIMUM = {"max-size": 1, "overlap": 0}


class ParamsPanel(Grid, can_focus=True):
    """Chunking parameters of the open file: one pane with a field cursor."""

    BINDING_GROUP_TITLE = "Parameters"
    BINDINGS = [
        Binding("enter", "edit", "Edit", id="params.edit",
                tooltip="Edit the field under the cursor (enter or escape applies it and leaves the field)"),
        Binding("right,l", "change(1)", "Change", key_display="←→", id="params.change_up",
                tooltip="Next value of the field under the cursor (a size: one step up, as +)"),
        Binding("left,h", "change(-1)", "Change back", show=False, id="params.change_down",
                tooltip="Previous value of the field under the cursor (a size: one step down, as -)"),
        Binding("down,j", "move_field(1)", "Next field", show=False, id="params.next_field",
                tooltip="Move the cursor to the next field"),
        Binding("up,k", "move_field(-1)", "Previous field", show=False, id="params.previous_field",
                tooltip="Move the cursor to the previous field"),
        Binding("escape", "leave_field", "Apply", id="params.leave_field",
                tooltip="Apply what was typed and leave the field (as enter does)"),
    ]

    DEFAULT_CSS = """
    ParamsPanel {
        grid-size: 4;
        grid-columns: 9 1fr 9 1fr;
        grid-rows: 1;
        grid-gutter: 0 1;
        height: auto;
        padding: 0 1;
        & Label { color: $text-muted; width: 100%; text-align: right; }
        & Input { width: 100%; }
        & Select { width: 100%; }
        &:focus > .-current { background: $block-cursor-background; color: $block-cursor-foreground; }
        &:focus > Label.-current { text-style: bold; }
    }
    """

    def __init__(self, options: ChunkOptions, *, id: str | None = None):
        super().__init__(id=id)
        self.options = options
        #: The field under the cursor (index in FIELDS).
        self.current = 0
        #: The field being edited (its widget has focus), or None.
        self.editing: Widget | None = None

    def compose(self) -> ComposeResult:
        options = self.options
        # A grammar never used (it can hang) cannot be forced: the options refuse it, so the list leaves it out.
        languages = [(AUTO, AUTO), ("text (by lines)", "text")] + [(g, g) for g in GRAMMARS if g not in UNSAFE_GRAMMARS]
        widgets: dict[str, Widget] = {
            "max-size": Input(str(options.max_size), type="integer", compact=True, id="max-size",
                              validators=[Integer(minimum=MINIMUMS["max_size"])], select_on_focus=True),
            "size-unit": Select([(u, u) for u in SIZE_UNITS], value=options.size_unit, allow_blank=False,
                                compact=True, id="size-unit"),
            "overlap": Input(str(options.overlap_lines), type="integer", compact=True, id="overlap",
                             validators=[Integer(minimum=MINIMUMS["overlap_lines"])], select_on_focus=True),
            "context-mode": Select([(c, c) for c in CONTEXT_MODES], value=options.context_mode, allow_blank=False,
                                   compact=True, id="context-mode"),
            "language": Select(languages, value=options.language or AUTO, allow_blank=False, compact=True,
                               id="language"),
            "strategy": Select([(s, s) for s in STRATEGIES], value=options.strategy, allow_blank=False, compact=True,
                               id="strategy"),
            "tokenizer": Input(options.tokenizer or "", compact=True, id="tokenizer", placeholder="none",
                               tooltip=f"an encoding ({', '.join(ENCODINGS)}) or the path of a tokenizer.json"),
            "fit": Select([(f, f) for f in FITS], value=options.fit, allow_blank=False, compact=True, id="fit"),
        }
        for field_id, label, _ in FIELDS:
            widget = widgets[field_id]
            widget.can_focus = False  # the pane is the focus stop; a field has focus only while edited
            yield Label(label, id=f"{field_id}-label")
            yield widget

    def on_mount(self) -> None:
        for field_id, _, _ in FIELDS:
            field = self.query_one(f"#{field_id}")
            if isinstance(field, Select):
                self.watch(field, "expanded", lambda expanded, select=field: self._select_toggled(select, expanded),
                           init=False)
        self._mark_current()

    # -- the field cursor ------------------------------------------------------------------
    def field(self, field_id: str) -> Widget:
        return self.query_one(f"#{field_id}")

    @property
    def current_field(self) -> Widget:
        return self.field(FIELDS[self.current][0])

    def _mark_current(self) -> None:
        for index, (field_id, _, _) in enumerate(FIELDS):
            here = index == self.current
            self.field(field_id).set_class(here, "-current")
            self.query_one(f"#{field_id}-label").set_class(here, "-current")

    def action_move_field(self, step: int) -> None:
        self.current = (self.current + step) % len(FIELDS)
        self._mark_current()

    def action_change(self, step: int) -> None:
        """The next (or previous) value of the field under the cursor, applied at once."""
        field_id, _, name = FIELDS[self.current]
        options = self.options
        if field_id == "max-size":
            self._apply(max_size=stepped_size(options.max_size, options.size_unit, step))
        elif field_id == "overlap":
            self._apply(overlap_lines=max(0, options.overlap_lines + step))
        elif field_id == "tokenizer":
            self.notify("Press enter to type a tokenizer: an encoding or the path of a tokenizer.json",
                        severity="information", markup=False)
        else:
            select = self.field(field_id)
            assert isinstance(select, Select)
            values = self._choices(field_id)
            at = values.index(select.value) if select.value in values else 0
            select.value = values[(at + step) % len(values)]

    def _choices(self, field_id: str) -> list[Any]:
        if field_id == "size-unit":
            return list(SIZE_UNITS)
        if field_id == "context-mode":
            return list(CONTEXT_MODES)
        if field_id == "strategy":
            return list(STRATEGIES)
        if field_id == "fit":
            return list(FITS)
        return [AUTO, "text", *(g for g in GRAMMARS if g not in UNSAFE_GRAMMARS)]

    # -- editing a field ---------------------------------------------------------------------
    def action_edit(self) -> None:
        self.edit(FIELDS[self.current][0])

    def edit(self, field_id: str) -> None:
        """Give the field focus so it takes typed characters (a choice opens its list)."""
        self.current = next(i for i, (name, _, _) in enumerate(FIELDS) if name == field_id)
        self._mark_current()
        field = self.field(field_id)
        field.can_focus = True
        self.editing = field
        field.focus()
        self.refresh_bindings()
        if isinstance(field, Select):
            field.action_show_overlay()

    def _leave(self, field: Widget, *, refocus: bool) -> None:
        """The edit of ``field`` is over: it takes no more keys; the cursor stays on it."""
        if self.editing is field:
            self.editing = None
        field.can_focus = False
        self.refresh_bindings()
        if refocus:
            self.focus()

    def _select_toggled(self, select: Select[Any], expanded: bool) -> None:
        if not expanded and self.editing is select:
            focused = self.screen.focused
            self._leave(select, refocus=focused is None or focused is select or focused in select.walk_children())

    def on_click(self, event: events.Click) -> None:
        """A click on a field edits it (a click elsewhere in the pane focuses the pane)."""
        widget = event.widget
        while widget is not None and widget is not self:
            if widget.id in FIELD_IDS:
                if self.editing is not widget:
                    self.edit(widget.id or "")
                return
            parent = widget.parent
            widget = parent if isinstance(parent, Widget) else None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # While a field is edited, escape applies it and leaves it; the pane's other keys wait.
        if action == "leave_field":
            return isinstance(self.editing, Input)
        return not isinstance(self.editing, Input) or action not in ("edit", "change", "move_field")

    def action_leave_field(self) -> None:
        if isinstance(self.editing, Input):
            self._commit(self.editing)
            self._leave(self.editing, refocus=True)

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._commit(event.input)
        self._leave(event.input, refocus=True)

    @on(Input.Blurred)
    def _blurred(self, event: Input.Blurred) -> None:
        # Tab, a click elsewhere, a pane opened over it: the field is left, its value applied.
        event.stop()
        if self.editing is event.input:
            self._commit(event.input)
            self._leave(event.input, refocus=False)

    @on(Input.Changed)
    def _typed(self, event: Input.Changed) -> None:
        event.stop()  # applied when the field is left

    def _commit(self, field: Input) -> None:
        """Apply a typed value; a value the field cannot hold is refused with a message and
        the value in force is shown again."""
        field_id = field.id or ""
        if field_id == "tokenizer":
            value = field.value.strip() or None
            if value != self.options.tokenizer:
                self._apply(tokenizer=value)
            if self.options.tokenizer != value:
                field.value = self.options.tokenizer or ""
            return
        name = "max_size" if field_id == "max-size" else "overlap_lines"
        try:  # the options' one rule, in the CLI's and the settings file's words
            value = parse_option(name, field.value)
        except ValueError as error:
            self.notify(str(error), severity="error", title="Invalid parameter", markup=False)
            field.value = str(getattr(self.options, name))
            return
        self._apply(**{name: value})

    # -- state in and out ---------------------------------------------------------------------
    def show_options(self, options: ChunkOptions) -> None:
        """Reflect options set elsewhere (keys, palette, settings) without echoing them back;
        a field being edited keeps what the user is typing."""
        self.options = options
        if not self.is_mounted:
            return
        with self.prevent(Input.Changed, Select.Changed):
            for selector, value in (
                ("#max-size", str(options.max_size)),
                ("#overlap", str(options.overlap_lines)),
                ("#tokenizer", options.tokenizer or ""),
            ):
                field = self.query_one(selector, Input)
                if field.value != value and field is not self.editing:
                    field.value = value
            for selector, choice in (
                ("#size-unit", options.size_unit),
                ("#context-mode", options.context_mode),
                ("#language", options.language or AUTO),
                ("#strategy", options.strategy),
                ("#fit", options.fit),
            ):
                select = self.query_one(selector, Select)
                if select.value != choice:
                    select.value = choice

    def _apply(self, **changes: object) -> None:
        try:
            options = ChunkOptions.build(self.options, **changes)
        except ValueError as error:
            self.notify(str(error), severity="error", title="Invalid parameter", markup=False)
            return
        if options != self.options:
            self.options = options
            self.post_message(OptionsChanged(options))

    @on(Select.Changed)
    def _picked(self, event: Select.Changed) -> None:
        event.stop()
        name = next((option for field_id, _, option in FIELDS if field_id == event.select.id), None)
        if name is None or event.value is Select.BLANK:
            return
        value = None if name == "language" and event.value == AUTO else event.value
        if name == "size_unit":
            if value != self.options.size_unit:
                # The app converts the max size to the new unit (and picks a tokenizer for tokens).
                self.post_message(UnitChosen(str(value)))
        elif getattr(self.options, name) != value:
            self._apply(**{name: value})
