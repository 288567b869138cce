"""Palette commands of the teaching and tuning tools ("teach: ...", "compare: ...", "sweep: ...",
"queries: ...")."""

from __future__ import annotations

from functools import partial
from typing import Any

from textual.app import App

from explorer.samples import list_samples

from ..app_state import ExplorerState, explorer_state
from ..tools import open_compare, open_queries, open_sweep, open_teach
from .provider import Command, CommandListProvider


def tool_commands(app: App[Any]) -> list[Command]:
    commands: list[Command] = []
    if explorer_state(app).document is not None:
        commands += [
            ("teach: step through the open file", partial(open_teach, app), "Play the chunker's decisions one by one"),
            ("compare: open file chunked two ways", partial(open_compare, app),
             "Side by side: these parameters against the line baseline or a second set"),
        ]
    commands += [
        (f"teach: open sample {s.name}", partial(open_teach, app, s.name), s.description)
        for s in list_samples()
    ]
    commands.append(("sweep: measure settings over the directory", partial(open_sweep, app),
                     "Chunk every file under several max sizes; compare; save the chosen one"))
    commands.append(("queries: which settings retrieve each query", partial(open_queries, app),
                     "Retrieval per query from the code's docs: ranks per setting, the target and top 5 in the source"))
    return commands


class ToolCommands(CommandListProvider):
    """Palette commands of teach mode, the compare view, the sweep panel and the queries view."""

    def _commands(self) -> list[Command]:
        return tool_commands(self.app) if isinstance(self.app, ExplorerState) else []
