"""The explorer's own palette commands ("chunks: ...", "export: ...", "params: ...", ...), only those that
make sense now."""

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

    @property
    def refused_path(self) -> str | None:
        """The file last refused for its size, or None."""

    def set_option(self, **changes: object) -> None: ...
    def choose_unit(self, unit: str) -> None: ...
    def action_next_chunk(self) -> None: ...
    def action_previous_chunk(self) -> None: ...
    def action_export(self) -> None: ...
    def action_export_tree(self) -> None: ...
    def action_reload(self) -> None: ...
    def action_toggle_anonymous(self) -> None: ...
    def action_open_anyway(self) -> None: ...
    def action_size_step(self, direction: int) -> None: ...
    def action_overlap_step(self, direction: int) -> None: ...
    def action_save_settings(self) -> None: ...
    def action_help(self) -> None: ...


def explorer_commands(app: PaletteHost) -> list[Command]:
    options = app.options
    has_file = app.document is not None
    commands: list[Command] = []
    if has_file:
        commands += [
            ("chunks: next chunk", app.action_next_chunk, "Select the chunk after the selected one"),
            ("chunks: previous chunk", app.action_previous_chunk, "Select the chunk before the selected one"),
            ("export: current file as JSON", app.action_export, "Write this file's chunks (CLI schema)"),
            ("file: reload from disk", app.action_reload, "Read, parse and chunk the open file again"),
            ("ast: toggle anonymous nodes", app.action_toggle_anonymous, "Show or hide punctuation and keywords"),
        ]
    if app.refused_path is not None:
        commands.append(("file: open anyway", app.action_open_anyway, "Open the file refused for its size"))
    commands += [
        ("export: whole tree as JSON", app.action_export_tree, "Chunk every file under the explored directory"),
        ("params: increase max size", partial(app.action_size_step, 1), f"Now {options.max_size} {options.size_unit}"),
        ("params: decrease max size", partial(app.action_size_step, -1), f"Now {options.max_size} {options.size_unit}"),
        ("params: more overlap lines", partial(app.action_overlap_step, 1), f"Now {options.overlap_lines}"),
        ("params: fewer overlap lines", partial(app.action_overlap_step, -1), f"Now {options.overlap_lines}"),
    ]
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
    commands += [
        ("settings: save parameters", app.action_save_settings, "Write them to the project's .chunk-explorer.toml"),
        ("view: help", app.action_help, "Every key binding"),
    ]
    return commands


class ExplorerCommands(CommandListProvider):
    """The explorer's own commands."""

    def _commands(self) -> list[Command]:
        return explorer_commands(self.app) if isinstance(self.app, PaletteHost) else []
