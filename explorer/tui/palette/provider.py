"""What the palette's command providers share: a list of ``(name, callback, help)``, shown literally."""

from __future__ import annotations

from collections.abc import Callable

from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.markup import escape

from ..literal import highlighted, literal

Command = tuple[str, Callable[[], object], str]


class CommandListProvider(Provider):
    """A palette provider over a list of ``(name, callback, help)`` commands.

    Names and help may quote files (a sample's description says ``#[derive]``): both are
    shown literally, never read as markup."""

    def _commands(self) -> list[Command]:
        raise NotImplementedError

    async def discover(self) -> Hits:
        for name, callback, help_text in self._commands():
            yield DiscoveryHit(literal(name), callback, text=name, help=escape(help_text))

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for name, callback, help_text in self._commands():
            score = matcher.match(name)
            if score > 0:
                yield Hit(score, highlighted(matcher, name), callback, text=name, help=escape(help_text))
