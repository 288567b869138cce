"""The file watcher at its edges: what a batch of changes says it touched (a path, a folder
holding it, the ignore rules, the folders to list again), and what the watch reports."""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
from collections.abc import AsyncIterator, Callable
from pathlib import Path

from textual.message import Message

from explorer.tui.watch import FilesChangedOnDisk, WatchStarted, watch_directory

from .helpers import HANG_SECONDS


def test_a_change_touches_the_path_and_everything_under_a_changed_folder(tmp_path: Path):
    folder = tmp_path / "pkg"
    changed = FilesChangedOnDisk([("modified", str(folder / "a.py")), ("deleted", str(folder / "sub") + os.sep)])
    assert changed.touches(str(folder / "a.py"))
    assert changed.touches(str(folder / "sub" / "deep" / "b.py"))  # under a changed folder
    assert changed.touches(str(folder / "sub"))
    assert not changed.touches(str(folder / "a.pyc"))  # a longer name is not under it
    assert not changed.touches(str(folder / "subway.py"))
    assert not changed.touches(str(folder))  # a folder is not touched by a change inside it


def test_a_relative_path_is_compared_as_the_absolute_one(tmp_path: Path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    changed = FilesChangedOnDisk([("modified", "a.py")])
    assert changed.paths() == {str(tmp_path / "a.py")}
    assert changed.touches(str(tmp_path / "a.py")) and changed.touches("./a.py")


def test_only_a_file_named_gitignore_changes_the_ignore_rules(tmp_path: Path):
    assert FilesChangedOnDisk([("modified", str(tmp_path / "sub" / ".gitignore"))]).ignore_rules_changed()
    assert not FilesChangedOnDisk([("modified", str(tmp_path / "a.gitignore"))]).ignore_rules_changed()
    assert not FilesChangedOnDisk([("modified", str(tmp_path / ".gitignore.swp"))]).ignore_rules_changed()
    assert not FilesChangedOnDisk([]).ignore_rules_changed()


def test_the_folders_to_list_are_those_where_a_file_came_or_went(tmp_path: Path):
    root = str(tmp_path)
    changed = FilesChangedOnDisk(
        [
            ("added", str(tmp_path / "new" / "a.py")),
            ("deleted", str(tmp_path / "old" / "b.py")),
            ("modified", str(tmp_path / "same" / "c.py")),  # an edit lists nothing again
        ]
    )
    assert changed.folders_to_list(root) == {str(tmp_path / "new"), str(tmp_path / "old")}


def test_the_root_is_listed_again_when_it_was_removed_or_is_back(tmp_path: Path, monkeypatch):
    root = tmp_path / "root"
    assert FilesChangedOnDisk([("deleted", str(root))]).folders_to_list(str(root)) == {str(root), str(tmp_path)}
    assert str(root) in FilesChangedOnDisk([("added", str(root))]).folders_to_list(str(root))
    # The root may be given relative: it is still recognised, and given back as it was given.
    monkeypatch.chdir(tmp_path)
    assert FilesChangedOnDisk([("modified", str(root))]).folders_to_list("root") == {"root"}
    assert FilesChangedOnDisk([("modified", str(root / "a.py"))]).folders_to_list("root") == set()


def test_a_folder_is_matched_by_its_whole_name_and_the_filesystem_root_holds_everything(tmp_path: Path):
    # A trailing space is part of a name: "pkg " is another folder than "pkg".
    spaced = FilesChangedOnDisk([("deleted", str(tmp_path / "pkg "))])
    assert spaced.touches(str(tmp_path / "pkg ") + "/a.py")
    assert not spaced.touches(str(tmp_path / "pkg" / "a.py"))
    assert FilesChangedOnDisk([("deleted", os.sep)]).touches(str(tmp_path / "a.py"))


# -- what the watch reports ---------------------------------------------------------------------
class Posted:
    """What a watch posted, in order (WatchStarted as "started"), and a way to wait for one."""

    def __init__(self) -> None:
        self.log: list[object] = []
        self._changed = asyncio.Event()

    def __call__(self, message: Message) -> None:
        self.log.append("started" if isinstance(message, WatchStarted) else message.changes)  # type: ignore[attr-defined]
        self._changed.set()

    async def until(self, found: Callable[[list[object]], bool], what: str) -> None:
        async def wait() -> None:
            while not found(self.log):
                self._changed.clear()
                await self._changed.wait()

        try:
            await asyncio.wait_for(wait(), HANG_SECONDS)
        except TimeoutError:
            raise AssertionError(f"no {what} in {self.log}") from None


@contextlib.asynccontextmanager
async def watching(root: Path) -> AsyncIterator[Posted]:
    posted = Posted()
    task = asyncio.create_task(watch_directory(str(root), posted))
    try:
        await posted.until(lambda log: "started" in log, "start")
        yield posted
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


def started_twice(log: list[object]) -> bool:
    return log.count("started") == 2


async def test_changes_are_reported_as_sorted_pairs_of_change_and_path(tmp_path: Path):
    root = tmp_path / "root"
    root.mkdir()
    async with watching(root) as posted:
        (root / "b.py").write_text("b = 1\n")
        (root / "a.py").write_text("a = 1\n")
        added = [("added", str(root / "a.py")), ("added", str(root / "b.py"))]
        await posted.until(lambda log: all(any(pair in batch for batch in log[1:]) for pair in added), "added files")
        assert posted.log[0] == "started" and posted.log.count("started") == 1
        for batch in posted.log[1:]:
            assert isinstance(batch, list) and batch and batch == sorted(batch)
            assert all(isinstance(change, str) and isinstance(path, str) for change, path in batch)


async def test_a_removed_folder_is_reported_deleted_once_and_back_once_watched_again(tmp_path: Path):
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.py").write_text("x = 1\n")
    async with watching(root) as posted:
        shutil.rmtree(root)
        await posted.until(lambda log: any(("deleted", str(root)) in batch for batch in log[1:]), "deletion")
        root.mkdir()
        await posted.until(started_twice, "second start")
        await posted.until(lambda log: len(log) > log.index("started", 1) + 1, "the folder back")
        again = posted.log.index("started", 1)
        before = posted.log[1:again]
        assert sum(batch.count(("deleted", str(root))) for batch in before) == 1, before  # type: ignore[union-attr]
        assert posted.log[again + 1] == [("added", str(root))]


async def test_a_link_to_the_folder_removed_is_the_folder_deleted_and_relinked_it_is_watched_again(tmp_path: Path):
    # Removing the link leaves the watched folder as it was, so no event says it went: the
    # watch finds it gone at its next look and says so itself.
    real = tmp_path / "real"
    real.mkdir()
    root = tmp_path / "root"
    root.symlink_to(real)
    async with watching(root) as posted:
        root.unlink()
        await posted.until(lambda log: len(log) > 1, "the link's removal")
        assert posted.log[1:] == [[("deleted", str(root))]]
        root.symlink_to(real)
        await posted.until(started_twice, "second start")
        await posted.until(lambda log: len(log) > 3, "the folder back")
        assert posted.log[2:] == ["started", [("added", str(root))]]
        (real / "late.py").write_text("y = 2\n")
        await posted.until(lambda log: any(("added", str(root / "late.py")) in b for b in log[4:]), "a new file")


async def test_changes_in_tool_folders_and_editor_swap_files_are_not_reported(tmp_path: Path):
    root = tmp_path / "root"
    (root / ".git").mkdir(parents=True)
    (root / "__pycache__").mkdir()
    async with watching(root) as posted:
        # Written before the file that is reported, so they would come in its batch or an earlier one.
        (root / ".git" / "index").write_text("x")
        (root / "__pycache__" / "a.cpython-311.pyc").write_bytes(b"\0")
        (root / ".a.py.swp").write_text("x")
        (root / "a.py").write_text("a = 1\n")
        await posted.until(lambda log: any(("added", str(root / "a.py")) in b for b in log[1:]), "the new file")
        reported = {path for batch in posted.log[1:] for _, path in batch}  # type: ignore[union-attr]
        assert reported == {str(root / "a.py")}
