"""The key footer, rebuilt only when the keys it shows change.

Textual's ``Footer`` removes and mounts all its key widgets again on every
bindings update, that is on every focus change, even when the keys shown stay
the same (most widgets here only add hidden navigation keys). Each rebuild costs
some 20-30 ms plus a relayout; at start-up it composed nothing, then rebuilt three
times before the first complete frame. This footer is our own (as Toolong's is):
it composes its keys at once from the screen's active bindings, and rebuilds only
when what it would show has changed. It looks like Textual's.

What it shows is what works: a focused text field takes the printable keys, so
their bindings are not offered then. When the keys do not fit, whole keys are
left out, the least used first (the later in their screen's list); ``?`` (help,
where every key is listed) and the quit key stay.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import events
from textual.app import ComposeResult
from textual.binding import ActiveBinding, Binding
from textual.containers import ScrollableContainer
from textual.dom import DOMNode
from textual.keys import key_to_character
from textual.widget import Widget

from .footer_key import FooterKey

if TYPE_CHECKING:
    from textual.screen import Screen

#: One shown key: (key, key display, description, enabled, tooltip, on the right).
ShownKey = tuple[str, str, str, bool, str, bool]

#: Actions whose keys are left out for lack of room only when nothing else is left:
#: help (every key is listed there), quit, and going back to the screen before.
ALWAYS_SHOWN = ("help", "app.help", "quit", "app.quit", "leave")
#: While a pane is maximized, the key that restores the layout is kept as those are.
RESTORE = "zoom"


def key_width(display: str, description: str, compact: bool = False) -> int:
    """Cells a FooterKey takes: `` key `` and ``description `` (``key description`` when compact)."""
    if compact:
        return len(display) + (1 + len(description) if description else 0)
    return len(display) + 2 + (len(description) + 1 if description else 0)


_KEY_NAMES = {
    "plus": "+", "minus": "-", "equals_sign": "=", "greater_than_sign": ">", "less_than_sign": "<",
    "question_mark": "?", "dollar_sign": "$", "space": "space", "slash": "/", "asterisk": "*",
}


def key_name(key: str) -> str:
    """How a key is written for people: ``]`` for ``right_square_bracket``, ``ctrl+p`` as is."""
    if key in _KEY_NAMES:
        return _KEY_NAMES[key]
    character = key_to_character(key)
    return character if character and character.isprintable() and not character.isspace() else key


def eaten_by(focused: Widget | None, key: str, binding: Binding) -> bool:
    """Whether the focused widget takes ``key`` for itself (a text field takes every printable
    character, even one an integer field then refuses), so the binding does not fire."""
    if binding.priority or focused is None:
        return False
    name = key_name(key)  # ``key_to_character`` knows "a" but not "slash" or "plus"
    character = " " if key == "space" else name if len(name) == 1 else key_to_character(key)
    return focused.check_consume_key(key, character)


def ordered(active: dict[str, ActiveBinding], focused: DOMNode | None, screen: Screen) -> list[tuple[str, ActiveBinding]]:
    """The active bindings in the footer's order: those of the focused widget first, then of
    its containers, the screen and the app; in each, the order its class lists them (a
    screen lists its keys most useful first)."""
    chain: list[DOMNode] = list(focused.ancestors_with_self) if focused is not None else [screen, screen.app]
    if screen.app not in chain:
        chain.append(screen.app)

    def position(item: tuple[str, ActiveBinding]) -> tuple[int, int]:
        namespace, binding = item[1].node, item[1].binding
        depth = chain.index(namespace) if namespace in chain else len(chain)
        declared = [b for cls in type(namespace).__mro__ for b in vars(cls).get("BINDINGS", [])]
        index = next((k for k, b in enumerate(declared) if isinstance(b, Binding) and b.action == binding.action),
                     len(declared))
        return depth, index

    return sorted(active.items(), key=position)


def fit(keys: list[ShownKey], width: int, always: frozenset[str] = frozenset()) -> list[ShownKey]:
    """The keys that fit in ``width`` cells, in their order: the last ones (least used) are
    left out first; those in ``always`` (by key) only if nothing else is left."""
    kept = list(keys)
    total = sum(key_width(k[1], k[2], k[5]) for k in kept)
    backwards = list(reversed(keys))
    for key in [k for k in backwards if k[0] not in always] + [k for k in backwards if k[0] in always]:
        if total <= width:
            break
        kept.remove(key)
        total -= key_width(key[1], key[2], key[5])
    return kept


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
        """What the footer shows for the screen's bindings now (one key per action; the
        bindings of one ``Binding.Group`` as one key, ``+-  Size``), fitted to the width."""
        app = self.app
        screen = self.screen
        active = screen.active_bindings
        focused = screen.focused
        keys: dict[object, ShownKey] = {}
        #: The displays already joined into a group's key (``←→``: a compact group has no
        #: separator to split on, and each display shows once though two keys share it).
        joined_displays: dict[object, list[str]] = {}
        always: set[str] = set()
        for key, (_, binding, enabled, tooltip) in ordered(active, focused, screen):
            if not binding.show or eaten_by(focused, key, binding):
                continue
            group = binding.group
            slot: object = group if group is not None else binding.action
            display = app.get_key_display(binding)
            if group is None and slot not in keys:
                keys[slot] = (binding.key, display, binding.description, enabled, tooltip, False)
            elif group is not None:
                if slot in keys:
                    first = keys[slot]
                    if display not in joined_displays[slot]:
                        joined_displays[slot].append(display)
                        joined = ("" if group.compact else " ").join(joined_displays[slot])
                        keys[slot] = (first[0], joined, first[2], first[3] or enabled,
                                      f"{first[4]}; {tooltip}" if tooltip else first[4], False)
                else:
                    joined_displays[slot] = [display]
                    keys[slot] = (binding.key, display, group.description, enabled, tooltip, False)
            if binding.action in ALWAYS_SHOWN or (binding.action == RESTORE and screen.maximized is not None):
                always.add(binding.key)
        shown = list(keys.values())
        palette: list[ShownKey] = []
        if app.ENABLE_COMMAND_PALETTE and app.COMMAND_PALETTE_BINDING in active:
            _, binding, enabled, tooltip = active[app.COMMAND_PALETTE_BINDING]
            palette.append((binding.key, app.get_key_display(binding), binding.description, enabled,
                            binding.tooltip or binding.description, True))
        room = app.size.width - sum(key_width(k[1], k[2], True) + 2 for k in palette)
        return tuple(fit(shown, room, frozenset(always)) + palette)

    def compose(self) -> ComposeResult:
        self.shown = self.keys_now()
        for key, display, description, enabled, tooltip, palette in self.shown:
            yield FooterKey(key, display, description, enabled=enabled, tooltip=tooltip,
                            classes="-command-palette -compact" if palette else "")

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self.bindings_changed)
        self.watch(self.screen, "maximized", lambda _: self.bindings_changed(self.screen), init=False)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def on_resize(self, event: events.Resize) -> None:
        if self.is_attached and self.keys_now() != self.shown:
            self.call_after_refresh(self.recompose)

    def bindings_changed(self, screen: Screen) -> None:
        if self.app.app_focus and self.is_attached and screen is self.screen and self.keys_now() != self.shown:
            self.call_after_refresh(self.recompose)
