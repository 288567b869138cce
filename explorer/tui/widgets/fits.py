"""A rich renderable built for the width it is drawn at: tables and charts that fit their
pane (bars shrink, numbers shorten visibly) instead of wrapping or cutting."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from rich.console import Console, ConsoleOptions, RenderableType


class FitsWidth:
    """A renderable built for the width it is drawn at (a chart whose bars shrink to fit,
    instead of wrapping its rows), again at every width."""

    def __init__(self, build: Callable[[int], RenderableType]):
        self.build = build

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[RenderableType]:
        yield self.build(options.max_width)
