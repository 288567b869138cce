"""``<script>`` and ``<style>`` of Vue, Svelte, Astro and HTML, and Astro's frontmatter, as regions."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..languages import tag_language
from .region import RegionSpec, line_aligned

if TYPE_CHECKING:
    from tree_sitter import Node

_ELEMENTS = {"script_element": "javascript", "style_element": "css"}
#: Astro's frontmatter is TypeScript.
_FRONTMATTER = "frontmatter_js_block"
#: Scripts of these types hold data or templates, not code of a grammar we parse.
_TEMPLATE_TYPES = ("text/template", "text/x-template", "text/html", "text/x-handlebars-template", "text/ng-template")


def component_blocks(language: str, root: Node, data: bytes) -> list[RegionSpec]:
    found: list[RegionSpec] = []
    stack = [root]
    while stack:
        node = stack.pop()
        kind = node.type
        if kind in _ELEMENTS:
            spec = _element(node, data, _ELEMENTS[kind])
            if spec is not None:
                found.append(spec)
            continue
        if kind == _FRONTMATTER:
            start, end = line_aligned(data, node.start_byte, node.end_byte)
            if data[start:end].strip():
                found.append(RegionSpec(start, end, "typescript", "--- frontmatter"))
            continue
        if node.child_count:
            stack.extend(reversed(node.children))
    found.sort(key=lambda spec: spec.start)
    return found


def _element(node: Node, data: bytes, default: str) -> RegionSpec | None:
    tag_name = "script" if default == "javascript" else "style"
    attributes: dict[str, str] = {}
    raw: Node | None = None
    closer = 0
    for child in node.children:
        if child.type == "start_tag":
            attributes = _attributes(child, data)
        elif child.type == "raw_text":
            raw = child
        elif child.type == "end_tag":
            closer = child.end_byte
    if raw is None:
        return None
    start, end = line_aligned(data, raw.start_byte, raw.end_byte)
    if not data[start:end].strip():
        return None
    note = None
    if "lang" in attributes:
        value = attributes["lang"]
        language = tag_language(value)
        label = f'<{tag_name} lang="{value}">'
    elif "type" in attributes and tag_name == "script":
        value = attributes["type"]
        language = None if value.lower() in _TEMPLATE_TYPES else tag_language(value)
        label = f'<script type="{value}">'
    else:
        value, language, label = default, default, f"<{tag_name}>"
    if language is None:
        note = f"no grammar for {value!r}: chunked by lines"
    return RegionSpec(start, end, language, label, note, closer=closer)


def _attributes(start_tag: Node, data: bytes) -> dict[str, str]:
    found: dict[str, str] = {}
    for attribute in start_tag.children:
        if attribute.type != "attribute":
            continue
        name = value = ""
        for part in attribute.children:
            if part.type == "attribute_name":
                name = data[part.start_byte : part.end_byte].decode("utf-8", "replace").lower()
            elif part.type in ("attribute_value", "quoted_attribute_value"):
                value = data[part.start_byte : part.end_byte].decode("utf-8", "replace").strip("\"'")
        if name:
            found[name] = value.strip()
    return found
