"""Embedded regions at their edges, read off the chunks' records: attribute names and
values in any case (as HTML reads them), notebook cells a chunk holds (never the empty
ones it spans)."""

from __future__ import annotations

import json

import pytest

import explorer


def regions(name: str, source: str) -> list[tuple[str, str | None, str | None]]:
    """(label, language, note) of each embedded region, as the chunks' records give them."""
    found = []
    for chunk in explorer.chunk(name, source, max_size=400):
        for region in chunk.to_dict()["context"].get("regions") or []:
            if region["embedded"] and (region["label"], region["language"], region.get("note")) not in found:
                found.append((region["label"], region["language"], region.get("note")))
    return found


SCRIPT = "\nconst total: number = 1\nfunction add(a: string): void { return }\n"


@pytest.mark.parametrize("name", ["page.vue", "page.svelte", "page.html"])
@pytest.mark.parametrize("tag, label, language", [
    ('<script LANG="ts">', '<script lang="ts">', "typescript"),
    ('<script Lang=ts>', '<script lang="ts">', "typescript"),
    ("<script lang='TS'>", '<script lang="TS">', "typescript"),
    ('<script setup LANG="TS">', '<script lang="TS">', "typescript"),
    ('<script TYPE="Module">', '<script type="Module">', "javascript"),
    ('<script type="Application/LD+JSON">', '<script type="Application/LD+JSON">', "json"),
    ('<script>', "<script>", "javascript"),
])
def test_script_attributes_are_read_in_any_case(name: str, tag: str, label: str, language: str) -> None:
    source = f"{tag}{SCRIPT}</script>\n<div></div>\n"
    assert regions(name, source) == [(label, language, None)]


@pytest.mark.parametrize("name", ["page.vue", "page.html"])
def test_style_attributes_are_read_in_any_case(name: str) -> None:
    source = '<div></div>\n<style LANG="SCSS">\n.card { .title { color: red } }\n</style>\n'
    assert regions(name, source) == [('<style lang="SCSS">', "scss", None)]


def test_an_unknown_language_in_capitals_is_named_as_written() -> None:
    source = '<script LANG="Coffee">\nsquare = (x) -> x * x\n</script>\n'
    assert regions("page.vue", source) == [('<script lang="Coffee">', None, "no grammar for 'Coffee': chunked by lines")]


def test_a_template_script_in_capitals_is_not_code() -> None:
    source = '<script TYPE="TEXT/X-TEMPLATE">\n<div>{{ name }}</div>\n</script>\n'
    label, language, note = regions("page.html", source)[0]
    assert (label, language) == ('<script type="TEXT/X-TEMPLATE">', None) and note and "chunked by lines" in note


# -- notebook cells ----------------------------------------------------------------------------
def notebook(cells: list[tuple[str, str]]) -> str:
    return json.dumps({
        "nbformat": 4, "nbformat_minor": 5,
        "metadata": {"kernelspec": {"language": "python", "name": "python3"}},
        "cells": [{"cell_type": kind, "source": source, "metadata": {},
                   **({"outputs": [], "execution_count": None} if kind == "code" else {})}
                  for kind, source in cells],
    })


def test_a_chunk_lists_the_cells_it_holds_and_not_the_empty_ones_between() -> None:
    source = notebook([("code", "x = 1\n"), ("code", ""), ("markdown", ""),
                       ("code", "def f():\n    return x\n"), ("raw", ""), ("code", "y = 2")])
    chunks = explorer.chunk("analysis.ipynb", source, max_size=400)
    assert len(chunks) == 1
    cells = chunks[0].to_dict()["context"]["cells"]
    assert [(c["index"], c["kind"]) for c in cells] == [(0, "code"), (3, "code"), (5, "code")]
    assert [(c["lineRange"], c["charRange"]) for c in cells] == [
        ({"start": 0, "end": 0}, {"start": 0, "end": 6}),
        ({"start": 0, "end": 1}, {"start": 0, "end": 22}),
        ({"start": 0, "end": 0}, {"start": 0, "end": 5}),  # no line break in the source: none counted
    ]


def test_empty_cells_at_the_start_and_the_end_are_listed_by_no_chunk() -> None:
    source = notebook([("markdown", ""), ("code", "import os\n"), ("code", "print(os.sep)\n"), ("code", "")])
    chunks = explorer.chunk("analysis.ipynb", source, max_size=400)
    listed = [c["index"] for chunk in chunks for c in chunk.to_dict()["context"]["cells"]]
    assert listed == [1, 2]


def test_a_blank_cell_holds_text_and_is_listed() -> None:
    # a cell of only a line break is not empty: its byte is in the chunk
    source = notebook([("code", "a = 1\n"), ("code", "\n"), ("code", "b = 2\n")])
    chunks = explorer.chunk("analysis.ipynb", source, max_size=400)
    listed = [c["index"] for chunk in chunks for c in chunk.to_dict()["context"]["cells"]]
    assert listed == [0, 1, 2]


def test_a_cell_without_a_source_is_an_empty_cell() -> None:
    from explorer.engine.containers.notebook import read_notebook

    data = json.loads(notebook([("code", "x = 1\n"), ("markdown", "# Notes\n")]))
    del data["cells"][1]["source"]
    cells = read_notebook(json.dumps(data).encode()).cells
    assert [(c.index, c.kind, c.source) for c in cells] == [(0, "code", "x = 1\n"), (1, "markdown", "")]


@pytest.mark.parametrize("path, message", [
    (None, "not a readable notebook (cell 0: cell_type 7 is not a string)"),
    ("a.ipynb", "a.ipynb: not a readable notebook (cell 0: cell_type 7 is not a string)"),
])
def test_an_unreadable_notebook_is_named_when_it_has_a_path(path: str | None, message: str) -> None:
    from explorer.engine.containers.notebook import NotebookError, read_notebook

    with pytest.raises(NotebookError) as caught:
        read_notebook(notebook([(7, "select 1")]).encode(), path)  # type: ignore[list-item]
    assert str(caught.value) == message


def test_a_container_is_described_by_what_it_holds() -> None:
    from explorer.engine.api import parse
    from explorer.engine.options import ChunkOptions
    from explorer.engine.regions import describe_regions

    book = parse("a.ipynb", notebook([("code", "x = 1\n"), ("markdown", "# Hi\n"), ("code", "y = 2\n")]).encode(),
                 ChunkOptions())
    assert describe_regions(book) == "3 cells (python 2); outputs left out"  # the code cells by language
    assert describe_regions(parse("a.py", b"x = 1\n", ChunkOptions())) == ""
    doc = b"# T\n\n```python\nx = 1\n```\n\n```bash\nls\n```\n\n```python\ny = 2\n```\n"
    assert describe_regions(parse("a.md", doc, ChunkOptions())) == "3 embedded regions: python 2, bash 1"
    one = b"# T\n\n```sh\nls\n```\n"
    assert describe_regions(parse("a.md", one, ChunkOptions())) == "1 embedded region: bash 1"


def test_one_chunk_over_two_scripts_lists_a_shared_import_once_and_each_region_by_its_lines() -> None:
    source = ('<template><div></div></template>\n<script>\nimport { ref } from "vue"\nconst a = ref(1)\n</script>\n'
              '<script setup>\nimport { ref } from "vue"\nconst b = ref(2)\n</script>\n')
    chunks = explorer.chunk("page.vue", source, max_size=2000)
    assert len(chunks) == 1
    context = chunks[0].to_dict()["context"]
    assert context["imports"] == [{"name": "ref", "source": "vue"}]
    assert [(r["label"], r["lineRange"]["start"], r["lineRange"]["end"]) for r in context["regions"]] == [
        ("vue", 0, 1), ("<script>", 2, 3), ("vue", 4, 5), ("<script>", 6, 7), ("vue", 8, 8)]
def test_the_opening_fence_starts_the_chunk_of_its_code():
    from explorer import chunk

    readme = "# Demo\n\nCall it like this:\n\n```python\ndef greet(name):\n    return 'hi ' + name\n```\n"
    texts = [c.text for c in chunk("README.md", readme, max_size=45)]
    assert texts == ["# Demo\n\nCall it like this:\n\n", "```python\ndef greet(name):\n    return 'hi ' + name\n```\n"]
    # where the fence would push the code's chunk past the limit, it stays before
    tight = [c.text for c in chunk("README.md", readme, max_size=40)]
    assert tight[0].endswith("```python\n") and "".join(tight) == readme


def test_a_heading_above_a_code_block_opens_the_chunk_of_its_code():
    from explorer import chunk

    readme = ("# Demo\n\nSome words about the demo here.\n\n## Usage\n\n```python\n"
              "def greet(name):\n    return 'hi ' + name\n```\n")
    texts = [c.text for c in chunk("README.md", readme, max_size=50)]
    assert texts[0] == "# Demo\n\nSome words about the demo here.\n\n"
    assert texts[1].startswith("## Usage\n\n```python\ndef greet") and "".join(texts) == readme
