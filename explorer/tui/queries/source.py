"""What the queries view draws in its source view: a target file chunked as a setting
chunked it, and the query's target and top chunks as overlays (no Textual widgets).

The file is the original (docs not masked), shown without a syntax tree; chunk
boundaries are the evaluation's own, mapped back through the masking, so the
view shows exactly what was indexed and retrieved.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from rich.style import Style
from textual.color import Color

from explorer.engine.languages import detect_language
from explorer.engine.options import ChunkOptions
from explorer.engine.parse import ParsedFile
from explorer.engine.text import SourceText

from ..document.lexer import lexer_for
from ..document.model import Chunking, ChunkLayout, ChunkStats, Document, LoadedFile, longest_line
from ..widgets.source.overlay import Overlay
from .model import RetrievalRun

TARGET_HUE = "#af87ff"  # not one of the chunk palette's hues
HIT_HUE = "#5fd75f"
MISS_HUE = "#ff5f5f"
TINT = 0.40


@dataclass(frozen=True, slots=True)
class OverlayStyles:
    """The target's gutter bar, and the backgrounds of top chunks that hit and miss."""

    target: Style
    hit: Style
    miss: Style

    @classmethod
    def build(cls, background: Color) -> OverlayStyles:
        def tint(hue: str) -> Style:
            return Style(bgcolor=background.blend(Color.parse(hue), TINT).rich_color)

        return cls(Style(color=TARGET_HUE, bold=True), tint(HIT_HUE), tint(MISS_HUE))


def display_file(root: str, path: str, data: bytes) -> LoadedFile:
    """A target file for display only: its text and a lexer, no parse."""
    source = SourceText(data, path)
    language = detect_language(path, data[:256])
    parsed = ParsedFile(source, path, language, None, fallback="shown as evaluated")
    full_path = os.path.join(root, path)
    return LoadedFile(full_path, parsed, None, ChunkOptions(), 0.0, longest_line(source), lexer_for(full_path, language))


def evaluated_document(file: LoadedFile, spans: list[tuple[int, int]], options: ChunkOptions,
                       generation: int) -> Document:
    """The file with the chunks a setting made of it (original-file byte ranges)."""
    source = file.source
    lines = [source.line_range(start, end) for start, end in spans]
    layout = ChunkLayout(
        starts=tuple(start for start, _ in spans), ends=tuple(end for _, end in spans),
        first_lines=tuple(first for first, _ in lines), last_lines=tuple(last for _, last in lines),
        overlaps=(), overlap_ends=(),
    )
    return Document(file, Chunking(options, (), layout, ChunkStats.of((), options), 0.0), generation)


def query_overlays(run: RetrievalRun, query: int, setting: int, styles: OverlayStyles) -> list[Overlay]:
    """The top chunks in the target's file (hits and misses), then the bar of every target
    in that file (a commit may have changed several definitions there)."""
    target = run.result.queries[query]
    overlays = [
        Overlay(chunk.start, max(chunk.end, chunk.start + 1), styles.hit if chunk.hit else styles.miss)
        for chunk in run.settings[setting].outcomes[query].top if chunk.path == target.path
    ]
    overlays += [Overlay(span.start, max(span.end, span.start + 1), Style(), styles.target)
                 for span in target.targets if span.path == target.path]
    return overlays
