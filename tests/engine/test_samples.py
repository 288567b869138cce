"""The shipped samples: they exist for every promised language, parse cleanly, chunk
exactly, and at the teaching sizes show every case they claim, as trace steps."""

from __future__ import annotations

import pytest

import explorer
from explorer.engine.api import parse
from explorer.engine.options import ChunkOptions
from explorer.samples import CASES, get_sample, list_samples, samples_dir

SAMPLES = list_samples()
TEACHING_SIZES = (1500, 500)  # the default limit and a small one


def _nodes_of_kind(root, kind):
    found, stack = [], [root]
    while stack:  # no recursion over trees
        node = stack.pop()
        if node.type == kind:
            found.append(node)
        stack.extend(node.children)
    return found


def _contains(outer, start, end):
    return outer.start <= start and end <= outer.end


@pytest.fixture(scope="module")
def parsed_samples():
    return {s.name: parse(str(s.path), s.read_bytes(), ChunkOptions()) for s in SAMPLES}


def test_every_promised_language_has_a_sample():
    languages = {s.language for s in SAMPLES}
    assert {"python", "typescript", "javascript", "rust", "go", "java", "c", "cpp"} <= languages
    for sample in SAMPLES:
        assert sample.path.is_file(), sample.path
        assert sample.path.parent == samples_dir()
        assert explorer.detect_language(str(sample.path)) == sample.language
        assert set(sample.cases) == set(CASES)
        assert sample.description.strip()


def test_get_sample_by_language_or_name():
    assert get_sample("rust").name == "inventory.rs"
    assert get_sample("Inventory.java").language == "java"
    with pytest.raises(KeyError, match="samples exist for"):
        get_sample("cobol")


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda s: s.name)
def test_sample_parses_without_errors(sample, parsed_samples):
    parsed = parsed_samples[sample.name]
    assert parsed.language == sample.language
    assert parsed.tree is not None and parsed.parse_error is None
    for kind in sample.cases.values():
        assert _nodes_of_kind(parsed.root, kind), f"{sample.name} has no {kind} node"


@pytest.mark.parametrize("max_size", [1500, 500, 120, 20])
@pytest.mark.parametrize("sample", SAMPLES, ids=lambda s: s.name)
def test_sample_chunks_exactly(sample, max_size):
    code = sample.read_bytes()
    chunks = explorer.chunk(str(sample.path), code, max_size=max_size)
    assert "".join(c.text for c in chunks).encode() == code
    assert all(c.size <= max_size for c in chunks)


@pytest.mark.parametrize("max_size", TEACHING_SIZES)
@pytest.mark.parametrize("sample", SAMPLES, ids=lambda s: s.name)
def test_sample_shows_every_case(sample, max_size, parsed_samples):
    path, code = str(sample.path), sample.read_bytes()
    steps = list(explorer.trace(path, code, max_size=max_size))
    chunks = explorer.chunk(path, code, max_size=max_size)
    root = parsed_samples[sample.name].root
    kinds = sample.cases

    # A huge comment: cut at line boundaries, inside the comment token.
    comments = [n for n in _nodes_of_kind(root, kinds["huge_comment"]) if n.end_byte - n.start_byte > max_size]
    line_splits = [s for s in steps if s.action == "split_lines"]
    assert any(_contains(s.piece, n.start_byte, n.end_byte) or _contains(_range(n), s.piece.start, s.piece.end)
               for s in line_splits for n in comments), "no line split in the huge comment"
    assert any("line" in (c.split_start, c.split_end) for c in chunks)

    # A minified line: cut at characters, on the line of the one-line string.
    blobs = [n for n in _nodes_of_kind(root, kinds["minified_line"])
             if n.start_point[0] == n.end_point[0] and n.end_byte - n.start_byte > max_size]
    char_splits = [s for s in steps if s.action == "split_chars"]
    assert blobs and any(s.piece.start < n.end_byte and n.start_byte < s.piece.end
                         for s in char_splits for n in blobs), "no character split in the minified line"
    assert any("char" in (c.split_start, c.split_end) for c in chunks)

    # A small class: one piece holds it whole (it is added to a window or opens one).
    first_class = _nodes_of_kind(root, kinds["small_class"])
    first_class = min(first_class, key=lambda n: n.start_byte)
    assert any(s.action in ("open", "add") and _contains(s.piece, first_class.start_byte, first_class.end_byte)
               for s in steps), "the small class is not kept whole"
    assert any(_contains(c.byte_range, first_class.start_byte, first_class.end_byte) for c in chunks)

    # A comment (or attribute) kept with the definition below it.
    assert any(s.action == "keep_together" and kinds["kept_together"] in s.node_types[:-1] for s in steps)

    # An oversized function: descended into.
    # (on its own, or with the tokens around it: `export`, the `}` closing the namespace it ends)
    functions = [n for n in _nodes_of_kind(root, kinds["oversized_function"]) if n.end_byte - n.start_byte > max_size]
    assert any(s.action == "descend" and _contains(s.piece, f.start_byte, f.end_byte)
               and any(f.start_byte < part.start < f.end_byte for part in s.parts)
               for s in steps for f in functions), "no descent into the oversized function"


def _range(node):
    return explorer.Range(node.start_byte, node.end_byte)
