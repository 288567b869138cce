"""The parameter form: max size, unit, overlap, language, context mode, strategy, tokenizer, fit.

State flows down (``show_options``); edits flow up as ``OptionsChanged``. Typing
in a number field is debounced so "2000" is one change, not four; Enter applies at once.
"""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.containers import Grid
from textual.timer import Timer
from textual.validation import Integer
from textual.widgets import Input, Label, Select

from explorer.engine.languages import GRAMMARS, UNSAFE_GRAMMARS
from explorer.engine.options import CONTEXT_MODES, FITS, MINIMUMS, SIZE_UNITS, STRATEGIES, ChunkOptions, parse_option
from explorer.engine.tokens import ENCODINGS

from ...app_messages import OptionsChanged, UnitChosen

AUTO = "auto"
#: Seconds of typing pause before a typed number is applied.
TYPING_DELAY = 0.4


class ParamsPanel(Grid):
    """Chunking parameters of the open file."""

    DEFAULT_CSS = """
    ParamsPanel {
        grid-size: 4;
        grid-columns: 10 1fr 10 1fr;
        grid-rows: 1;
        grid-gutter: 0 1;
        height: auto;
        padding: 0 1;
        & Label { color: $text-muted; width: 100%; text-align: right; }
        & Input { width: 100%; }
        & Select { width: 100%; }
    }
    """

    def __init__(self, options: ChunkOptions, *, id: str | None = None):
        super().__init__(id=id)
        self.options = options
        self._typing: Timer | None = None

    def compose(self) -> ComposeResult:
        options = self.options
        yield Label("max size")
        yield Input(str(options.max_size), type="integer", compact=True, id="max-size",
                    validators=[Integer(minimum=MINIMUMS["max_size"])], select_on_focus=True)
        yield Label("unit")
        yield Select([(u, u) for u in SIZE_UNITS], value=options.size_unit, allow_blank=False, compact=True, id="size-unit")
        yield Label("overlap")
        yield Input(str(options.overlap_lines), type="integer", compact=True, id="overlap",
                    validators=[Integer(minimum=MINIMUMS["overlap_lines"])], select_on_focus=True)
        yield Label("context")
        yield Select([(c, c) for c in CONTEXT_MODES], value=options.context_mode, allow_blank=False, compact=True,
                     id="context-mode")
        yield Label("language")
        # A grammar never used (it can hang) cannot be forced: the options refuse it, so the list leaves it out.
        languages = [(AUTO, AUTO), ("text (by lines)", "text")] + [(g, g) for g in GRAMMARS if g not in UNSAFE_GRAMMARS]
        yield Select(languages, value=options.language or AUTO, allow_blank=False,
                     compact=True, id="language")
        yield Label("strategy")
        yield Select([(s, s) for s in STRATEGIES], value=options.strategy, allow_blank=False, compact=True,
                     id="strategy")
        yield Label("tokenizer")
        yield Input(options.tokenizer or "", compact=True, id="tokenizer", placeholder="none",
                    tooltip=f"an encoding ({', '.join(ENCODINGS)}) or the path of a tokenizer.json; Enter applies")
        yield Label("fit")
        yield Select([(f, f) for f in FITS], value=options.fit, allow_blank=False, compact=True, id="fit")

    def show_options(self, options: ChunkOptions) -> None:
        """Reflect options set elsewhere (keys, palette, settings) without echoing them back."""
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
                if field.value != value:
                    field.value = value
            for selector, value in (
                ("#size-unit", options.size_unit),
                ("#context-mode", options.context_mode),
                ("#language", options.language or AUTO),
                ("#strategy", options.strategy),
                ("#fit", options.fit),
            ):
                select = self.query_one(selector, Select)
                if select.value != value:
                    select.value = value

    def _apply(self, **changes: object) -> None:
        try:
            options = ChunkOptions.build(self.options, **changes)
        except ValueError as error:
            self.notify(str(error), severity="error", title="Invalid parameter")
            return
        if options != self.options:
            self.options = options
            self.post_message(OptionsChanged(options))

    def _numbers(self, *, announce: bool) -> dict[str, object] | None:
        """The typed numbers, read and checked by the options' one rule (the CLI's and the
        settings file's): None while one is refused, said when ``announce`` (on Enter; a
        pause in typing says nothing of a number half typed)."""
        values: dict[str, object] = {}
        for selector, name in (("#max-size", "max_size"), ("#overlap", "overlap_lines")):
            try:
                values[name] = parse_option(name, self.query_one(selector, Input).value)
            except ValueError as error:
                if announce:
                    self.notify(str(error), severity="error", title="Invalid parameter", markup=False)
                return None
        return values

    @on(Input.Changed)
    def _typed(self, event: Input.Changed) -> None:
        event.stop()
        if event.input.id == "tokenizer":
            return  # a name or path is applied on Enter: loading one per keystroke would only fail
        if self._typing is not None:
            self._typing.stop()
        self._typing = self.set_timer(TYPING_DELAY, self._apply_numbers)

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if event.input.id == "tokenizer":
            value = event.value.strip() or None
            if value != self.options.tokenizer:
                self._apply(tokenizer=value)
            return
        if self._typing is not None:
            self._typing.stop()
        self._apply_numbers(announce=True)

    def _apply_numbers(self, *, announce: bool = False) -> None:
        self._typing = None
        values = self._numbers(announce=announce)
        if values is not None:
            self._apply(**values)

    @on(Select.Changed)
    def _picked(self, event: Select.Changed) -> None:
        event.stop()
        names = {"size-unit": "size_unit", "context-mode": "context_mode", "language": "language", "strategy": "strategy",
                 "fit": "fit"}
        name = names.get(event.select.id or "")
        if name is None or event.value is Select.BLANK:
            return
        value = None if name == "language" and event.value == AUTO else event.value
        if name == "size_unit":
            if value != self.options.size_unit:
                # The app converts the max size to the new unit (and picks a tokenizer for tokens).
                self.post_message(UnitChosen(str(value)))
        elif getattr(self.options, name) != value:
            self._apply(**{name: value})
