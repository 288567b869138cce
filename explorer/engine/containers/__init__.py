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

from typing import TYPE_CHECKING

from ..languages import NOTEBOOK
from .components import component_blocks
from .markdown import fenced_blocks
from .region import RegionSpec

if TYPE_CHECKING:  # the notebook reader is used before any parse: loading it loads no parser
    from tree_sitter import Node

#: The container grammars whose trees are searched for regions.
GRAMMAR_CONTAINERS = frozenset({"markdown", "vue", "svelte", "astro", "html"})


def is_container(language: str | None) -> bool:
    return language in GRAMMAR_CONTAINERS or language == NOTEBOOK


def locate(language: str, root: Node, data: bytes) -> list[RegionSpec]:
    """The regions of a parsed container file, in file order, not overlapping."""
    if language == "markdown":
        return fenced_blocks(root, data)
    return component_blocks(language, root, data)
