"""The key footer, rebuilt only when the keys it shows change.

Textual's ``Footer`` removes and mounts all its key widgets again on every
bindings update, that is on every focus change, even when the keys shown stay
the same (most widgets here only add hidden navigation keys). Each rebuild costs
some 20-30 ms plus a relayout; at start-up it composed nothing, then rebuilt three
times before the first complete frame. This footer looks the same and behaves
the same: it composes its keys at once, and skips the rebuild when nothing it
would show has changed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.widgets import Footer

if TYPE_CHECKING:
    from textual.screen import Screen


class KeyFooter(Footer):
    """A ``Footer`` that recomposes only when its keys change."""

    _shown: object = None

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        # Footer composes nothing until the first bindings update, then rebuilds: compose
        # the keys known now instead (the update rebuilds only if they differ).
        self.set_reactive(Footer._bindings_ready, True)

    def _signature(self) -> object:
        """Everything ``Footer.compose`` reads, in a comparable form."""
        app = self.app
        active = self.screen.active_bindings
        keys = tuple(
            (binding.key, app.get_key_display(binding), binding.description, binding.action,
             binding.group, enabled, tooltip)
            for (_, binding, enabled, tooltip) in active.values()
            if binding.show
        )
        palette = None
        if self.show_command_palette and app.ENABLE_COMMAND_PALETTE:
            found = active.get(app.COMMAND_PALETTE_BINDING)
            if found is not None:
                _, binding, enabled, tooltip = found
                palette = (binding.key, app.get_key_display(binding), binding.description, binding.action,
                           enabled, binding.tooltip or tooltip)
        return keys, palette, self.compact

    def compose(self) -> ComposeResult:
        if self._bindings_ready:
            self._shown = self._signature()
        yield from super().compose()

    def bindings_changed(self, screen: Screen) -> None:
        if self._shown is not None and self.is_attached and screen is self.screen:
            if self._signature() == self._shown:
                return
        super().bindings_changed(screen)
