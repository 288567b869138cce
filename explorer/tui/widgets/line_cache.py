"""What a Line-API widget keeps between frames: its base style and its rendered lines.

Resolving a widget's ``rich_style`` walks the CSS (costly per line), and rendering
a line costs more; both stay valid until the widget's style changes (a theme
switch) or its content does. The widget owns one :class:`LineCache` per kind of
line, calls :meth:`LineCache.restyle` from ``notify_style_update`` and
:meth:`LineCache.clear` when its content changes.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

from rich.style import Style
from textual.cache import LRUCache
from textual.widget import Widget

Key = TypeVar("Key", bound=Hashable)
Line = TypeVar("Line")


class LineCache(Generic[Key, Line]):
    """Rendered lines by key, and the widget's base style, until the next style change."""

    def __init__(self, widget: Widget, size: int):
        self.widget = widget
        self.lines: LRUCache[Key, Line] = LRUCache(size)
        self._base: Style | None = None

    @property
    def base(self) -> Style:
        """The widget's rich style, resolved once per style change."""
        if self._base is None:
            self._base = self.widget.rich_style
        return self._base

    def get(self, key: Key, render: Callable[[], Line]) -> Line:
        """The line cached under ``key``, rendered (and kept) when missing."""
        line = self.lines.get(key)
        if line is None:
            line = self.lines[key] = render()
        return line

    def discard(self, key: Key) -> None:
        self.lines.discard(key)

    def clear(self) -> None:
        """The content changed: render every line again."""
        self.lines.clear()

    def restyle(self) -> None:
        """The style changed: resolve the base style and render every line again."""
        self._base = None
        self.lines.clear()
