"""Doc queries (first sentence, the name removed) and query files."""

from __future__ import annotations

import pytest

from explorer.engine.retrieval import QueryFileError, parse_query_lines
from explorer.engine.retrieval.queries import check_specs, first_sentence, remove_name


@pytest.mark.parametrize(
    ("doc", "sentence"),
    [
        ("Return the sum. Then more.", "Return the sum."),
        ("Parse the file\nline by line. Second.", "Parse the file line by line."),
        ("Open a stream\n\nDetails follow", "Open a stream"),
        ("Formats a date with the locale\n@param d the date\n@returns text", "Formats a date with the locale"),
        ("<summary>\nKeeps stock in <see cref=\"Store\"/> memory.\n</summary>", "Keeps stock in Store memory."),
        ("Version 1.2 is read from setup.cfg files here", "Version 1.2 is read from setup.cfg files here"),
    ],
)
def test_first_sentence(doc, sentence):
    assert first_sentence(doc) == sentence


@pytest.mark.parametrize(
    ("text", "name", "expected"),
    [
        ("Join joins any number of path elements into a single path.", "Join", "joins any number of path elements into a single path."),
        ("Call parse_args() to read the options of parse_args_extra.", "parse_args", "Call to read the options of parse_args_extra."),
        ("Returns `getUserName` for the current user.", "getUserName", "Returns for the current user."),
        ("Join two paths.", "join", "Join two paths."),  # an ordinary word: kept
        ("Send the data now.", "send", "Send the data now."),
    ],
)
def test_remove_name(text, name, expected):
    assert remove_name(text, name) == expected


def test_query_file_lines():
    specs = parse_query_lines(
        '{"query": "open a file", "path": "./src/a.py", "start_line": 3, "end_line": 9}\n'
        "\n"
        '{"query": "close it", "path": "src\\\\b.py", "start_line": 1, "end_line": 1}\n'
    )
    assert [(s.text, s.path, s.start_line, s.end_line, s.line_number) for s in specs] == [
        ("open a file", "src/a.py", 3, 9, 1), ("close it", "src/b.py", 1, 1, 3)]
    assert check_specs(specs, {"src/a.py": 8, "src/b.py": 5}) == ["line 1: src/a.py has 8 lines, not 9"]
    assert check_specs(specs, {"src/a.py": 9}) == ["line 3: no file 'src/b.py' among the files evaluated"]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{nope", "line 1: not JSON"),
        ("[1, 2]", "line 1: expected an object"),
        ('{"query": "", "path": "a", "start_line": 1, "end_line": 1}', '"query" must be'),
        ('{"query": "q", "start_line": 1, "end_line": 1}', '"path" must be'),
        ('{"query": "q", "path": "a", "start_line": 0, "end_line": 1}', '"start_line" must be'),
        ('{"query": "q", "path": "a", "start_line": 1, "end_line": true}', '"end_line" must be'),
        ('{"query": "q", "path": "a", "start_line": 5, "end_line": 2}', "end_line 2 is before start_line 5"),
    ],
)
def test_bad_query_lines_are_named(line, message):
    with pytest.raises(QueryFileError, match=message.replace("[", r"\[")):
        parse_query_lines(line)
