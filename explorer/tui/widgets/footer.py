"""The key footer, rebuilt only when the keys it shows change.

Textual's ``Footer`` removes and mounts all its key widgets again on every
bindings update, that is on every focus change, even when the keys shown stay
the same (most widgets here only add hidden navigation keys). Each rebuild costs
some 20-30 ms plus a relayout; at start-up it composed nothing, then rebuilt three
times before the first complete frame. This footer is our own (as Toolong's is):
it composes its keys at once from the screen's active bindings, and rebuilds only
when what it would show has changed. It looks like Textual's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.containers import ScrollableContainer

from .footer_key import FooterKey

if TYPE_CHECKING:
    from textual.screen import Screen

#: One shown key: (key, key display, description, enabled, tooltip, on the right).
ShownKey = tuple[str, str, str, bool, str, bool]


class KeyFooter(ScrollableContainer, can_focus=False, can_focus_children=False):
    """The keys of the focused widget and its ancestors, and the palette key on the right."""

    ALLOW_SELECT = False

    DEFAULT_CSS = """
    KeyFooter {
        layout: horizontal;
        color: $footer-foreground;
        background: $footer-background;
        dock: bottom;
        height: 1;
        scrollbar-size: 0 0;
        FooterKey.-command-palette {
            dock: right;
            padding-right: 1;
            border-left: vkey $foreground 20%;
        }
    }
    """

    def __init__(self, *, id: str | None = None):
        super().__init__(id=id)
        self.shown: tuple[ShownKey, ...] | None = None

    def keys_now(self) -> tuple[ShownKey, ...]:
        """What the footer shows for the screen's bindings now (one key per action)."""
        app = self.app
        active = self.screen.active_bindings
        keys: dict[str, ShownKey] = {}
        for _, binding, enabled, tooltip in active.values():
            if binding.show and binding.action not in keys:
                keys[binding.action] = (binding.key, app.get_key_display(binding), binding.description, enabled,
                                        tooltip, False)
        shown = list(keys.values())
        if app.ENABLE_COMMAND_PALETTE and app.COMMAND_PALETTE_BINDING in active:
            _, binding, enabled, tooltip = active[app.COMMAND_PALETTE_BINDING]
            shown.append((binding.key, app.get_key_display(binding), binding.description, enabled,
                          binding.tooltip or binding.description, True))
        return tuple(shown)

    def compose(self) -> ComposeResult:
        self.shown = self.keys_now()
        for key, display, description, enabled, tooltip, palette in self.shown:
            yield FooterKey(key, display, description, enabled=enabled, tooltip=tooltip,
                            classes="-command-palette -compact" if palette else "")

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self.bindings_changed)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def bindings_changed(self, screen: Screen) -> None:
        if self.app.app_focus and self.is_attached and screen is self.screen and self.keys_now() != self.shown:
            self.call_after_refresh(self.recompose)
