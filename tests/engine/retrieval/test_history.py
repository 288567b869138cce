"""The history's rules as pure functions: messages, screening, the definitions a change
touched, messages that name their target; and queries with several targets scored by the
evaluation (a hit on any target, recall at the budget over all of them)."""

from __future__ import annotations

import numpy as np
import pytest

from explorer.engine.api import parse
from explorer.engine.options import ChunkOptions
from explorer.engine.retrieval import evaluate_prepared, prepare
from explorer.engine.retrieval.bm25 import BM25Retriever
from explorer.engine.retrieval.evaluate import with_isolated_targets, with_shuffled_targets
from explorer.engine.retrieval.history import (
    BOT,
    FORMATTING,
    GENERATED,
    GONE,
    MERGE,
    NO_CODE,
    RELEASE,
    RENAMES,
    REVERT,
    SHORT,
    TESTS_ONLY,
    TOO_MANY_FILES,
    Commit,
    CommitQuery,
    FileChange,
    HistoryFunnel,
    HistoryRules,
    definitions_of,
    is_generated_path,
    is_release,
    is_test_path,
    message_text,
    names_target,
    screen,
    subject_of,
    touched,
    word_count,
)
from explorer.engine.structure import extract_structure


# -- messages -----------------------------------------------------------------------------------
@pytest.mark.parametrize(("message", "text"), [
    ("Land the progress bar on its final position (#3771)", "Land the progress bar on its final position"),
    ("Strip ANSI from `confirm()` (fixes #12, #13)\n\nThe body.\nSigned-off-by: A <a@b.c>",
     "Strip ANSI from `confirm()`. The body."),
    ("Merge pull request #12 from a/b\n\nFix the pool", "Fix the pool"),
    ("Add a retry [skip ci]\n\n- [x] tests added\n<!-- template -->\nFixes #4, see https://x.y/4",
     "Add a retry"),
    ("Keep owner/repo#9 and GH-12 out of it", "Keep and out of it"),
    ("Support C# 12 and a &#12; entity", "Support C# 12 and a &#12; entity"),  # not references
])
def test_a_message_becomes_its_words_without_references(message: str, text: str):
    assert message_text(message) == text


def test_the_subject_is_the_first_line_without_references():
    assert subject_of("\n\nFix the pool (#12)\n\nbody") == "Fix the pool"
    assert word_count("Fix #12 in 3.2.1 now") == 3  # numbers are not words


@pytest.mark.parametrize(("subject", "release"), [
    ("Release version 8.4.2", True), ("Bump version to 8.1.0.dev", True), ("8.1.3", True), ("v2.0.0", True),
    ("Prepare 3.0 release", True), ("Support Python 3.12", False), ("Fix the 2.0 regression in parsing", False),
])
def test_releases_are_a_version_with_a_release_word(subject: str, release: bool):
    assert is_release(subject) is release


def test_paths_of_tests_and_generated_code():
    for path in ("tests/test_a.py", "src/a_test.go", "web/a.test.ts", "web/a.spec.js", "conftest.py",
                 "src/test/java/FooTest.java", "pkg/__tests__/x.js"):
        assert is_test_path(path), path
    for path in ("src/testing_tools_not.py", "src/contest.py", "src/a.py", "lib/attest.ts"):
        assert not is_test_path(path), path
    for path in ("api/x_pb2.py", "vendor/lib/a.go", "static/app.min.js", "third_party/x.c", "gen/x.pb.go"):
        assert is_generated_path(path), path
    assert not is_generated_path("src/generator.py")


# -- screening -----------------------------------------------------------------------------------
EVALUATED = {"src/a.py", "src/b.py", "src/c.py", "src/d.py", "src/e.py", "src/f.py", "tests/test_a.py",
             "README.md", "vendor/v.py"}


def change(path: str, *, added: tuple[tuple[int, int], ...] = ((3, 4),), **fields) -> FileChange:
    return FileChange(path, added=added, blob="0" * 40, **fields)


def commit(message: str = "Handle the pool timeout when it is exhausted", *changes: FileChange, **fields) -> Commit:
    return Commit("a" * 40, message, changes=changes or (change("src/a.py"),), **fields)


@pytest.mark.parametrize(("made", "reason"), [
    (commit(parents=("p", "q")), MERGE),
    (commit("Merge branch 'x' into main"), MERGE),
    (commit(author="dependabot[bot]"), BOT),
    (commit(email="41898282+github-actions[bot]@users.noreply.github.com"), BOT),
    (commit('Revert "Handle the pool"'), REVERT),
    (commit("Release 2.0.0"), RELEASE),
    (commit("Fix typo"), SHORT),
    (commit("Fix it (#123) #124"), SHORT),
    (commit("Describe the pool in the readme", change("README.md")), NO_CODE),
    (commit("Change code outside the evaluated tree", change("elsewhere/x.py")), NO_CODE),
    (commit("Move the pool to its module", change("src/a.py", added=(), status="renamed", old_path="src/z.py")),
     RENAMES),
    (commit("Reformat the pool module for style", change("src/a.py", whitespace_only=True)), FORMATTING),
    (commit("Update the vendored pool library", change("vendor/v.py")), GENERATED),
    (commit("Check the pool in a new test", change("tests/test_a.py")), TESTS_ONLY),
    (commit("Touch every module for the audit", *(change(f"src/{m}.py") for m in "abcdef")), TOO_MANY_FILES),
    (commit("Handle the pool timeout when it is exhausted", change("src/a.py"), change("tests/test_a.py")), None),
])
def test_screening_names_the_first_reason(made: Commit, reason: str | None):
    assert screen(made, HistoryRules(), EVALUATED) == reason


# -- the definitions a change touched ------------------------------------------------------------
SOURCE = """\
import os


class Pool:
    size = 4

    def acquire(self):
        conn = self.take()

        return conn

    def release(self, conn):
        self.put(conn)


def helper(data):
    first = 1
    second = 2
    return data


LIMIT = 10
"""


def defs():
    return definitions_of(extract_structure(parse("pool.py", SOURCE.encode(), ChunkOptions())))


def lines() -> list[str]:
    return SOURCE.split("\n")


def test_definitions_have_qualified_names():
    assert [(d.name, d.kind) for d in defs()] == [
        ("Pool", "class"), ("Pool.acquire", "method"), ("Pool.release", "method"), ("helper", "function"),
        ("LIMIT", "constant")]


@pytest.mark.parametrize(("added", "removed_after", "names"), [
    (((8, 8),), (), ["Pool.acquire"]),  # a line of a method: the method, not its class
    (((5, 5),), (), ["Pool"]),  # a class attribute: the class
    (((9, 9),), (), []),  # a blank line inside a method touches nothing
    (((1, 1),), (), []),  # an import: no definition
    (((8, 13),), (), ["Pool.acquire", "Pool.release"]),  # across two methods
    (((22, 22),), (), ["LIMIT"]),  # a top-level constant
    ((), (17,), ["helper"]),  # lines removed inside a function
    ((), (14,), []),  # removed between two definitions of a class: unknown which
    (((7, 7), (18, 18)), (), ["Pool.acquire", "helper"]),
])
def test_touched_gives_the_innermost_definitions(added, removed_after, names):
    assert touched(defs(), FileChange("pool.py", added=added, removed_after=removed_after), lines()) == names


def test_names_target_finds_any_part_of_a_qualified_name():
    assert names_target("Fix `acquire` when the pool is empty", ["Pool.acquire"])
    assert names_target("Make the pool smaller", ["Pool.acquire"])  # the class's name, in any case
    assert not names_target("Take a connection when it is free", ["Pool.acquire"])
    assert not names_target("Fix the init of a connection", ["Pool.__init__"])  # dunder names are left out


# -- queries with several targets -----------------------------------------------------------------
FILES = [
    ("pool.py", b"def acquire_connection(pool):\n" + b"".join(
        f"    acquire_{i} = pool.take({i})  # acquire a pooled connection\n".encode() for i in range(30))
     + b"    return pool\n\n\ndef release_connection(pool):\n" + b"".join(
        f"    release_{i} = pool.put({i})  # release the pooled connection\n".encode() for i in range(30))
     + b"    return pool\n"),
    ("text.py", b"def wrap_words(text):\n" + b"".join(
        f"    wrapped_{i} = text.wrap({i})  # wrap words of a paragraph\n".encode() for i in range(30))
     + b"    return text\n"),
]


TWO_SIZES = (ChunkOptions(max_size=600), ChunkOptions(max_size=5000))


def prepared(history, settings=TWO_SIZES):
    return prepare(FILES, list(settings), queries="history", history=history, jobs=1)


def test_a_commit_asks_for_every_definition_it_changed():
    funnel = HistoryFunnel()
    history = [
        CommitQuery("c1", "Acquire and release", "acquire and release pooled connections",
                    (("pool.py", "acquire_connection"), ("pool.py", "release_connection"), ("pool.py", "gone"))),
        CommitQuery("c2", "Gone", "a definition that left", (("pool.py", "nowhere"),)),
        CommitQuery("c3", "Wrap", "wrap the words of a paragraph", (("text.py", "wrap_words"),)),
    ]
    ready = prepare(FILES, [ChunkOptions(max_size=600)], queries="history", history=history, jobs=1,
                    history_funnel=funnel)
    assert [q.commit for q in ready.queries] == ["c1", "c3"]
    first = ready.queries[0]
    assert [t.name for t in first.targets] == ["acquire_connection", "release_connection"]
    assert first.origin == "history" and first.subject == "Acquire and release"
    assert funnel.counts[GONE] == 1 and funnel.dropped_targets == 2 and funnel.targets == 3
    assert ready.targets[0].total_nws == sum(span[3] for span in ready.targets[0].spans)
    result = evaluate_prepared(ready, BM25Retriever())
    setting = result.settings[0]
    top = setting.outcomes[0].top
    # chunks of either definition are hits; recall at the budget is over both of them
    assert any(c.hit for c in top) and setting.per_query["recall@5"][0] == 1.0
    assert 0 < setting.per_query["recall@budget"][0] <= 1.0
    assert setting.outcomes[0].whole is False  # 600 nws cannot hold either definition whole


def test_the_controls_bracket_what_is_asked():
    history = [CommitQuery(f"c{i}", "s", text, targets) for i, (text, targets) in enumerate([
        ("acquire a pooled connection", (("pool.py", "acquire_connection"),)),
        ("release the pooled connection", (("pool.py", "release_connection"),)),
        ("wrap words of a paragraph", (("text.py", "wrap_words"),)),
    ])]
    ready = prepared(history, [ChunkOptions(max_size=1500)])  # one definition per chunk
    asked = evaluate_prepared(ready, BM25Retriever()).settings[0].per_query["recall@1"]
    alone = evaluate_prepared(with_isolated_targets(ready), BM25Retriever()).settings[0].per_query["recall@1"]
    shuffled = with_shuffled_targets(ready, seed=0)
    assert all(s.commit == q.commit and s.text == q.text for s, q in zip(shuffled.queries, ready.queries))
    assert all(s.path != q.path or s.start != q.start for s, q in zip(shuffled.queries, ready.queries))
    noise = evaluate_prepared(shuffled, BM25Retriever()).settings[0].per_query["recall@1"]
    assert np.all(alone == 1.0) and np.all(asked == 1.0) and np.all(noise == 0.0)


def test_costs_are_counted_per_setting():
    files = [(f"copy{k}/{path}", data) for k in range(8) for path, data in FILES]
    ready = prepare(files, [ChunkOptions(max_size=600), ChunkOptions(max_size=5000)], queries="history", jobs=1,
                    history=[CommitQuery("c", "s", "wrap words of a paragraph", (("copy0/text.py", "wrap_words"),))])
    result = evaluate_prepared(ready, BM25Retriever())
    small, big = result.settings
    assert small.chunks > big.chunks
    assert small.embedded > 0 and big.embedded > 0
    assert small.retrieved_cost.value < big.retrieved_cost.value  # five small chunks cost less than five big ones
    assert result.to_dict()["settings"][0]["costs"]["embedded"] == small.embedded
