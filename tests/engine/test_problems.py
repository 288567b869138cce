"""Chunking problems on hand-cut chunkings (byte ranges chosen here, not by the chunker)."""

from __future__ import annotations

import json

from explorer.engine.api import chunk_parsed, iter_chunks
from explorer.engine.chunker import Span
from explorer.engine.measure.problems import (
    PROBLEM_KINDS,
    cut_too_big,
    embedded_size,
    find_problems,
    problem_kinds,
    problems_by_chunk,
)
from explorer.engine.options import ChunkOptions
from explorer.engine.parse import parse_source
from explorer.engine.text import SourceText

CODE = '''\
import os

TABLE = {
    "a": 1,
    "b": 2,
}


class Mixin(Base):
    """Makes things immutable: every method raises, so nobody changes it by accident."""

    def one(self, value):
        total = value + 1
        return total

    def two(self, value):
        # trailing comment =
        return compute(value, 2)
'''


def cut(code: str, *needles: str) -> list[Span]:
    """Chunks tiling ``code``, cut just before each needle (ASCII sources)."""
    offsets = [0, *(code.index(n) for n in needles), len(code.encode())]
    return [Span(a, b, None, None) for a, b in zip(offsets, offsets[1:])]


def problems_of(code: str, spans: list[Span], **options):
    opts = ChunkOptions(**{"context_mode": "none", **options})
    parsed = parse_source(SourceText(code), "x.py")
    chunks = list(iter_chunks(parsed, opts, spans=spans, total=len(spans)))
    return find_problems(parsed, chunks, opts), chunks


def kinds(found, kind: str) -> list:
    return [p for p in found.problems if p.kind == kind]


def test_dangling_opener_and_closer_are_found_on_the_syntax_tree():
    # Cut after `TABLE =` (the dict opens in the next chunk) and just before the closing `}`.
    found, chunks = problems_of(CODE, cut(CODE, "{\n", '}\n\n\nclass'), max_size=1000)
    dangling = kinds(found, "dangling")
    # The middle chunk ends on the dict's trailing comma: the dict goes on in the next one.
    assert [(p.chunk, CODE[p.start:p.end]) for p in dangling] == [(0, "="), (1, ",")]
    assert dangling[0].line == 2 and "next chunk starts `{`" in dangling[0].detail
    closer = kinds(found, "closer")
    assert [(p.chunk, CODE[p.start:p.end]) for p in closer] == [(2, "}")]


def test_a_class_header_alone_is_tiny_and_dangling():
    found, _ = problems_of(CODE, cut(CODE, "class Mixin", '    """Makes'), max_size=1000)
    tiny = kinds(found, "tiny")
    # The import and the table are under 50 non-whitespace characters too.
    assert [p.chunk for p in tiny] == [0, 1] and tiny[1].excerpt == "class Mixin(Base):"
    assert [(p.chunk, CODE[p.start:p.end]) for p in kinds(found, "dangling")] == [(1, ":")]
    # The class fits in 1000: it is split though it fits (the chunker never does this).
    split = kinds(found, "split")
    assert [(p.chunk, p.line) for p in split] == [(1, 8)] and "fits" in split[0].detail


def test_an_opener_inside_a_comment_or_string_is_not_a_problem():
    # The first chunk ends on the comment "# trailing comment =": a comment, not an `=` token.
    found, _ = problems_of(CODE, cut(CODE, "        return compute"), max_size=1000)
    assert not kinds(found, "dangling") and not kinds(found, "closer")


def test_definitions_larger_than_the_limit_are_cut_because_too_big():
    opts = ChunkOptions(max_size=60, context_mode="none")
    parsed = parse_source(SourceText(CODE), "x.py")
    chunks = chunk_parsed(parsed, opts)
    found = find_problems(parsed, chunks, opts)
    too_big = kinds(found, "too-big")
    assert [p.excerpt for p in too_big] == ["class Mixin(Base):"]
    assert "class_definition of" in too_big[0].detail and "> 60" in too_big[0].detail
    assert cut_too_big(parsed, chunks, ChunkOptions(max_size=60)) == (1, found.definitions) and found.definitions == 3
    assert not kinds(found, "split")  # the chunker keeps every definition that fits whole


def test_embedded_size_counts_the_context_and_flags_it_over_the_limit():
    opts = ChunkOptions(max_size=80, context_mode="full", overlap_lines=2)
    parsed = parse_source(SourceText(CODE), "x.py")
    chunks = chunk_parsed(parsed, opts)
    for chunk in chunks:
        assert embedded_size(chunk) == SourceText(chunk.contextualized_text).nws()
        assert embedded_size(chunk) >= chunk.size
    over = {c.index for c in chunks if embedded_size(c) > 80}
    largest = max(embedded_size(c) for c in chunks)
    # The limit binds the code only (fit auto in nws): a header past it is counted, not flagged.
    found = find_problems(parsed, chunks, opts)
    assert not kinds(found, "embedded") and "embedded" not in problem_kinds(opts)
    assert (found.embedded_over, found.embedded_largest) == (len(over), largest) and over
    # Judged where the limit binds the embedded text, the same chunks are flagged, each once.
    binding = ChunkOptions(max_size=80, context_mode="full", overlap_lines=2, fit="embedded")
    assert "embedded" in problem_kinds(binding)
    assert {p.chunk for p in kinds(find_problems(parsed, chunks, binding), "embedded")} == over


def test_embedded_over_is_counted_past_the_limit_only():
    opts = ChunkOptions(max_size=80, context_mode="full", overlap_lines=2)
    parsed = parse_source(SourceText(CODE), "x.py")
    chunks = chunk_parsed(parsed, opts)
    largest = max(embedded_size(c) for c in chunks)
    at_largest = sum(1 for c in chunks if embedded_size(c) == largest)
    for limit, over in ((largest, 0), (largest + 1, 0), (largest - 1, at_largest)):
        judged = ChunkOptions(max_size=limit, context_mode="full", overlap_lines=2, fit="embedded")
        found = find_problems(parsed, chunks, judged)
        assert found.embedded_over == len(kinds(found, "embedded")) == over
        assert found.embedded_largest == (largest if over else 0)


def test_forced_cuts_and_per_chunk_grouping():
    long_line = 'x = "' + "a" * 300 + '"\n'  # one string token over the limit: cut inside it
    opts = ChunkOptions(max_size=100, context_mode="none")
    parsed = parse_source(SourceText(long_line), "x.py")
    chunks = chunk_parsed(parsed, opts)
    found = find_problems(parsed, chunks, opts)
    forced = kinds(found, "forced")
    assert len(forced) == sum((c.split_start is not None) + (c.split_end is not None) for c in chunks) > 0
    per = problems_by_chunk(found)
    assert len(per) == len(chunks)
    assert sorted((p for group in per for p in group), key=id) == sorted(found.problems, key=id)


def test_counts_score_json_and_a_file_without_a_tree():
    found, _ = problems_of(CODE, cut(CODE, "class Mixin", '    """Makes'), max_size=1000)
    counts = found.counts()
    assert list(counts) == list(PROBLEM_KINDS) and counts["tiny"] == 2
    assert found.score == 5 + 3 + 2 * 1  # split + dangling + two tiny
    record = json.loads(json.dumps(found.to_dict()))
    assert record["problems"]["dangling"] == 1 and record["list"][0]["byteRange"]["start"] >= 0
    plain = parse_source(SourceText("a =\n(\n"), "notes.txt")
    opts = ChunkOptions(max_size=1000)
    assert find_problems(plain, chunk_parsed(plain, opts), opts).definitions == 0


PROSE = '''\
# Notes

The release fixes three bugs.
It also adds:

- a faster reader,
- a new option,

Configure it in Python:

```python
TABLE = {
    "a": 1,
}
```

Then run it (see above).
'''


def prose_problems(text: str, path: str, *needles: str):
    opts = ChunkOptions(context_mode="none")
    parsed = parse_source(SourceText(text), path)
    spans = cut(text, *needles)
    chunks = list(iter_chunks(parsed, opts, spans=spans, total=len(spans)))
    return find_problems(parsed, chunks, opts)


def test_prose_edges_are_not_dangling_nor_closers():
    # chunks ending a sentence, a list item and a colon before a list; one starting with `)`
    found = prose_problems(PROSE, "notes.md", "It also", "- a new", "Configure", "```python", "above).")
    assert not kinds(found, "dangling") and not kinds(found, "closer")


def test_embedded_code_in_markdown_is_still_judged_in_its_own_language():
    found = prose_problems(PROSE, "notes.md", "It also", '    "a"', "}\n```")
    assert [(PROSE[p.start:p.end], p.line) for p in kinds(found, "dangling")] == [("{", 11), (",", 12)]
    assert [PROSE[p.start:p.end] for p in kinds(found, "closer")] == ["}"]

