"""Where the code inside a file of another language lies.

A *container* is a file whose text holds regions of other languages: a Markdown file's
fenced code blocks, a Vue, Svelte or Astro component's ``<script>`` and ``<style>``, an
HTML page's inline scripts, a Jupyter notebook's cells. This package only *locates* the
regions (byte ranges and languages); :mod:`explorer.engine.parse` parses each one with its
own grammar and :mod:`explorer.engine.regions` chunks them.

Regions are found from the container grammar's own node types (``fenced_code_block``,
``script_element``, ``raw_text``...), not from tree-sitter injection queries: the grammar
pack bundles parsers only (no query files), and the handful of node types involved is
stable across these grammars, while reading the ``lang``/``type`` attribute and the info
string ourselves lets one alias table (:func:`~explorer.engine.languages.tag_language`)
name the language everywhere.
"""

from __future__ import annotations

from dataclasses import dataclass

from tree_sitter import Node

from ..languages import NOTEBOOK


@dataclass(frozen=True, slots=True)
class RegionSpec:
    """One embedded region: bytes ``[start, end)`` of the file, at line starts where the
    container allows. ``language`` None: not a language we parse (chunked by lines, ``note``
    says why). ``holes``: byte ranges inside it that are the container's, not the code's
    (a blockquote's ``>`` markers), left out of the parse."""

    start: int
    end: int
    language: str | None
    label: str
    note: str | None = None
    holes: tuple[tuple[int, int], ...] = ()
    #: Where the region's closing delimiter ends (the closing fence, ``</script>``): the
    #: container's text after the region is parsed without it, since alone it would open
    #: a new block (a lone fence) or be a stray end tag.
    closer: int = 0


#: The container grammars whose trees are searched for regions.
GRAMMAR_CONTAINERS = frozenset({"markdown", "vue", "svelte", "astro", "html"})


def is_container(language: str | None) -> bool:
    return language in GRAMMAR_CONTAINERS or language == NOTEBOOK


def locate(language: str, root: Node, data: bytes) -> list[RegionSpec]:
    """The regions of a parsed container file, in file order, not overlapping."""
    if language == "markdown":
        from .markdown import fenced_blocks

        return fenced_blocks(root, data)
    from .components import component_blocks

    return component_blocks(language, root, data)


def line_aligned(data: bytes, start: int, end: int) -> tuple[int, int]:
    """A region's bounds moved to line starts where only blanks separate them from one:
    the rest of an opening tag's line is not the code's, nor the indentation before a
    closing tag. Chunks of the region then start and end at line starts."""
    newline = data.find(b"\n", start, end)
    if newline >= 0 and not data[start:newline].strip():
        start = newline + 1
    line_start = data.rfind(b"\n", start, end) + 1
    if line_start > start and not data[line_start:end].strip():
        end = line_start
    return start, end
