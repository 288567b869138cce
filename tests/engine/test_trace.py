"""Trace replay: the steps of ``explorer.trace`` rebuild exactly the chunks of
``explorer.chunk``, on the samples and on real files in several languages, at several
limits; every step is numbered in order and says what happened in a sentence."""

from __future__ import annotations

import glob
import os

import pytest

import explorer
from explorer.engine.trace import ACTIONS
from explorer.samples import list_samples

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "..", "fixtures")


def _real_files() -> list[tuple[str, bytes]]:
    """Real code in several languages, committed so every machine runs the same cases:
    the fixed corpus in tests/fixtures/real (CPython, Git, semver, RxJS; see its
    NOTICE.md) and the structure fixtures (many languages); not the licence notes."""
    paths = sorted(glob.glob(os.path.join(FIXTURES, "real", "*")))
    paths += sorted(glob.glob(os.path.join(FIXTURES, "structure", "*")))
    found = []
    for path in paths:
        if explorer.detect_language(path) is not None and not os.path.basename(path).startswith(("LICENSE", "NOTICE")):
            with open(path, "rb") as handle:
                found.append((os.path.normpath(path), handle.read()))
    return found


REAL_FILES = _real_files()
SAMPLES = [str(s.path) for s in list_samples()]


def check_replay(path: str | None, code: bytes | str, **options) -> list:
    steps = list(explorer.trace(path, code, **options))
    chunks = explorer.chunk(path, code, **options)
    assert explorer.replay(steps) == [c.byte_range for c in chunks], (path, options)
    assert [s.number for s in steps] == list(range(1, len(steps) + 1))
    assert steps[0].action == "parse" and steps[-1].action == "done"
    for step in steps:
        assert step.action in ACTIONS
        assert step.sentence.strip(), f"step {step.number} ({step.action}) has no sentence"
        assert step.limit == options.get("max_size", 1500)
    # The steps that complete a chunk say which one, in order.
    completed = [s.chunk_index for s in steps if s.chunk is not None]
    assert completed == list(range(len(completed)))
    return steps


@pytest.mark.parametrize("max_size", [1500, 400, 60])
@pytest.mark.parametrize("path", SAMPLES, ids=os.path.basename)
def test_replay_equals_chunk_on_samples(path, max_size):
    with open(path, "rb") as handle:
        check_replay(path, handle.read(), max_size=max_size)


def test_real_files_cover_several_languages():
    languages = {explorer.detect_language(path) for path, _ in REAL_FILES}
    assert {"python", "c", "go", "javascript", "typescript"} <= languages
    assert len(REAL_FILES) >= 20


@pytest.mark.parametrize("max_size", [2000, 700, 150])
@pytest.mark.parametrize("path, code", REAL_FILES,
                         ids=[os.path.relpath(p, os.path.dirname(os.path.dirname(p))) for p, _ in REAL_FILES])
def test_replay_equals_chunk_on_real_files(path, code, max_size):
    check_replay(path, code, max_size=max_size)


@pytest.mark.parametrize(
    "options",
    [{"size_unit": "chars", "max_size": 300}, {"size_unit": "lines", "max_size": 12},
     {"strategy": "lines", "max_size": 300}, {"overlap_lines": 3, "max_size": 300}],
    ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()),
)
def test_replay_with_other_options(options):
    for path in SAMPLES[:3]:
        with open(path, "rb") as handle:
            check_replay(path, handle.read(), **options)
    for path, code in REAL_FILES[:2]:
        check_replay(path, code, **options)


@pytest.mark.parametrize(
    "name, code",
    [
        ("empty.py", ""),
        ("blank.py", "\n\n   \n"),
        ("one.py", "x = 1"),
        ("crlf.py", "def f():\r\n    return 1\r\n\r\n" * 40),
        ("broken.py", "def f(:\n    return [1, 2\n" + "x = 1\n" * 80),
        ("notes.unknownext", "plain words on a line\n" * 120),
        ("wide.js", "var a = 1; " + "x" * 900 + "\nconst b = 2;\n"),
        ("mid.js", "f(1); g('" + "y" * 700 + "');\n"),
        ("unicode.py", "s = '" + "é" * 400 + "'\n# ünïcödé\n" * 3),
    ],
)
def test_replay_on_edge_cases(name, code):
    for max_size in (100, 40, 7):
        check_replay(name, code, max_size=max_size)


def test_trace_of_empty_file_has_no_chunks():
    steps = check_replay("empty.py", "", max_size=100)
    assert [s.action for s in steps] == ["parse", "done"]
    assert explorer.replay(steps) == []


def test_sentences_name_the_lines_the_code_shows():
    """A piece's trailing blank lines are not its lines: the sentence names the lines of
    its first and last characters, as the source pane paints it and the AST pane places it."""
    code = "import os\n\n\ndef f():\n    return 1\n\n\n\ndef g():\n    return 2\n"
    steps = list(explorer.trace("a.py", code, max_size=12))
    separate = next(s for s in steps if s.action == "separate")
    assert (separate.piece.start, separate.piece.end) == (12, 37)  # def f() and the three blank lines after it
    assert "`function_definition` (lines 4-5, 14 nws)" in separate.sentence
    blank = next(s for s in steps if s.sentence.startswith("`blank lines`"))
    assert blank.sentence.startswith("`blank lines` (lines 6-8, 0 nws)")
    source = explorer.engine.text.SourceText(code.encode())
    assert source.line_range(12, 37) == (3, 7) and source.shown_line_range(12, 37) == (3, 4)
