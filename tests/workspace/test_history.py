"""Reading a repository's history with git and mining it for queries: the log reader, the
screening of every trap, renames followed, the limit, determinism, the cache, and the
clear messages for no git, a shallow clone, no commits and no eligible commit.

The repository is built by ``tests/conftest.py`` (``history_repo``)."""

from __future__ import annotations

import os
import sqlite3
import subprocess
from pathlib import Path

import pytest

from explorer.engine.retrieval.history import (
    BOT,
    FORMATTING,
    GONE,
    MERGE,
    NO_CODE,
    NO_DEFINITION,
    OVER_LIMIT,
    RELEASE,
    RENAMES,
    REVERT,
    SHORT,
    TESTS_ONLY,
    TOO_MANY_FILES,
    HistoryRules,
)
from explorer.workspace.history import mine_history
from explorer.workspace.history.cache import forget
from explorer.workspace.history.git import find_repository, read_log
from explorer.workspace.walk import plan


@pytest.fixture
def topics(history_topics: list[tuple[str, str, str]]) -> list[tuple[str, str, str]]:
    return history_topics


def evaluated(root: Path) -> set[str]:
    return {f.rel for f in plan([str(root)], root=str(root)).files}


def git(root: Path, *args: str) -> str:
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
    return subprocess.run(["git", *args], cwd=root, env=env, capture_output=True, text=True, check=True).stdout


def test_the_log_reader_gives_every_commit_with_the_lines_it_wrote(history_repo: Path):
    repository = find_repository(str(history_repo))
    assert repository.prefix == "" and not repository.shallow
    assert repository.head == git(history_repo, "rev-parse", "HEAD").strip()
    commits = list(read_log(str(history_repo), repository, 5000))
    assert len(commits) == int(git(history_repo, "rev-list", "--count", "HEAD"))
    assert [c.sha for c in commits] == git(history_repo, "log", "--format=%H").split()  # newest first
    merge = next(c for c in commits if c.subject.startswith("Merge branch"))
    assert len(merge.parents) == 2 and merge.changes == ()
    rename = next(c for c in commits if c.subject.startswith("Move the shell helpers"))
    (change,) = rename.changes
    assert (change.status, change.old_path, change.path, change.changes_lines) == \
        ("renamed", "src/app/shell.py", "src/app/commands.py", False)
    reformat = next(c for c in commits if c.subject.startswith("Reformat"))
    assert all(c.whitespace_only for c in reformat.changes)
    # a topic commit wrote exactly its function's body: compare with git's own numbers
    topic = next(c for c in commits if c.subject.startswith("Handle the retry backoff"))
    (change,) = topic.changes
    hunks = [line for line in git(history_repo, "show", "--unified=0", "--format=", topic.sha).splitlines()
             if line.startswith("@@")]
    assert len(change.added) == len(hunks) >= 1
    source = git(history_repo, "show", f"{topic.sha}:src/app/network.py").splitlines()
    for first, last in change.added:
        assert all("retry" in source[line - 1] or "backoff" in source[line - 1] for line in range(first, last + 1))
    assert change.blob == git(history_repo, "rev-parse", f"{topic.sha}:src/app/network.py").strip()


def test_mining_screens_every_trap_and_keeps_the_topic_commits(history_repo: Path, topics):
    names = evaluated(history_repo)
    mined = mine_history(str(history_repo), names, jobs=1, cache_path=None,
                         known=lambda path, name: path != "src/app/extra.py" or name == "VERSION")
    assert mined.problem is None and mined.complete
    counts = mined.funnel.counts
    for reason in (MERGE, BOT, REVERT, RELEASE, SHORT, NO_CODE, RENAMES, FORMATTING, TESTS_ONLY, NO_DEFINITION):
        assert counts.get(reason) == 1, (reason, counts)
    assert counts[TOO_MANY_FILES] == 2  # the first import and the audit of every module
    assert counts[GONE] == 2  # the obsolete helper, added then tuned, deleted since
    assert mined.funnel.commits == int(git(history_repo, "rev-list", "--count", "HEAD"))
    subjects = [q.subject for q in mined.queries]
    assert len(subjects) == len(topics) + 3  # each topic, the escape fix, the branch's commit, the constant
    assert subjects[0] == "Drop the legacy importer now that archives are gone"  # newest first
    assert "Stop draining the queue when the consumer backlog is empty" in subjects  # a merged branch's commit
    by_subject = {q.subject: q for q in mined.queries}
    assert by_subject["Handle the retry backoff case when the attempts is missing"].targets == \
        (("src/app/network.py", "retry_request"),)
    assert by_subject["Drop the legacy importer now that archives are gone"].targets == (("src/app/extra.py", "VERSION"),)


def test_renamed_files_are_followed_to_their_path_now(history_repo: Path, topics):
    mined = mine_history(str(history_repo), evaluated(history_repo), jobs=1, cache_path=None)
    shell = {name for module, name, _ in topics if module == "shell"}
    targets = {t for q in mined.queries for t in q.targets if t[1] in shell}
    assert targets == {("src/app/commands.py", name) for name in shell}  # written as shell.py, renamed since


def test_a_message_loses_its_trailers_and_references(history_repo: Path):
    mined = mine_history(str(history_repo), evaluated(history_repo), jobs=1, cache_path=None)
    query = next(q for q in mined.queries if q.subject.startswith("Escape every shell"))
    assert query.text == ("Escape every shell metacharacter in a quoted argument. The quote_argument helper missed "
                          "backticks.")
    assert query.targets == (("src/app/commands.py", "quote_argument"),)


def test_mining_is_deterministic_and_the_cache_changes_nothing(history_repo: Path, tmp_path: Path, topics):
    names = evaluated(history_repo)
    cache = str(tmp_path / "cache.sqlite")
    forget()  # this process may have parsed these files for another test
    cold = mine_history(str(history_repo), names, jobs=2, cache_path=cache)
    warm = mine_history(str(history_repo), names, jobs=1, cache_path=cache)
    memory = mine_history(str(history_repo), names, jobs=1, cache_path=None)
    assert cold.queries == warm.queries == memory.queries
    assert cold.funnel.counts == warm.funnel.counts
    with sqlite3.connect(cache) as db:
        assert db.execute("SELECT COUNT(*) FROM definitions").fetchone()[0] >= len(topics)


def test_a_corrupt_cache_is_set_aside_with_a_note(history_repo: Path, tmp_path: Path, topics):
    cache = tmp_path / "cache.sqlite"
    cache.write_bytes(b"this is not a database" * 100)
    mined = mine_history(str(history_repo), evaluated(history_repo), jobs=1, cache_path=str(cache))
    assert len(mined.queries) == len(topics) + 5
    assert any("history cache" in note and "not used" in note for note in mined.funnel.notes)


def test_the_limit_keeps_the_newest_eligible_commits(history_repo: Path):
    names = evaluated(history_repo)
    everything = mine_history(str(history_repo), names, jobs=1, cache_path=None)
    five = mine_history(str(history_repo), names, HistoryRules(limit=5), jobs=1, cache_path=None)
    assert five.queries == everything.queries[:5]
    assert five.funnel.counts[OVER_LIMIT] > 0


def test_a_subfolder_names_paths_from_itself(history_repo: Path):
    src = history_repo / "src"
    mined = mine_history(str(src), evaluated(src), jobs=1, cache_path=None)
    assert mined.queries and all(path.startswith("app/") for q in mined.queries for path, _ in q.targets)
    assert mined.funnel.counts.get(NO_CODE) is None  # the readme's commit does not touch src/ at all


def test_stopping_early_gives_an_incomplete_history(history_repo: Path, topics):
    asked = 0

    def stop() -> bool:
        nonlocal asked
        asked += 1
        return asked > 3

    mined = mine_history(str(history_repo), evaluated(history_repo), jobs=1, cache_path=None, should_stop=stop)
    assert not mined.complete and len(mined.queries) < len(topics)


# -- no history: a clear message, never an exception ------------------------------------------
def test_a_folder_outside_git_says_so(tmp_path: Path):
    (tmp_path / "a.py").write_text("def f():\n    return 1\n")
    mined = mine_history(str(tmp_path), {"a.py"}, cache_path=None)
    assert mined.queries == [] and "is not inside a git repository" in (mined.problem or "")


def test_no_git_program_says_so(history_repo: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("PATH", str(history_repo / "nowhere"))
    mined = mine_history(str(history_repo), evaluated(history_repo), cache_path=None)
    assert "no `git` program was found" in (mined.problem or "")


def test_a_repository_without_commits_says_so(tmp_path: Path):
    git(tmp_path, "init", "-q")
    (tmp_path / "a.py").write_text("def f():\n    return 1\n")
    mined = mine_history(str(tmp_path), {"a.py"}, cache_path=None)
    assert "has no commits yet" in (mined.problem or "")


def test_a_shallow_clone_is_mined_and_said_to_be_shallow(history_repo: Path, tmp_path: Path):
    clone = tmp_path / "shallow"
    git(tmp_path, "clone", "-q", "--depth", "12", f"file://{history_repo}", str(clone))
    mined = mine_history(str(clone), evaluated(clone), jobs=1, cache_path=None)
    assert mined.funnel.shallow and mined.funnel.commits <= 13
    assert any("shallow clone" in note for note in mined.funnel.notes)
    assert mined.queries  # what is there still gives queries


def test_no_eligible_commit_says_why(history_repo: Path):
    mined = mine_history(str(history_repo), evaluated(history_repo), HistoryRules(min_words=40), cache_path=None)
    assert mined.queries == []
    assert "none of the" in (mined.problem or "") and "messages too short" in (mined.problem or "")
