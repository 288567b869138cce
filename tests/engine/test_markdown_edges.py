"""Markdown fences at their edges: only an unclosed fence is said to be unclosed, a closed
block of a known language has no note at all, and a fence whose tag is only spaces is
prose (no region), like one without a tag."""

from __future__ import annotations

from explorer.engine.api import parse
from explorer.engine.options import ChunkOptions


def embedded(text: str) -> list:
    return [r for r in parse("x.md", text, ChunkOptions()).regions if r.embedded]


def test_only_an_unclosed_fence_is_noted_as_unclosed() -> None:
    closed = embedded("# T\n\n```python\ndef f():\n    return 1\n```\n\nAfter.\n")
    assert [(r.language, r.label, r.note) for r in closed] == [("python", "```python", None)]
    unknown = embedded("```coffee\nsquare = (x) -> x * x\n```\n")
    assert [r.note for r in unknown] == ["no grammar for 'coffee': chunked by lines"]
    both = embedded("```coffee\nsquare = (x) -> x * x\n")
    assert [r.note for r in both] == [
        "unclosed fence: the block runs to the end of its container, as CommonMark reads it; "
        "no grammar for 'coffee': chunked by lines"]
    # A tilde fence closes as a backtick one does.
    tilde = embedded("~~~python\nx = 1\n~~~\n")
    assert [r.note for r in tilde] == [None]


def test_a_tag_of_spaces_or_extra_words_names_the_first_word() -> None:
    assert embedded("```   \nx = 1\n```\n") == []
    assert [(r.language, r.label) for r in embedded("``` python extra words\nx = 1\n```\n")] == [
        ("python", "```python")]
