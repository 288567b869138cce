"""The source in teach mode: chunks completed so far, the window being built, the piece considered."""

from __future__ import annotations

from dataclasses import dataclass

from rich.style import Style
from textual.color import Color

from explorer.engine.trace import TraceStep

from ..widgets.source.overlay import Overlay, OverlaySourceView
from .model import EXPANSIONS

#: The window gets a hue no chunk uses (the chunk palette cycles blue, lime, orange, yellow, pink).
WINDOW_HUE = "#a78bfa"
WINDOW_TINT = {True: 0.38, False: 0.40}
PIECE_TINT = {True: 0.55, False: 0.50}
OVERSIZED_HUE = "#ff5f5f"


@dataclass(frozen=True)
class TeachStyles:
    window: Style
    window_bar: Style
    piece: Style
    oversized: Style

    @classmethod
    def build(cls, background: Color, accent: Color, dark: bool) -> TeachStyles:
        def tint(hue: Color, amount: float) -> Style:
            return Style(bgcolor=background.blend(hue, amount).rich_color)

        window = Color.parse(WINDOW_HUE)
        return cls(
            window=tint(window, WINDOW_TINT[dark]),
            window_bar=Style(color=(window if dark else window.darken(0.3)).rich_color, bold=True),
            piece=tint(accent, PIECE_TINT[dark]) + Style(bold=True),
            oversized=tint(Color.parse(OVERSIZED_HUE), PIECE_TINT[dark]) + Style(bold=True),
        )


class TraceSourceView(OverlaySourceView):
    """Source view that shows one step of a trace."""

    BINDING_GROUP_TITLE = "Source"

    def __init__(self, *, id: str | None = None):
        super().__init__(id=id)
        self.step: TraceStep | None = None
        self._teach_styles: TeachStyles | None = None
        self.message = "Tracing…"

    @property
    def styles_for_teaching(self) -> TeachStyles:
        if self._teach_styles is None:
            accent = Color.parse(self.app.current_theme.accent or "#ffa62b")
            self._teach_styles = TeachStyles.build(self.background_colors[1], accent, self.app.current_theme.dark)
        return self._teach_styles

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._teach_styles = None
        if self.step is not None:
            self.overlays = self._overlays_for(self.step)

    def show_step(self, step: TraceStep, *, scroll: bool = True) -> None:
        """Paint the window and the piece of ``step``; bring the piece into view."""
        self.step = step
        # The chunk a step completes is emphasised as the selected chunk.
        self.selected_chunk = step.chunk_index
        self.overlays = ()
        self.set_overlays(self._overlays_for(step))
        self._invalidate()
        target = step.piece or step.chunk
        if scroll and target is not None:
            self.reveal(target.start, target.end)
        elif scroll:  # the first and last steps are about the whole file: show it from the top
            self.scroll_to(0, 0, animate=False, immediate=True)

    def _overlays_for(self, step: TraceStep) -> tuple[Overlay, ...]:
        styles = self.styles_for_teaching
        overlays = []
        if step.window is not None:
            overlays.append(Overlay(step.window.start, step.window.end, styles.window, styles.window_bar))
        if step.piece is not None and step.action not in ("finish", "done"):
            style = styles.oversized if step.action in EXPANSIONS else styles.piece
            overlays.append(Overlay(step.piece.start, step.piece.end, style))
        return tuple(overlays)
