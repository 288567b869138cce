"""Fixtures of the browser tests: a small repository, a server on a free loopback port
(stopped and checked for leftover apps after each test), and browsers."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from .browser import Browser

ROOT = Path(__file__).resolve().parents[2]

GREETER = '''\
"""Greetings in several languages."""


def greet(name):
    """Say hello to someone by name, politely."""
    return f"Hello, {name}!"


class Greeter:
    """Keeps a greeting and says it."""

    def __init__(self, greeting):
        self.greeting = greeting

    def say(self, name):
        return f"{self.greeting}, {name}!"
'''


@pytest.fixture
def repository(tmp_path: Path) -> Path:
    """A folder to serve, a folder to write into, and a secret beside them (outside PATH)."""
    code = tmp_path / "code"
    (code / "pkg").mkdir(parents=True)
    (code / "pkg" / "greeter.py").write_text(GREETER)
    (code / "pkg" / "util.py").write_text("def add(a, b):\n    return a + b\n")
    (tmp_path / "out").mkdir()
    (tmp_path / "secret.py").write_text("PASSWORD = 'do not serve me'\n")
    (code / "pkg" / "leak.py").symlink_to(tmp_path / "secret.py")  # a link out of PATH
    return code


@dataclass
class Server:
    process: subprocess.Popen
    url: str
    token: str

    @property
    def origin(self) -> str:
        return self.url.split("/?", 1)[0]

    def children(self) -> list[int]:
        """The explorer processes the server runs now (one per visitor)."""
        return children_of(self.process.pid)


def children_of(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with contextlib.suppress(OSError):
            found += [int(p) for p in (task / "children").read_text().split()]
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def start_server(path: Path, *flags: str) -> Server:
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    process = subprocess.Popen(
        [sys.executable, "-m", "explorer", "serve", str(path), "--port", "0", "--token", "sesame", *flags],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=environment, cwd=path.parent)
    assert process.stdout is not None
    line = process.stdout.readline()
    match = re.search(r"http://\S+", line)
    if match is None:
        process.kill()
        raise AssertionError(f"the server did not start: {line}{process.stderr.read() if process.stderr else ''}")
    return Server(process, match.group(0), "sesame")


def stop_server(server: Server, sig: int = signal.SIGTERM) -> None:
    if server.process.poll() is None:
        server.process.send_signal(sig)
        try:
            server.process.wait(15)
        except subprocess.TimeoutExpired:
            server.process.kill()
            server.process.wait()


@pytest.fixture
def served(repository: Path) -> Iterator[Server]:
    # The explorer's own flags pass through: a small size gives teach mode steps to play.
    server = start_server(repository, "--write-to", str(repository.parent / "out"), "--max-size", "60")
    children: set[int] = set()
    try:
        yield server
        children.update(server.children())
    finally:
        stop_server(server)
    deadline = time.monotonic() + 10
    while any(alive(pid) for pid in children) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [pid for pid in children if alive(pid)], "an app outlived the server"


@pytest.fixture
def browsers() -> Iterator[list[Browser]]:
    """Browsers a test opens (``browsers.append(Browser())``), all closed after it."""
    opened: list[Browser] = []
    try:
        yield opened
    finally:
        for browser in opened:
            browser.close()


def status_of(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()
