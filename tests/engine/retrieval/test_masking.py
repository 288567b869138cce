"""Masking docs out of a file and mapping offsets through it, exactly (CRLF, tabs, non-ASCII)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from explorer.engine.api import parse
from explorer.engine.options import ChunkOptions
from explorer.engine.retrieval import Edit, mask, prepare
from explorer.engine.retrieval.queries import doc_queries
from explorer.engine.structure import extract_structure


def test_offsets_map_both_ways():
    data = b"0123456789"
    masked = mask(data, [Edit(2, 5, b"..."), Edit(7, 9, b"")])  # "01...56" + "9"
    assert masked.masked == b"01...569"
    assert [masked.to_masked(i) for i in range(11)] == [0, 1, 2, 2, 2, 5, 6, 7, 7, 7, 8]
    assert masked.to_original(2) == 2 and masked.to_original(5) == 5
    assert masked.to_original(3) == 2 and masked.to_original(3, end=True) == 5
    assert masked.to_original(7) == 9  # a start at a deletion point comes after the deleted bytes
    assert masked.to_original(7, end=True) == 7  # an end there stops before them
    assert masked.to_original(8) == 10


@given(st.binary(max_size=60), st.lists(st.tuples(st.integers(0, 60), st.integers(0, 8), st.binary(max_size=4)),
                                         max_size=6))
def test_unedited_offsets_round_trip(data, raw_edits):
    edits = [Edit(min(s, len(data)), min(s + n, len(data)), r) for s, n, r in raw_edits]
    masked = mask(data, edits)
    kept = masked.edits
    for offset in range(len(data) + 1):
        inside = any(e.start < offset < e.end for e in kept) or any(e.start == offset for e in kept)
        if not inside:
            moved = masked.to_masked(offset)
            assert masked.to_original(moved) == offset
            # the bytes after the offset up to the next edit are the same in both
            nxt = min((e.start for e in kept if e.start >= offset), default=len(data))
            assert masked.masked[moved : moved + nxt - offset] == data[offset:nxt]


PY_CRLF = (
    'import os\r\n'
    '\r\n'
    'class Résumé:\r\n'
    '\t"""Représente un résumé: nom, date et texte — 日本語 inclus pour voir."""\r\n'
    '\r\n'
    '\tdef rendre(self, largeur):\r\n'
    '\t\t"""Rend le texte du résumé en colonnes de la largeur donnée, ligne par ligne."""\r\n'
    '\t\treturn "é" * largeur\r\n'
    '\r\n'
    '\r\n'
    'def autre():\r\n'
    '\treturn 1\r\n'
)

JS_CRLF = (
    'const a = "ü";\r\n'
    '\r\n'
    '/**\r\n'
    ' * Joins the given café names with tabs\tand returns them as one line.\r\n'
    ' * @param {string[]} names the names\r\n'
    ' */\r\n'
    'function joinNames(names) {\r\n'
    '\treturn names.join("\\t");\r\n'
    '}\r\n'
)


def _masked_queries(name: str, text: str):
    data = text.encode()
    parsed = parse(name, data, ChunkOptions())
    drafts, edits = doc_queries(extract_structure(parsed))
    return data, drafts, mask(data, edits)


def test_python_docstrings_become_ellipsis_with_crlf_tabs_and_non_ascii():
    data, drafts, masked = _masked_queries("r.py", PY_CRLF)
    assert [d.name for d in drafts] == ["Résumé", "rendre"]
    assert masked.masked.decode() == PY_CRLF.replace(
        '"""Représente un résumé: nom, date et texte — 日本語 inclus pour voir."""', "...").replace(
        '"""Rend le texte du résumé en colonnes de la largeur donnée, ligne par ligne."""', "...")
    method = drafts[1]
    start, end = masked.to_masked(method.start), masked.to_masked(method.end)
    assert masked.masked[start:end].decode() == (
        'def rendre(self, largeur):\r\n\t\t...\r\n\t\treturn "é" * largeur')
    assert masked.to_original(start) == method.start and masked.to_original(end, end=True) == method.end


def test_comment_docs_are_deleted_whole_lines_with_crlf():
    data, drafts, masked = _masked_queries("j.js", JS_CRLF)
    assert [d.text for d in drafts] == ["Joins the given café names with tabs and returns them as one line."]
    assert masked.masked.decode() == JS_CRLF.replace(
        '/**\r\n * Joins the given café names with tabs\tand returns them as one line.\r\n'
        ' * @param {string[]} names the names\r\n */\r\n', "")
    d = drafts[0]
    start, end = masked.to_masked(d.start), masked.to_masked(d.end)
    assert masked.masked[start:end].decode().startswith("function joinNames(names) {\r\n\treturn")


def test_prepared_queries_and_chunks_map_back_to_the_original_lines():
    files = [("r.py", PY_CRLF.encode()), ("j.js", JS_CRLF.encode())]
    prepared = prepare(files, [ChunkOptions(max_size=40)], jobs=1)
    by_name = {q.name: q for q in prepared.queries}
    assert (by_name["rendre"].line_start, by_name["rendre"].line_end) == (5, 7)
    assert (by_name["joinNames"].line_start, by_name["joinNames"].line_end) == (6, 8)
    original = dict(files)
    for query in prepared.queries:
        assert original[query.path][query.start : query.end].decode().lstrip().startswith(("class", "def", "function"))
    # every chunk's span, mapped back, is the original slice that masks to exactly the chunk's bytes
    for corpus_file in prepared.files:
        text, masked = corpus_file.original_text, corpus_file.masked
        for start, end, _ in corpus_file.chunks.spans[0]:
            o_start, o_end = masked.to_original(start), masked.to_original(end, end=True)
            inside = [Edit(e.start - o_start, e.end - o_start, e.replacement) for e in masked.edits
                      if o_start <= e.start and e.end <= o_end]
            assert mask(masked.original[o_start:o_end], inside).masked == masked.masked[start:end]
            assert text.is_char_boundary(o_start) and text.is_char_boundary(o_end)
