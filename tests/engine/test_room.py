"""A definition that fits the room its chunk really has is never split, one that does not is
reported cut too big with that room, and a definition's header never ends a chunk alone.

The room is ``max_size`` less the header a chunk starting on the definition's line keeps
(``fit="embedded"``: here the path line ``# pkg/cache.py``, 13 non-whitespace characters,
at top level), or ``max_size`` where the limit binds the code only. The expected rooms are
worked out here from those parts, not asked of the engine."""

from __future__ import annotations

import pytest

import explorer
from explorer.engine.api import chunk_parsed, parse
from explorer.engine.measure.problems import cut_too_big, find_problems
from explorer.engine.measure.quality import measure_file
from explorer.engine.options import ChunkOptions

PATH = "pkg/cache.py"
MAX = 300
#: What the path line ``# pkg/cache.py`` measures in nws: a top-level chunk's header under
#: ``fit="embedded"`` keeps at least that.
PATH_LINE_NWS = len("#pkg/cache.py")

HEAD = '''\
import time


def stamp(entries, now=None):
    """Mark every entry with the time it was last seen, oldest first."""
    now = time.monotonic() if now is None else now
    for position, entry in enumerate(sorted(entries, key=lambda e: e.seen)):
        entry.seen = now + position * 0.001
        entry.touched = True
    return entries


'''


def lookup(padding: int) -> str:
    """A top-level function whose size in nws grows one by one with ``padding``."""
    return (
        "def lookup(table, key):\n"
        "    found = table.get(key)\n"
        "    if found is None:\n"
        "        raise KeyError(key)\n"
        f"    return found, {'x' * padding!r}\n"
    )


def nws(text: str) -> int:
    return sum(1 for ch in text if ch not in " \t\n\r\x0b\x0c")


def padded_to(target: int) -> str:
    """``lookup`` padded so that the function measures ``target`` nws."""
    bare = nws(lookup(0))
    return lookup(target - bare)


def chunk_and_check(code: str, options: ChunkOptions) -> tuple[list, object, object]:
    parsed = parse(PATH, code, options)
    chunks = chunk_parsed(parsed, options)
    assert "".join(c.text for c in chunks) == code  # lossless
    limit = options.max_size
    assert all((c.embedded_size if options.fit_embedded else c.size) <= limit for c in chunks)
    return chunks, find_problems(parsed, chunks, options), measure_file(parsed, chunks, options)


def held(chunks: list, code: str, needle: str) -> bool:
    start = code.index(needle)
    end = len(code)
    return any(c.char_range.start <= start and end <= c.char_range.end for c in chunks)


@pytest.mark.parametrize("delta", [-1, 0])
def test_a_definition_within_its_room_is_whole(delta):
    options = ChunkOptions.build(None, max_size=MAX, fit="embedded")
    room = MAX - PATH_LINE_NWS
    code = HEAD + padded_to(room + delta)
    assert nws(code[code.index("def lookup"):]) == room + delta
    chunks, found, metrics = chunk_and_check(code, options)
    assert held(chunks, code, "def lookup")
    assert [p.kind for p in found.problems if p.kind in ("split", "too-big")] == []
    assert metrics.any_split == 0


def test_one_over_its_room_is_cut_too_big_with_the_room_stated():
    """Within max_size but one over the room the path line leaves: cut, and reported as
    too big (not as split) by the problems, the quality measures and the sweep's count."""
    options = ChunkOptions.build(None, max_size=MAX, fit="embedded")
    room = MAX - PATH_LINE_NWS
    code = HEAD + padded_to(room + 1)
    chunks, found, metrics = chunk_and_check(code, options)
    assert not held(chunks, code, "def lookup")
    kinds = {p.kind: p for p in found.problems if p.kind in ("split", "too-big")}
    assert list(kinds) == ["too-big"]
    assert kinds["too-big"].detail == (
        f"function_definition of {room + 1} nws > {room} nws of room (max {MAX} less the header), in 2 chunks"
    )
    assert metrics.any_split == 0 and metrics.any_fit == 1  # stamp fits; lookup does not
    parsed = parse(PATH, code, options)
    assert cut_too_big(parsed, chunks, options) == (1, 2)


def test_the_header_opens_the_chunk_that_holds_the_body():
    """The function cut because too big: its first line goes with its first statement,
    not at the end of the chunk before (where it would fit)."""
    options = ChunkOptions.build(None, max_size=MAX, fit="embedded")
    code = HEAD + padded_to(MAX - PATH_LINE_NWS + 1)
    chunks, _, _ = chunk_and_check(code, options)
    holder = next(c for c in chunks if "def lookup(table, key):" in c.text)
    assert holder.text.startswith("def lookup(table, key):\n    found = table.get(key)\n")
    assert chunks[holder.index - 1].text.endswith("return entries\n\n\n")


def test_in_chars_a_method_needs_its_indentation_and_line_break():
    """Where the limit binds the code (fit text), the room is max_size; an indented method
    needs its lines: indentation and line break count in chars. At that size it is whole,
    one below it is cut too big (its code alone would fit), never "split"."""
    method = (
        "    def get(self, key):\n"
        "        found = self.items.get(key)\n"
        "        return found\n"
    )
    size = len(method)  # its lines, indentation and final line break included
    code = (
        "class Store:\n"
        "    def put(self, key, value):\n"
        "        self.items[key] = value\n"
        "        self.count += 1\n"
        "        return value\n"
        "\n" + method
    )
    for limit in (size, size - 1):
        options = ChunkOptions.build(None, max_size=limit, size_unit="chars")
        chunks, found, metrics = chunk_and_check(code, options)
        kinds = [(p.kind, p.detail) for p in found.problems if p.excerpt == "def get(self, key):"]
        if limit == size:
            assert held(chunks, code, "    def get")
            assert kinds == []
        else:
            assert len(method.strip()) <= limit
            assert not held(chunks, code, "    def get")
            assert kinds == [("too-big", f"function_definition of {size} chars > {limit}, in 2 chunks")]
        assert metrics.any_split == 0


BIG_BODY = "".join(f"        self.slot_{i} = compute_slot({i}, seed)\n" for i in range(40))

#: Definitions too big for one chunk, each after a function that leaves room for its header
#: in the chunk before; the first line of each body is given.
HEADERS = {
    "class": ("class TestResponse(Response):\n", '    """A response with the request it answers."""\n'),
    "decorators": ("@functools.lru_cache(maxsize=None)\n@staticmethod\ndef build(seed):\n",
                   "    table = {}\n"),
    "signature": ("def create(\n    app,\n    path: str = \"/\",\n    **kwargs: t.Any,\n) -> Response:\n",
                  "    environ = build_environ(path, **kwargs)\n"),
}


@pytest.mark.parametrize("fit", ["text", "embedded"])
@pytest.mark.parametrize("name", sorted(HEADERS))
def test_no_chunk_ends_with_a_header_alone(name, fit):
    """Whatever the window before holds (a function of 2 to 15 lines), the chunk holding
    the header's first line holds the body's first line too."""
    header, first = HEADERS[name]
    body = first + "    def setup(self, seed):\n" + BIG_BODY if name == "class" else first + BIG_BODY.replace("self.", "")
    options = ChunkOptions.build(None, max_size=400, fit=fit)
    for lines in range(2, 16):
        code = (
            "import functools\n\n\n"
            "def prepare(entries):\n"
            + "".join(f"    entries.append(make_entry({i}, 'entry-{i}'))\n" for i in range(lines))
            + "    return entries\n\n\n"
            + header + body
        )
        chunks, _, _ = chunk_and_check(code, options)
        holder = next(c for c in chunks if header.splitlines(keepends=True)[0] in c.text)
        assert header + first in holder.text, (lines, [c.text[-80:] for c in chunks])


def test_the_trace_tells_the_header_move_and_replays_to_the_chunks():
    code = HEAD + padded_to(MAX + 1)  # too big: its body fits alone, not after the header
    steps = list(explorer.trace(PATH, code, max_size=MAX))
    actions = [s.action for s in steps]
    assert "keep_header" in actions and "open_body" in actions
    assert explorer.replay(steps) == [c.byte_range for c in explorer.chunk(PATH, code, max_size=MAX)]
    step = steps[actions.index("keep_header")]
    line = code[: code.index("def lookup")].count("\n") + 1
    assert f"header (line {line})" in step.sentence and step.chunk is not None


def test_a_chunk_ending_at_the_final_newline_after_a_class_keeps_its_scope():
    """The class node ends before the file's last line break, which the last chunk holds:
    the class still contains the chunk (its Scope line), and is not listed as partial."""
    code = (
        "class Store:\n"
        '    """Keeps things."""\n\n'
        "    def get(self, key):\n"
        "        value = self.items.get(key)\n"
        "        if value is None:\n"
        "            raise KeyError(key)\n"
        "        return value\n\n"
        "    def put(self, key, value):\n"
        "        self.items[key] = value\n"
        "        return value\n"
    )
    chunks = explorer.chunk("store.py", code, max_size=100)
    last = chunks[-1]
    assert last.text.startswith("    def put") and last.text.endswith("return value\n")
    assert [e.name for e in last.context.scope] == ["Store"]
    assert [(e.name, e.is_partial) for e in last.context.entities] == [("put", False)]
    assert "# Scope: Store\n" in last.contextualized_text


def test_under_fit_embedded_the_overlap_a_chunk_starts_with_comes_out_of_its_room():
    """With overlap lines, a chunk starting on the definition's line embeds the lines before
    it too, framed by ``# ...`` and ``# ---``: the room is max_size less the path line and
    that overlap (here ``return entries``, the last code line of three), so the definition
    one nws over it is cut."""
    options = ChunkOptions.build(None, max_size=MAX, fit="embedded", overlap_lines=3)
    overlap = HEAD[HEAD.rindex("    return entries"):]
    room = MAX - PATH_LINE_NWS - nws("# ..." + overlap + "# ---")
    for delta, whole in ((0, True), (1, False)):
        code = HEAD + padded_to(room + delta)
        chunks, found, _ = chunk_and_check(code, options)
        assert held(chunks, code, "def lookup") is whole
        too_big = [p.detail for p in found.problems if p.kind == "too-big"]
        assert too_big == ([] if whole else [
            f"function_definition of {room + 1} nws > {room} nws of room (max {MAX} less the header), in 2 chunks"])
