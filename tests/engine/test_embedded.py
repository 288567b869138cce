"""Embedded code (Markdown fences, component scripts and styles, HTML inline scripts) and
notebooks: each region chunked by its own grammar, the file still tiled exactly.

The real files are in tests/fixtures/embedded (see its NOTICE.md); malformed inputs are
made here."""

from __future__ import annotations

import json
from bisect import bisect_right
from collections.abc import Callable
from pathlib import Path

import pytest

from explorer.engine.api import chunk, chunk_parsed, languages, parse
from explorer.engine.containers.notebook import NotebookError
from explorer.engine.languages import detect_language, tag_language
from explorer.engine.measure.quality import REGION_BOUNDARY, measure_file
from explorer.engine.options import ChunkOptions
from explorer.engine.parse import ParsedFile
from explorer.engine.structure import extract_structure

EMBEDDED = Path(__file__).resolve().parent.parent / "fixtures" / "embedded"
COMPONENTS = ["VPMenu.vue", "VPNav.vue", "Listgroup.svelte", "Icon.astro", "fastapi-dependencies.md", "httpx-README.md"]
NOTEBOOKS = ["text_outputs_and_images.ipynb", "itypescript.ipynb", "python_notebook_sample.ipynb"]


def _parsed(name: str, **options: object) -> tuple[ParsedFile, ChunkOptions]:
    opts = ChunkOptions.build(None, **options)
    return parse(str(EMBEDDED / name), (EMBEDDED / name).read_bytes(), opts), opts


def _embedded_cuts(parsed: ParsedFile, chunks: list, opts: ChunkOptions) -> list:  # type: ignore[type-arg]
    """The cuts that fall inside embedded code (not at a region's edge), leaving out the ones
    the chunker says were forced (inside a line or token longer than the limit)."""
    starts = [r.start for r in parsed.regions]
    data = parsed.source.data
    forced = {len(data[:c.byte_range.start]) + len(data[c.byte_range.start:]) - len(data[c.byte_range.start:].lstrip())
              for c in chunks if c.split_start}
    cuts = measure_file(parsed, chunks, opts).cuts
    return [
        c for c in cuts
        if c.parent != REGION_BOUNDARY and c.offset not in forced
        and parsed.regions[bisect_right(starts, c.offset) - 1].embedded
    ]


def _check_regions_whole(parsed: ParsedFile, chunks: list) -> None:  # type: ignore[type-arg]
    """A chunk holding text of several regions holds each of them whole, but for the line
    that opens an embedded region (a fence, a tag), which starts the code's chunk."""
    data = parsed.source.data
    for c in chunks:
        start, end = c.byte_range.start, c.byte_range.end
        opening = {r.start for r in parsed.regions if r.embedded}
        if start not in opening and data.find(b"\n", start) + 1 in opening:
            start = data.find(b"\n", start) + 1
        if end not in opening and data.find(b"\n", end) + 1 in opening:  # it went to the next chunk
            end = data.find(b"\n", end) + 1
        touched = [r for r in parsed.regions if r.start < end and r.end > start
                   and parsed.source.nws(max(start, r.start), min(end, r.end))]
        if len(touched) > 1:
            for r in touched:
                assert start <= r.start and r.end <= end, (c.text[:80], r.label)


@pytest.mark.parametrize("name", COMPONENTS)
@pytest.mark.parametrize("max_size", [60, 200, 1500])
def test_real_containers_tile_and_cut_code_by_its_tree(name: str, max_size: int, check: Callable[..., None]) -> None:
    parsed, opts = _parsed(name, max_size=max_size)
    chunks = chunk_parsed(parsed, opts)
    data = (EMBEDDED / name).read_bytes()
    check(data, chunks, max_size=max_size)
    for c in chunks:
        assert data[c.byte_range.start : c.byte_range.end].decode() == c.text
        assert c.context["regions"], "every chunk of a container names its regions"
    _check_regions_whole(parsed, chunks)
    assert any(r.embedded and r.parsed.tree is not None for r in parsed.regions)
    cuts = _embedded_cuts(parsed, chunks, opts)
    unclean = [c for c in cuts if c.kind not in ("stmt", "sibling") and not c.oversized_token]
    assert not unclean, unclean


def test_vue_script_and_style_are_typescript_and_css_with_entities() -> None:
    parsed, opts = _parsed("VPNav.vue")
    kinds = [(r.language, r.label) for r in parsed.regions if r.embedded]
    assert kinds == [("typescript", '<script lang="ts">'), ("css", "<style>")] or [k for k, _ in kinds] == ["typescript", "css"]
    structure = extract_structure(parsed)
    names = {e.name for e in structure.entities}
    assert "useNav" in names or any(i.source and "composables" in i.source for i in structure.imports)
    script = next(r for r in parsed.regions if r.language == "typescript")
    assert structure.scope.scope_at(script.start) is None or structure.scope.scope_at(script.start).start >= script.start
    chunks = chunk_parsed(parsed, ChunkOptions(max_size=60))
    script_chunks = [c for c in chunks if c.context["regions"] == [c.context["regions"][0]]
                     and c.context["regions"][0]["language"] == "typescript"]
    assert script_chunks and all(c.context["language"] == "typescript" for c in script_chunks)
    assert any(c.context["imports"] for c in script_chunks)
    assert all(c.contextualized_text.startswith("// ") for c in script_chunks)  # the header in TypeScript


def test_markdown_python_blocks_get_entities_and_python_headers() -> None:
    parsed, opts = _parsed("fastapi-dependencies.md", max_size=150)
    python = [r for r in parsed.regions if r.language == "python"]
    assert len(python) >= 5
    chunks = chunk_parsed(parsed, opts)
    defined = {e["name"] for c in chunks for e in c.context.get("entities", [])}
    assert {"get_db", "common_parameters"} & defined or len(defined) >= 5
    alone = [c for c in chunks if len(c.context["regions"]) == 1 and c.context["regions"][0]["language"] == "python"]
    assert alone and all(c.contextualized_text.startswith("# ") for c in alone)


def test_markdown_unknown_tag_and_unclosed_fence(check: Callable[..., None]) -> None:
    text = "# T\n\n```coffee\nsquare = (x) -> x * x\n```\n\ntext\n\n```python\ndef f():\n    return 1\n"
    parsed = parse("x.md", text, ChunkOptions())
    coffee, python = [r for r in parsed.regions if r.embedded]
    assert coffee.language is None and "no grammar for 'coffee'" in (coffee.note or "")
    assert python.language == "python" and "unclosed fence" in (python.note or "")
    assert text[python.start : python.end] == "def f():\n    return 1\n"
    chunks = chunk("x.md", text, max_size=10)
    check(text, chunks, max_size=10)
    coffee_chunks = [c for c in chunks if "square" in c.text]
    assert coffee_chunks[0].strategy == "lines" and "coffee" in (coffee_chunks[0].fallback_reason or "")
    # The function holds the chunk of its last line (it ends before the final newline).
    body = next(c for c in chunks if "return 1" in c.text)
    assert [e["name"] for e in body.context["scope"]] == ["f"]


def test_markdown_fences_in_quotes_and_lists_parse_without_their_markers() -> None:
    text = "> ```js\n> function g() { return 1 }\n> ```\n\n- item\n\n  ```ts\n  function h(a: number) {\n    return a\n  }\n  ```\n"
    parsed = parse("x.md", text, ChunkOptions())
    js, ts = [r for r in parsed.regions if r.embedded]
    assert text[js.start : js.end] == "> function g() { return 1 }\n"
    assert js.parsed.parse_error is None and js.parsed.root is not None
    assert js.parsed.root.children[0].type == "function_declaration"
    assert ts.parsed.parse_error is None and text[ts.start : ts.end].startswith("  function h")
    names = {e.name for e in extract_structure(parsed).entities}
    assert {"g", "h"} <= names


@pytest.mark.parametrize("html, language, note", [
    ('<script lang="coffee">\nx = 1\n</script>\n', None, "no grammar for 'coffee'"),
    ('<script type="text/x-template">\n<div/>\n</script>\n', None, "no grammar"),
    ('<script type="application/ld+json">\n{"a": 1}\n</script>\n', "json", None),
    ('<script type="module">\nimport x from "y"\nexport const z = x\n</script>\n', "javascript", None),
    ('<style lang="scss">\n.a { .b { c: d } }\n</style>\n', "scss", None),
    ("<script>\n</script>\n<style></style>\n", "-", None),
    ("<script>\nfunction unterminated() {\n", "?", None),  # no end tag: as the grammar recovers
])
def test_component_scripts_of_every_kind(html: str, language: str | None, note: str | None, check: Callable[..., None]) -> None:
    for name in ("x.vue", "x.svelte", "x.html"):
        parsed = parse(name, html, ChunkOptions())
        embedded = [r for r in parsed.regions if r.embedded]
        if language == "-":
            assert embedded == []  # empty script and style: nothing to parse
        elif language == "?":
            assert [r.language for r in embedded] in ([], ["javascript"])
        else:
            assert [r.language for r in embedded] == [language], name
            assert (embedded[0].note is None) if note is None else note in (embedded[0].note or "")
        chunks = chunk(name, html, max_size=5)
        check(html, chunks, max_size=5)


def test_astro_frontmatter_is_typescript() -> None:
    parsed, _ = _parsed("Icon.astro")
    first = next(r for r in parsed.regions if r.embedded)
    assert first.language == "typescript" and first.label == "--- frontmatter"
    assert any(i.name == "getIconData" or i.source for i in extract_structure(parsed).imports)


def test_tag_language() -> None:
    assert tag_language("python") == "python"
    assert tag_language("py title='x.py'") == "python"
    assert tag_language("{code-cell} ipython3") == "python"
    assert tag_language("{.rust}") == "rust"
    assert tag_language("ts") == "typescript"
    assert tag_language("console") is None
    assert tag_language("") is None
    assert tag_language("x" * 1000) is None


# -- notebooks --------------------------------------------------------------------------------
def _cells_of(name: str) -> list[dict]:  # type: ignore[type-arg]
    return json.loads((EMBEDDED / name).read_text())["cells"]


def _source(cell: dict) -> str:  # type: ignore[type-arg]
    return "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]


@pytest.mark.parametrize("name", NOTEBOOKS)
@pytest.mark.parametrize("max_size", [20, 100, 1500])
def test_notebook_chunks_are_the_cells_sources_in_order(name: str, max_size: int, check: Callable[..., None]) -> None:
    """The lossless guarantee: the chunk texts joined are the cells' sources in order, each
    ended by a line break (one added where the source lacks it); every chunk's cell parts
    slice the cell sources exactly, and together give every source back."""
    cells = _cells_of(name)
    parsed, opts = _parsed(name, max_size=max_size)
    chunks = chunk_parsed(parsed, opts)
    sources = [_source(c) for c in cells]
    expected = "".join(s + ("\n" if s and not s.endswith("\n") else "") for s in sources)
    check(expected, chunks, max_size=max_size)
    rebuilt = [""] * len(cells)
    for c in chunks:
        parts = c.context["cells"]
        assert parts, c.text
        if len(parts) > 1:  # crossing a cell boundary: only whole cells
            for part in parts:
                whole = sources[part["index"]]
                assert (part["charRange"]["start"], part["charRange"]["end"]) == (0, len(whole))
        for part in parts:
            source = sources[part["index"]]
            piece = source[part["charRange"]["start"] : part["charRange"]["end"]]
            assert piece in c.text
            first = source[: part["charRange"]["start"]].count("\n")
            last = first + (piece[:-1] if piece.endswith("\n") else piece).count("\n")  # a final break opens no line
            assert part["lineRange"] == {"start": first, "end": last}
            assert part["kind"] == cells[part["index"]]["cell_type"]
            rebuilt[part["index"]] += piece
    assert rebuilt == sources
    assert not any("\"source\"" in c.text or "output_type" in c.text for c in chunks)


def test_notebook_language_outputs_and_markdown_cells() -> None:
    parsed, _ = _parsed("text_outputs_and_images.ipynb")
    assert parsed.language == "notebook" and parsed.tree is None
    assert parsed.notes and "outputs left out" in parsed.notes[0]
    assert {r.language for r in parsed.regions if r.embedded} == {"python"}
    ts, _ = _parsed("itypescript.ipynb")
    assert {r.language for r in ts.regions if r.embedded} == {"typescript"}
    sample, opts = _parsed("python_notebook_sample.ipynb", max_size=40)
    chunks = chunk_parsed(sample, opts)
    f_chunk = next(c for c in chunks if "def f(x)" in c.text)
    assert any(e["name"] == "f" for e in f_chunk.context["entities"])


def _notebook(cells: list[dict], **metadata: object) -> bytes:  # type: ignore[type-arg]
    return json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": metadata, "cells": cells}).encode()


def test_notebook_markdown_cell_code_blocks_kernel_language_and_raw_cells() -> None:
    data = _notebook([
        {"cell_type": "markdown", "source": "Intro\n```python\ndef inner():\n    return 1\n```\n", "metadata": {}},
        {"cell_type": "code", "source": ["f <- function(x) {\n", "  x + 1\n", "}"], "outputs": [], "metadata": {}},
        {"cell_type": "code", "source": "", "outputs": [], "metadata": {}},
        {"cell_type": "code", "source": "  \n", "outputs": [], "metadata": {}},
        {"cell_type": "raw", "source": "raw text", "metadata": {}},
    ], kernelspec={"language": "R", "name": "ir"})
    parsed = parse("x.ipynb", data, ChunkOptions())
    assert [(r.label, r.language) for r in parsed.regions if r.embedded] == [
        ("cell 0 ```python", "python"), ("cell 1 [code]", "r"), ("cell 3 [code]", "r")]
    assert [c.index for c in parsed.cells] == [0, 1, 2, 3, 4] and parsed.cells[2].start == parsed.cells[2].end
    chunks = chunk_parsed(parsed, ChunkOptions(max_size=8))
    assert "".join(c.text for c in chunks) == parsed.source.text
    raw = next(c for c in chunks if "raw text" in c.text)
    assert raw.strategy == "lines" and "raw cell" in (raw.fallback_reason or "")


@pytest.mark.parametrize("data, reason", [
    (b'{"nbformat": 4, "cells": [', "not valid JSON"),
    (b"", "not valid JSON"),
    (b"[1, 2]", "no cells"),
    (b'{"nbformat": 3, "worksheets": []}', "nbformat 3"),
    (b'{"nbformat": 4, "cells": {}}', "not a list"),
    (b'{"nbformat": 4, "cells": [1]}', "cell 0 is not an object"),
    (b'{"nbformat": 4, "cells": [{"source": ""}]}', "cell 0 has no cell_type"),
    (b'{"nbformat": 4, "cells": [{"cell_type": 3, "source": ""}]}', "cell 0: cell_type 3 is not a string"),
    (b'{"nbformat": 4, "cells": [{"cell_type": "code", "source": [1]}]}', "neither a string"),
    (b"[" * 100000 + b"]" * 100000, "not valid JSON"),
])
def test_malformed_notebooks_are_refused_with_a_reason(data: bytes, reason: str) -> None:
    with pytest.raises(NotebookError, match=reason):
        parse("bad.ipynb", data, ChunkOptions())


def test_a_cell_of_an_unknown_type_is_left_out_and_named_and_the_others_chunked() -> None:
    # nbformat's own forward-compatibility case: a type a later version may add
    data = _notebook([
        {"cell_type": "markdown", "source": "# Title\n", "metadata": {}},
        {"cell_type": "future_type", "source": "not chunked\n", "metadata": {}},
        {"cell_type": "code", "source": "x = 1\n", "outputs": [], "metadata": {}},
        {"cell_type": "heading", "source": "old\n", "metadata": {}, "level": 1},
    ], kernelspec={"language": "python"})
    parsed = parse("future.ipynb", data, ChunkOptions())
    assert parsed.skipped == ("cell 1 (unknown cell_type 'future_type')", "cell 3 (unknown cell_type 'heading')")
    assert parsed.source.text == "# Title\nx = 1\n"
    assert [(c.index, c.kind) for c in parsed.cells] == [(0, "markdown"), (2, "code")]  # the notebook's positions
    chunks = chunk_parsed(parsed, ChunkOptions())
    assert "".join(c.text for c in chunks) == parsed.source.text
    assert [p["index"] for c in chunks for p in c.to_dict()["context"]["cells"]] == [0, 2]


def test_a_notebook_with_a_byte_order_mark_is_read() -> None:
    data = b"\xef\xbb\xbf" + _notebook([{"cell_type": "code", "source": "x = 1\n", "outputs": [], "metadata": {}}])
    parsed = parse("bom.ipynb", data, ChunkOptions())
    assert [c.text for c in chunk_parsed(parsed, ChunkOptions())] == ["x = 1\n"]


def test_truncated_real_notebook_is_refused() -> None:
    data = (EMBEDDED / "text_outputs_and_images.ipynb").read_bytes()
    with pytest.raises(NotebookError, match="line"):
        parse("cut.ipynb", data[: len(data) // 2], ChunkOptions())


def test_megabytes_of_outputs_are_left_out() -> None:
    output = {"output_type": "stream", "name": "stdout", "text": ["x" * 1000 + "\n"] * 5000}
    data = _notebook([
        {"cell_type": "code", "source": "def f():\n    return 1\n", "outputs": [output], "metadata": {}},
    ], kernelspec={"language": "python"})
    assert len(data) > 5_000_000
    parsed = parse("big.ipynb", data, ChunkOptions())
    chunks = chunk_parsed(parsed, ChunkOptions())
    assert [c.text for c in chunks] == ["def f():\n    return 1\n"]
    assert "5000" not in parsed.notes[0] and "1 cell outputs left out" in parsed.notes[0]


def test_notebook_lines_strategy_stays_in_cells() -> None:
    parsed, _ = _parsed("python_notebook_sample.ipynb", strategy="lines")
    chunks = chunk_parsed(parsed, ChunkOptions(strategy="lines", max_size=30))
    assert "".join(c.text for c in chunks) == parsed.source.text
    assert all(c.strategy == "lines" for c in chunks)


def test_languages_lists_notebooks_and_containers() -> None:
    rows = {row["name"]: row for row in languages()}
    assert rows["notebook"]["extensions"] == [".ipynb"]
    assert "fenced code blocks" in rows["markdown"]["contains"]
    assert "<script>" in rows["vue"]["contains"]
    assert detect_language("a/b.IPYNB") == "notebook"


def test_doc_queries_come_from_notebook_cells_and_code_blocks() -> None:
    from explorer.engine.retrieval.evaluate import chunk_for_eval
    from explorer.engine.retrieval.queries import doc_queries

    data = _notebook([
        {"cell_type": "markdown", "metadata": {},
         "source": 'Intro\n```python\ndef inner(a):\n    """Return the answer to the question of life."""\n    return 42\n```\n'},
        {"cell_type": "code", "outputs": [], "metadata": {},
         "source": 'def square(x):\n    """Multiply a number by itself and give back the product."""\n    return x * x'},
    ], kernelspec={"language": "python"})
    opts = ChunkOptions()
    parsed = parse("n.ipynb", data, opts)
    drafts, edits = doc_queries(extract_structure(parsed), min_words=3)
    assert [d.text for d in drafts] == ["Return the answer to the question of life.",
                                        "Multiply a number by itself and give back the product."]
    result = chunk_for_eval((opts,), True, 3, parsed, chunk_parsed(parsed, opts), opts, {})
    indexed = "".join(result.texts[0])
    assert "question of life" not in indexed and "give back the product" not in indexed
    assert "def square(x):\n    ...\n    return x * x" in indexed  # masked, still read as the cells


def test_a_notebook_parsed_again_from_its_document_reads_the_file() -> None:
    from explorer.engine.parse import parse_source

    parsed, _ = _parsed("python_notebook_sample.ipynb")
    again = parse_source(parsed.source, parsed.path, strategy="lines")  # as the explorer re-parses
    assert again.language == "notebook" and again.source.text == parsed.source.text
    assert all(region.parsed.tree is None for region in again.regions)
    forced = parse_source(parsed.source, parsed.path, "json")  # a forced grammar reads the file itself
    assert forced.source.text.startswith("{") and forced.tree is not None


@pytest.mark.parametrize("name, text, code", [
    ("a.md", "# T\r\n\r\n```python\r\ndef f():\r\n    return 1\r\n```\r\ntext\r\n", "def f():\r\n    return 1\r\n"),
    ("b.md", "# T\r\r```python\rdef f():\r    return 1\r```\rtext\r", "def f():\r    return 1\r"),
    ("a.vue", '<template><a/></template>\r<script lang="ts">\rconst a = 1\rfunction g() { return a }\r</script>\r',
     "const a = 1\rfunction g() { return a }\r"),
])
def test_regions_with_crlf_and_lone_cr_line_ends(name: str, text: str, code: str, check: Callable[..., None]) -> None:
    parsed = parse(name, text, ChunkOptions())
    (region,) = [r for r in parsed.regions if r.embedded]
    assert text[region.start : region.end] == code and region.parsed.parse_error is None
    for max_size in (5, 1500):
        check(text, chunk(name, text, max_size=max_size), max_size=max_size)


def test_the_text_after_a_region_is_parsed_without_its_closing_delimiter() -> None:
    """A closing fence alone would open a new code block, and the prose after it would be
    chunked as code; a closing tag alone is a stray end tag."""
    md = parse("x.md", "```python\nx = 1\n```\n\n## Next\n\nSome prose.\n", ChunkOptions())
    after = md.regions[-1]
    assert not after.embedded and after.parsed.root is not None
    assert "atx_heading" in str(after.parsed.root) and "fenced_code_block" not in str(after.parsed.root)
    vue = parse("x.vue", "<script>\nlet a = 1\n</script>\n<template><p/></template>\n", ChunkOptions())
    tail = vue.regions[-1]
    assert tail.parsed.root is not None and not tail.parsed.root.has_error
