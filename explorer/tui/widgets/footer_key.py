"""One key of the footer: the key, its description; a click presses the key."""

from __future__ import annotations

from rich.text import Text
from textual.widget import Widget


class FooterKey(Widget):
    """``key description``, styled like Textual's footer keys."""

    ALLOW_SELECT = False
    COMPONENT_CLASSES = {"footer-key--key", "footer-key--description"}

    DEFAULT_CSS = """
    FooterKey {
        width: auto;
        height: 1;
        text-wrap: nowrap;
        background: $footer-item-background;
        .footer-key--key {
            color: $footer-key-foreground;
            background: $footer-key-background;
            text-style: bold;
            padding: 0 1;
        }
        .footer-key--description {
            padding: 0 1 0 0;
            color: $footer-description-foreground;
            background: $footer-description-background;
        }
        &:hover {
            pointer: pointer;
            color: $footer-key-foreground;
            background: $block-hover-background;
        }
        &.-disabled { text-style: dim; }
        &.-compact {
            .footer-key--key { padding: 0; }
            .footer-key--description { padding: 0 0 0 1; }
        }
    }
    """

    def __init__(self, key: str, key_display: str, description: str, *, enabled: bool = True, tooltip: str = "",
                 classes: str = ""):
        super().__init__(classes=classes)
        self.key = key
        self.key_display = key_display
        self.description = description
        self.enabled = enabled
        self.set_class(not enabled, "-disabled")
        self.shrink = False
        if tooltip:
            self.tooltip = tooltip

    def render(self) -> Text:
        key_style = self.get_component_rich_style("footer-key--key")
        description_style = self.get_component_rich_style("footer-key--description")
        key_padding = self.get_component_styles("footer-key--key").padding
        description_padding = self.get_component_styles("footer-key--description").padding
        text = Text.assemble(
            (" " * key_padding.left + self.key_display + " " * key_padding.right, key_style),
            (" " * description_padding.left + self.description + " " * description_padding.right, description_style)
            if self.description else "",
        )
        text.stylize_before(self.rich_style)
        return text

    def on_mouse_down(self) -> None:
        if self.enabled:
            self.app.simulate_key(self.key)
        else:
            self.app.bell()
