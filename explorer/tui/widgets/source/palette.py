"""Colours for chunks: a cycling palette tinted over the view's background.

The five hues are ChunkViz's; overlap gets its own olive, as in ChunkViz. Tints
are blended with the actual background so they stay readable in light and dark
themes alike, and recomputed when the theme changes.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.style import Style
from textual.color import Color

CHUNK_HUES = ("#70d6ff", "#e9ff70", "#ff9770", "#ffd670", "#ff70a6")
OVERLAP_HUE = "#90a955"
CUT_HUE = "#ff5f5f"

#: How strongly a hue is mixed into the background.
TINT = {"dark": 0.13, "light": 0.30}
SELECTED_TINT = {"dark": 0.30, "light": 0.55}
OVERLAP_TINT = {"dark": 0.45, "light": 0.60}
RANGE_TINT = {"dark": 0.50, "light": 0.45}


@dataclass(frozen=True)
class ChunkPalette:
    backgrounds: tuple[Style, ...]
    selected_backgrounds: tuple[Style, ...]
    bars: tuple[Style, ...]
    overlap: Style
    overlap_bar: Style
    cut: Style
    range: Style

    @classmethod
    def build(cls, background: Color, accent: Color, dark: bool) -> ChunkPalette:
        mode = "dark" if dark else "light"

        def tint(hue: str | Color, amount: float) -> Style:
            colour = hue if isinstance(hue, Color) else Color.parse(hue)
            return Style(bgcolor=background.blend(colour, amount).rich_color)

        def fg(hue: str) -> Style:
            colour = Color.parse(hue)
            if not dark:  # full-strength pastels vanish on white: darken them
                colour = colour.darken(0.35)
            return Style(color=colour.rich_color)

        return cls(
            backgrounds=tuple(tint(h, TINT[mode]) for h in CHUNK_HUES),
            selected_backgrounds=tuple(tint(h, SELECTED_TINT[mode]) for h in CHUNK_HUES),
            bars=tuple(fg(h) for h in CHUNK_HUES),
            overlap=tint(OVERLAP_HUE, OVERLAP_TINT[mode]),
            overlap_bar=fg(OVERLAP_HUE) + Style(bold=True),
            cut=fg(CUT_HUE) + Style(bold=True),
            range=tint(accent, RANGE_TINT[mode]),
        )

    def background(self, index: int, selected: bool) -> Style:
        styles = self.selected_backgrounds if selected else self.backgrounds
        return styles[index % len(styles)]

    def bar(self, index: int) -> Style:
        return self.bars[index % len(self.bars)]
