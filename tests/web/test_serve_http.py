"""The server's HTTP layer and command line, without a browser: what is outside PATH is
refused (``?open=``, links, ``..``, the static folder), as are a missing or wrong token and a
websocket without its page's ticket; mistakes on the command line are usage errors."""

from __future__ import annotations

import subprocess
import sys
import urllib.parse
from pathlib import Path

import pytest

from .conftest import ROOT, status_of


def test_paths_outside_path_are_refused_at_the_http_layer(served, repository):
    origin, token = served.origin, served.token
    assert status_of(f"{origin}/?token={token}")[0] == 200
    assert status_of(f"{origin}/?token={token}&open=pkg/greeter.py")[0] == 200
    for outside in ("../secret.py", str(repository.parent / "secret.py"), "pkg/leak.py", "/etc/passwd",
                    "pkg/../../secret.py", "pkg/missing.py"):
        code, text = status_of(f"{origin}/?token={token}&open={urllib.parse.quote(outside)}")
        assert code == 403, (outside, code)
        assert "Refused" in text
    for path in ("/static/../../secret.py", "/static/%2e%2e/%2e%2e/secret.py", "/static/", "/secret.py",
                 "/download/nothing"):
        assert status_of(origin + path)[0] in (403, 404), path
    # No token, a wrong token, a websocket without a ticket: refused.
    assert status_of(f"{origin}/")[0] == 403
    assert status_of(f"{origin}/?token=guess")[0] == 403
    assert status_of(f"{origin}/ws/forged")[0] == 403
    assert served.children() == []



@pytest.mark.parametrize(("flags", "said"), [
    (["--token", "t", "--no-token"], "choose one"),
    (["--write-to", "{code}/pkg"], "inside the served folder"),
    (["--write-to", "{tmp}/nowhere"], "not a directory"),
    (["--max-size", "zero"], "max-size"),
])
def test_command_line_mistakes_are_usage_errors(repository, flags, said):
    flags = [f.format(code=repository, tmp=repository.parent) for f in flags]
    done = subprocess.run([sys.executable, "-m", "explorer", "serve", str(repository), "--port", "0", *flags],
                          capture_output=True, text=True, timeout=60, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 2, done.stderr
    assert said in done.stderr


def test_a_teach_file_outside_path_is_a_usage_error(repository: Path):
    done = subprocess.run([sys.executable, "-m", "explorer", "serve", str(repository), "--teach",
                           str(repository.parent / "secret.py"), "--port", "0"], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 2
    assert "outside the folder being served" in done.stderr


def test_each_app_is_the_explorer_itself_confined_on_one_core(tmp_path):
    from explorer.serve.visitors import ServeConfig, app_command, app_environment
    from explorer.workspace.confine import Confinement

    config = ServeConfig(Confinement.of(str(tmp_path), str(tmp_path / "out")), explorer_args=("code", "--max-size", "60"),
                         teach=str(tmp_path / "code" / "a b.py"), python="/usr/bin/python3")
    command = app_command(config, open_file=str(tmp_path / "code" / "it's.py"))
    assert command.startswith("exec /usr/bin/python3 -m explorer code --max-size 60 --served --write-to ")
    assert "'" + str(tmp_path / "code" / "a b.py") + "'" in command  # every part quoted for the shell
    assert "--open " in command and "it'\"'\"'s.py" in command
    environment = app_environment(config, {"HOME": "/home/x"})
    assert environment == {"HOME": "/home/x", "CHUNK_EXPLORER_JOBS": "1",
                           "CHUNK_EXPLORER_CACHE": str((tmp_path / "out").resolve() / ".cache")}
    nowhere = ServeConfig(Confinement.of(str(tmp_path)))
    assert app_environment(nowhere, {})["CHUNK_EXPLORER_CACHE"] == "off"
    assert "--write-to" not in app_command(nowhere)
