"""Choosing what the queries view compares: a checklist of variations of the explorer's
parameters (max size, strategy, overlap, context), the first checked one the reference,
and a checklist of the query sources (docs, calls, types, history)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import SelectionList, Static
from textual.widgets.selection_list import Selection

from explorer.display import grid_label
from explorer.engine.options import CONTEXT_MODES, STRATEGIES, ChunkOptions
from explorer.engine.retrieval.evaluate import QUERY_SOURCES

#: What each query source asks, as the picker says it.
SOURCE_LABELS = {
    "docs": "docs: a definition's doc asks for it (docs masked)",
    "calls": "calls: the code around a call asks for the callee",
    "types": "types: the code around a type's use asks for the type",
    "history": "history: a commit's message asks for the definitions it changed",
}


@dataclass(frozen=True, slots=True)
class Comparison:
    """What the picker chose: the settings (the first is the reference) and the query sources."""

    settings: list[ChunkOptions]
    queries: str

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


class SettingsPicker(ModalScreen[Comparison | None]):
    """Space checks a setting or a source, enter compares the checked settings (two or more)
    on the checked sources (one or more), escape cancels."""

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
    SettingsPicker SelectionList { height: auto; max-height: 16; }
    SettingsPicker .hint { color: $text-muted; height: auto; }
    """

    def __init__(self, base: ChunkOptions, chosen: list[ChunkOptions], queries: str = "docs"):
        super().__init__()
        self.candidates = candidate_settings(base, chosen)
        self.chosen = set(chosen)
        self.sources = {part.strip() for part in queries.split(",")}

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = "Settings and queries to compare"
            yield SelectionList[int](*[
                Selection(setting_label(options), k, options in self.chosen)
                for k, options in enumerate(self.candidates)
            ], id="picker-settings")
            yield SelectionList[str](*[
                Selection(SOURCE_LABELS.get(name, name), name, name in self.sources) for name in QUERY_SOURCES
            ], id="picker-sources")
            yield Static("space: check or uncheck · tab: settings / query sources · enter: compare the checked "
                         "settings (2 or more; the first is the reference) on the checked sources · escape: cancel",
                         classes="hint")

    def on_mount(self) -> None:
        self.query_one("#picker-settings", SelectionList).border_title = "settings"
        self.query_one("#picker-sources", SelectionList).border_title = "query sources"
        self.query_one("#picker-settings", SelectionList).focus()

    def action_compare(self) -> None:
        picked = sorted(self.query_one("#picker-settings", SelectionList).selected)
        sources = [name for name in QUERY_SOURCES if name in self.query_one("#picker-sources", SelectionList).selected]
        if len(picked) < 2:
            self.notify("Check two settings or more to compare", severity="warning")
            return
        if not sources:
            self.notify("Check a query source or more", severity="warning")
            return
        self.dismiss(Comparison([self.candidates[k] for k in picked], ",".join(sources)))

    def action_cancel(self) -> None:
        self.dismiss(None)
