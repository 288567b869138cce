"""The keys of the screen in front as palette commands: one command per binding of that
screen, named by what it does, with its key as the help.

The palette offers only what the screen in front does (each screen lists this provider,
and its own extras, in ``COMMANDS``), so a command never changes a screen hidden behind
it. A screen leaves out of its palette the keys that act on its cursor
(``PALETTE_SKIPS``: binding ids), which the palette's list covers while it is open.
"""

from __future__ import annotations

from functools import partial

from textual.binding import Binding
from textual.screen import Screen

from ..widgets.footer import key_name
from .provider import Command, CommandListProvider


def screen_key_commands(screen: Screen) -> list[Command]:
    """``(name, callback, help)`` for each binding of ``screen``'s class with an id."""
    skips = set(getattr(screen, "PALETTE_SKIPS", ()))
    commands: list[Command] = []
    for binding in type(screen).BINDINGS:
        if not isinstance(binding, Binding) or binding.id is None or binding.id in skips:
            continue
        group = binding.id.split(".", 1)[0]
        what = binding.tooltip or binding.description
        keys = " or ".join(key_name(key.strip()) for key in binding.key.split(","))
        commands.append((f"{group}: {what[:1].lower()}{what[1:]}", partial(screen.run_action, binding.action),
                         f"key: {keys}"))
    return commands


class ScreenKeyCommands(CommandListProvider):
    """The keys of the screen the palette was opened on."""

    def _commands(self) -> list[Command]:
        return screen_key_commands(self.screen)
