"""Choosing the settings the queries view compares: a checklist of variations of the
explorer's parameters (max size, strategy, overlap, context), the first checked one the reference."""

from __future__ import annotations

from dataclasses import replace

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import SelectionList, Static
from textual.widgets.selection_list import Selection

from explorer.display import grid_label
from explorer.engine.options import CONTEXT_MODES, STRATEGIES, ChunkOptions

#: The fields the picker offers to vary, shown in every label.
PICKED_FIELDS = ("size_unit", "strategy", "overlap_lines", "context_mode")


def setting_label(options: ChunkOptions) -> str:
    """``500 nws · ast · overlap 0 · context full``: the fields one may vary here."""
    return grid_label(options, PICKED_FIELDS)


def candidate_settings(base: ChunkOptions, chosen: list[ChunkOptions]) -> list[ChunkOptions]:
    """The settings offered: those compared now, then the explorer's with one field changed
    (half and double the size, the other strategy, other context modes, some overlap)."""
    variations = [base]
    variations += [replace(base, max_size=size) for size in (max(1, base.max_size // 2), base.max_size * 2)]
    variations += [replace(base, strategy=name) for name in STRATEGIES if name != base.strategy]
    variations += [replace(base, context_mode=mode) for mode in CONTEXT_MODES if mode != base.context_mode]
    variations += [replace(base, overlap_lines=lines) for lines in (0, 2) if lines != base.overlap_lines]
    return list(dict.fromkeys([*chosen, *variations]))


class SettingsPicker(ModalScreen[list[ChunkOptions] | None]):
    """Space checks a setting, enter compares the checked ones (two or more), escape cancels."""

    BINDING_GROUP_TITLE = "choosing settings"
    BINDINGS = [
        Binding("enter", "compare", "Compare", id="picker.compare", priority=True,
                tooltip="Evaluate the checked settings (the first is the reference)"),
        Binding("escape", "cancel", "Cancel", id="picker.cancel", tooltip="Keep the settings compared now"),
    ]

    DEFAULT_CSS = """
    SettingsPicker { align: center middle; }
    SettingsPicker > Vertical {
        width: 72; max-width: 95%; height: auto; max-height: 90%;
        border: round $accent; background: $surface; padding: 0 1;
    }
    SettingsPicker SelectionList { height: auto; max-height: 20; }
    SettingsPicker .hint { color: $text-muted; height: auto; }
    """

    def __init__(self, base: ChunkOptions, chosen: list[ChunkOptions]):
        super().__init__()
        self.candidates = candidate_settings(base, chosen)
        self.chosen = set(chosen)

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = "Settings to compare"
            yield SelectionList[int](*[
                Selection(setting_label(options), k, options in self.chosen)
                for k, options in enumerate(self.candidates)
            ])
            yield Static("space: check or uncheck · enter: compare the checked ones (2 or more; the first "
                         "is the reference) · escape: cancel", classes="hint")

    def on_mount(self) -> None:
        self.query_one(SelectionList).focus()

    def action_compare(self) -> None:
        picked = sorted(self.query_one(SelectionList).selected)
        if len(picked) < 2:
            self.notify("Check two settings or more to compare", severity="warning")
            return
        self.dismiss([self.candidates[k] for k in picked])

    def action_cancel(self) -> None:
        self.dismiss(None)
