"""Reading a repository's history with the ``git`` binary.

Why the binary: it is there wherever the code is a git checkout, it reads packs and
computes diffs in C, and one ``git log -p --unified=0`` pass gives every commit's
message and the line numbers its diff wrote, so reading thousands of commits takes
one process and well under a second per thousand. (dulwich computes diffs in Python,
far slower on a long history; pygit2 would add a compiled dependency for what one
process already gives; GitPython and PyDriller drive the same binary, PyDriller with
a process per commit.) File contents after a commit come from one ``git cat-file
--batch`` process (:class:`BlobReader`).

Only the hunk headers of the diff are kept (with ``--unified=0`` they are exactly the
lines a commit wrote, and where it only removed lines); the removed and added lines
themselves are only compared for their non-whitespace characters, to tell a
formatting-only change. Git runs without pager, colour, external diff drivers or
text conversion (a repository's attributes cannot make it run a program), without
taking optional locks (the explorer never writes to what it explores), and with the
environment's ``GIT_DIR``-style variables removed, so the repository is the one
holding the evaluated root. Its processes end with ours: their pipes close.
"""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass

from ...engine.cancel import ShouldStop
from ...engine.retrieval.history import Commit, FileChange

#: Environment variables that would point git at another repository than the root's.
_REPOSITORY_VARIABLES = ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR", "GIT_NAMESPACE",
                         "GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_CEILING_DIRECTORIES")
_FORMAT = "%x1e%H%x00%P%x00%an%x00%ae%x00%at%x00%B%x00"
_FIELDS = 6
_HUNK = re.compile(rb"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")
_ZERO_ID = re.compile(rb"^0+$")


class HistoryUnavailable(Exception):
    """No history to read: git is missing, the root is not in a repository, or the
    repository has no commits. The message says which, and what to do."""


@dataclass(frozen=True, slots=True)
class Repository:
    """Where the evaluated root sits: the checkout's top folder, the root's path inside
    it (``src/``, or empty), the commit checked out, and whether the clone is shallow."""

    toplevel: str
    prefix: str
    head: str
    shallow: bool


def git_environment() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in _REPOSITORY_VARIABLES}
    env.update(GIT_TERMINAL_PROMPT="0", GIT_OPTIONAL_LOCKS="0", GIT_PAGER="cat", LC_ALL="C")
    return env


def _git(root: str, *args: str, timeout: float = 30.0) -> subprocess.CompletedProcess[bytes]:
    try:
        return subprocess.run(["git", "-C", root, *args], capture_output=True, env=git_environment(),
                              timeout=timeout, stdin=subprocess.DEVNULL, check=False)
    except FileNotFoundError:
        raise HistoryUnavailable("history queries need git, and no `git` program was found on PATH") from None
    except subprocess.TimeoutExpired:
        raise HistoryUnavailable(f"git did not answer within {timeout:g} s in {root}") from None


def _message(result: subprocess.CompletedProcess[bytes]) -> str:
    text = result.stderr.decode("utf-8", "replace").strip().splitlines()
    return text[0].removeprefix("fatal: ") if text else f"git exited with status {result.returncode}"


def find_repository(root: str) -> Repository:
    """The repository holding ``root`` (a directory). Raises :class:`HistoryUnavailable`."""
    root = os.path.abspath(root)
    if not os.path.isdir(root):
        root = os.path.dirname(root)
    found = _git(root, "rev-parse", "--show-toplevel", "--show-prefix", "--is-shallow-repository")
    if found.returncode != 0:
        reason = _message(found)
        if "not a git repository" in reason:
            raise HistoryUnavailable(f"{root} is not inside a git repository: history queries need a git checkout "
                                     "(the other query sources still run)")
        raise HistoryUnavailable(f"git cannot read the repository at {root}: {reason}")
    lines = found.stdout.decode("utf-8", "surrogateescape").splitlines()
    if len(lines) < 3:
        raise HistoryUnavailable(f"git gave no repository for {root} (a bare repository has no checkout to evaluate)")
    toplevel, prefix, shallow = lines[0], lines[1], lines[2] == "true"
    head = _git(root, "rev-parse", "--verify", "--quiet", "HEAD^{commit}")
    if head.returncode != 0:
        raise HistoryUnavailable(f"the repository at {toplevel} has no commits yet: no history to make queries from")
    return Repository(toplevel, prefix, head.stdout.decode("ascii", "replace").strip(), shallow)


def log_command(root: str, commits: int, prefix: str) -> list[str]:
    """One ``git log`` over the newest ``commits`` commits touching ``root``: messages,
    parents, authors, and the diff with no context lines, paths relative to ``root``."""
    command = ["git", "-C", root, "-c", "core.quotepath=off", "log", f"--max-count={commits}", f"--format={_FORMAT}",
               "--patch", "--unified=0", "--full-index", "--find-renames", "--diff-merges=off", "--no-color",
               "--no-ext-diff", "--no-textconv", "--no-notes", "--encoding=UTF-8", "HEAD"]
    if prefix:  # a folder inside the checkout: its commits, paths relative to it
        command[-1:-1] = ["--relative", "--full-history"]
        command += ["--", "."]
    return command


def read_log(root: str, repository: Repository, commits: int, *,
             should_stop: ShouldStop | None = None) -> Iterator[Commit]:
    """The newest ``commits`` commits touching ``root``, newest first, with their changes
    (paths relative to ``root``). Stops early, ending git, when ``should_stop()`` says
    so. Raises :class:`HistoryUnavailable` when git fails."""
    command = log_command(os.path.abspath(root), commits, repository.prefix)
    try:
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                                   env=git_environment(), bufsize=1 << 16)
    except FileNotFoundError:
        raise HistoryUnavailable("history queries need git, and no `git` program was found on PATH") from None
    assert process.stdout is not None and process.stderr is not None
    finished = False
    try:
        parser = LogParser()
        for number, line in enumerate(process.stdout):
            commit = parser.feed(line)
            if commit is not None:
                yield commit
            if should_stop is not None and number % 512 == 0 and should_stop():
                return
        last = parser.close()
        if last is not None:
            yield last
        finished = True
    finally:
        if not finished and process.poll() is None:
            process.kill()
        process.stdout.close()
        error = process.stderr.read().decode("utf-8", "replace").strip()
        process.stderr.close()
        status = process.wait()
        if finished and status != 0:
            raise HistoryUnavailable(f"git log failed: {error.splitlines()[0] if error else f'status {status}'}")


# -- parsing the log ---------------------------------------------------------------------------
class LogParser:
    """Turns ``git log`` output (the format of :func:`log_command`) into commits, one line
    at a time: ``feed`` returns a commit when the next one starts; ``close`` the last."""

    def __init__(self) -> None:
        self._header: bytes | None = None  # a header still being read (its message spans lines)
        self._commit: dict[str, object] | None = None
        self._changes: list[FileChange] = []
        self._file: _FileState | None = None
        self._left = (0, 0)  # removed and added lines still to come in the current hunk

    def feed(self, line: bytes) -> Commit | None:
        if self._header is not None:
            self._header += line
            self._maybe_header_done()
            return None
        if self._left != (0, 0) and self._file is not None:
            self._content(line)
            return None
        if line.startswith(b"\x1e"):
            done = self.close()
            self._header = line[1:]
            self._maybe_header_done()
            return done
        self._diff_line(line.rstrip(b"\n"))
        return None

    def close(self) -> Commit | None:
        self._end_file()
        commit, self._commit = self._commit, None
        if commit is None:
            return None
        changes, self._changes = self._changes, []
        return Commit(
            str(commit["sha"]), str(commit["message"]), tuple(commit["parents"]),  # type: ignore[arg-type]
            str(commit["author"]), str(commit["email"]), int(commit["time"]),  # type: ignore[call-overload]
            tuple(changes),
        )

    # -- pieces ------------------------------------------------------------------------------
    def _maybe_header_done(self) -> None:
        assert self._header is not None
        if self._header.count(b"\x00") < _FIELDS:
            return
        fields = self._header.split(b"\x00", _FIELDS)[:_FIELDS]
        self._header = None
        sha, parents, author, email, when, message = (f.decode("utf-8", "replace") for f in fields)
        try:
            time = int(when)
        except ValueError:
            time = 0
        self._commit = {"sha": sha.strip(), "parents": tuple(parents.split()), "author": author, "email": email,
                        "time": time, "message": message.strip("\n")}

    def _diff_line(self, line: bytes) -> None:
        if self._commit is None:
            return
        if line.startswith(b"diff --git "):
            self._end_file()
            self._file = _FileState(_header_path(line[len(b"diff --git "):]))
            return
        state = self._file
        if state is None:
            return
        if line.startswith(b"@@ "):
            match = _HUNK.match(line)
            if match is None:
                return
            removed = 1 if match.group(2) is None else int(match.group(2))
            start = int(match.group(3))
            added = 1 if match.group(4) is None else int(match.group(4))
            if added:
                state.added.append((start, start + added - 1))
            elif removed:
                state.removed_after.append(start)
            self._left = (removed, added)
        elif line.startswith(b"+++ "):
            path = _side_path(line[4:], b"b/")
            if path is not None:
                state.path = path
        elif line.startswith(b"--- "):
            old = _side_path(line[4:], b"a/")
            if old is None:
                state.status = "added"
        elif line.startswith(b"new file mode"):
            state.status = "added"
        elif line.startswith(b"deleted file mode"):
            state.status = "deleted"
        elif line.startswith((b"rename from ", b"copy from ")):
            state.old_path = _unquote(line.split(b" ", 2)[2])
            state.status = "renamed" if line.startswith(b"rename") else "copied"
        elif line.startswith((b"rename to ", b"copy to ")):
            state.path = _unquote(line.split(b" ", 2)[2])
        elif line.startswith(b"index "):
            ids = line[len(b"index "):].split(b" ", 1)[0].split(b"..")
            if len(ids) == 2:
                state.blob = None if _ZERO_ID.match(ids[1]) else ids[1].decode("ascii", "replace")
        elif line.startswith(b"Binary files ") or line.startswith(b"GIT binary patch"):
            state.binary = True

    def _content(self, line: bytes) -> None:
        state = self._file
        assert state is not None
        if line.startswith(b"\\"):  # "\ No newline at end of file"
            return
        removed, added = self._left
        text = b"".join(line[1:].split())
        if line.startswith(b"-") and removed:
            state.removed_text.append(text)
            self._left = (removed - 1, added)
        elif line.startswith(b"+") and added:
            state.added_text.append(text)
            self._left = (removed, added - 1)
        else:  # not the diff's shape: stop counting rather than misread what follows
            self._left = (0, 0)
            self._diff_line(line.rstrip(b"\n"))

    def _end_file(self) -> None:
        state, self._file = self._file, None
        self._left = (0, 0)
        if state is None or state.path is None:
            return
        self._changes.append(state.change())


class _FileState:
    __slots__ = ("added", "added_text", "binary", "blob", "old_path", "path", "removed_after", "removed_text",
                 "status")

    def __init__(self, path: str | None):
        self.path = path
        self.old_path: str | None = None
        self.status = "modified"
        self.added: list[tuple[int, int]] = []
        self.removed_after: list[int] = []
        self.blob: str | None = None
        self.binary = False
        self.removed_text: list[bytes] = []
        self.added_text: list[bytes] = []

    def change(self) -> FileChange:
        assert self.path is not None
        changed = bool(self.added or self.removed_after)
        return FileChange(self.path, self.status, tuple(self.added), tuple(self.removed_after), self.old_path,
                          self.blob, self.binary,
                          changed and b"".join(self.removed_text) == b"".join(self.added_text))


def _side_path(text: bytes, prefix: bytes) -> str | None:
    """The path of a ``---``/``+++`` line (None for /dev/null)."""
    text = text.rstrip(b"\t")
    if text == b"/dev/null":
        return None
    path = _unquote(text)
    return path[len(prefix):] if path.startswith(prefix.decode()) else path


def _header_path(text: bytes) -> str | None:
    """The path of a ``diff --git a/X b/X`` line when both sides agree (a file whose
    diff has no ``+++`` line: a pure rename, a new empty file); None otherwise."""
    if text.startswith(b'"'):
        end = _quoted_end(text)
        first, rest = _unquote(text[:end]), text[end + 1:]
        second = _unquote(rest)
        return second[2:] if second.startswith("b/") and first[2:] == second[2:] else None
    size = (len(text) - 5) // 2
    if size > 0 and text[:2] == b"a/" and text[2 + size:2 + size + 3] == b" b/" and text[2:2 + size] == text[5 + size:]:
        return os.fsdecode(text[2:2 + size])
    return None


def _quoted_end(text: bytes) -> int:
    at = 1
    while at < len(text):
        if text[at:at + 1] == b"\\":
            at += 2
            continue
        if text[at:at + 1] == b'"':
            return at + 1
        at += 1
    return len(text)


_ESCAPES = {ord("n"): 10, ord("t"): 9, ord('"'): 34, ord("\\"): 92, ord("a"): 7, ord("b"): 8, ord("f"): 12,
            ord("r"): 13, ord("v"): 11}


def _unquote(text: bytes) -> str:
    """A path as git prints it: as is, or C-quoted (``"tab\\there"``, octal bytes)."""
    text = text.rstrip(b"\n")
    if not (len(text) >= 2 and text.startswith(b'"') and text.endswith(b'"')):
        return os.fsdecode(text)
    out = bytearray()
    body, at = text[1:-1], 0
    while at < len(body):
        byte = body[at]
        if byte == 92 and at + 1 < len(body):  # backslash
            following = body[at + 1]
            if 48 <= following <= 55 and at + 3 < len(body) + 1:
                out.append(int(body[at + 1:at + 4], 8) & 0xFF)
                at += 4
                continue
            out.append(_ESCAPES.get(following, following))
            at += 2
            continue
        out.append(byte)
        at += 1
    return os.fsdecode(bytes(out))


# -- file contents ---------------------------------------------------------------------------
class BlobReader:
    """File contents by id from one ``git cat-file --batch`` process; use as a context
    manager. ``read(id, max_bytes)`` gives the bytes, or None (missing, or larger than
    ``max_bytes``: its content is skipped unread)."""

    def __init__(self, toplevel: str):
        try:
            self.process = subprocess.Popen(["git", "-C", toplevel, "cat-file", "--batch"], stdin=subprocess.PIPE,
                                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=git_environment())
        except FileNotFoundError:
            raise HistoryUnavailable("history queries need git, and no `git` program was found on PATH") from None

    def read(self, blob: str, max_bytes: int) -> bytes | None:
        stdin, stdout = self.process.stdin, self.process.stdout
        assert stdin is not None and stdout is not None
        stdin.write(blob.encode("ascii") + b"\n")
        stdin.flush()
        header = stdout.readline().split()
        if len(header) != 3 or header[1] != b"blob":
            return None
        size = int(header[2])
        if size > max_bytes:
            left = size + 1
            while left:
                left -= len(stdout.read(min(left, 1 << 20)) or b"\0" * left)
            return None
        data = stdout.read(size)
        stdout.read(1)  # the newline after the content
        return data

    def close(self) -> None:
        process = self.process
        for stream in (process.stdin, process.stdout):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()

    def __enter__(self) -> BlobReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
