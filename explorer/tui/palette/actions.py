"""The explorer's palette commands that have no key of their own ("params: context none",
"export: whole tree as JSON", ...), only those that make sense now; the screen's keys are
offered by :mod:`.screen_keys`."""

from __future__ import annotations

from functools import partial
from typing import Protocol, runtime_checkable

from explorer.engine.options import CONTEXT_MODES, SIZE_UNITS, STRATEGIES

from ..app_state import ExplorerState
from .provider import Command, CommandListProvider


@runtime_checkable
class PaletteHost(ExplorerState, Protocol):
    """What the palette's commands call on the app (the app satisfies it; this module
    never imports the app, which imports this module)."""

    def set_option(self, **changes: object) -> None: ...
    def choose_unit(self, unit: str) -> None: ...
    def action_export_tree(self) -> None: ...
    def action_reload(self) -> None: ...
    def action_toggle_anonymous(self) -> None: ...
    def action_save_settings(self) -> None: ...


def explorer_commands(app: PaletteHost) -> list[Command]:
    options = app.options
    commands: list[Command] = []
    if app.document is not None:
        commands += [
            ("file: reload from disk", app.action_reload, "Read, parse and chunk the open file again"),
            ("ast: toggle anonymous nodes", app.action_toggle_anonymous, "Show or hide punctuation and keywords"),
        ]
    commands.append(("export: whole tree as JSON", app.action_export_tree,
                     "Chunk every file under the explored directory"))
    commands += [
        (f"params: size unit {unit}", partial(app.choose_unit, unit),
         f"Measure chunk size in {unit} (the max size is converted to it)")
        for unit in SIZE_UNITS if unit != options.size_unit
    ]
    commands += [
        (f"params: context {mode}", partial(app.set_option, context_mode=mode), "Context attached to each chunk")
        for mode in CONTEXT_MODES if mode != options.context_mode
    ]
    commands += [
        (f"params: strategy {name}", partial(app.set_option, strategy=name), "How the file is cut")
        for name in STRATEGIES if name != options.strategy
    ]
    if options.language is not None:
        commands.append(("params: language auto", partial(app.set_option, language=None), "Detect from the file name"))
    commands.append(("settings: save parameters", app.action_save_settings,
                     "Write them to the project's .chunk-explorer.toml"))
    return commands


class ExplorerCommands(CommandListProvider):
    """The explorer's commands without a key."""

    def _commands(self) -> list[Command]:
        return explorer_commands(self.app) if isinstance(self.app, PaletteHost) else []
