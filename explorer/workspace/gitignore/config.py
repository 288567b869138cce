"""The two keys of git's configuration the walk honours: ``core.ignoreCase`` and
``core.excludesFile``, read from the global and the repository's config files."""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass

from .repository import small_text


@dataclass(frozen=True, slots=True)
class GitSettings:
    """What the walk takes from a repository's configuration."""

    ignore_case: bool = False
    excludes_file: str | None = None  # core.excludesFile, "~" expanded; None: the default



def read_git_settings(common_dir: str | None) -> GitSettings:
    """``core.ignoreCase`` and ``core.excludesFile`` from the global config files
    (``$XDG_CONFIG_HOME/git/config``, ``~/.gitconfig``) and the repository's ``config``,
    later ones winning as in git. ``include`` directives are not followed."""
    home = os.path.expanduser("~")
    xdg = os.environ.get("XDG_CONFIG_HOME") or os.path.join(home, ".config")
    files = [os.path.join(xdg, "git", "config"), os.path.join(home, ".gitconfig")]
    if common_dir is not None:
        files.append(os.path.join(common_dir, "config"))
    values: dict[str, str | None] = {}
    for path in files:
        text = small_text(path)
        if text is not None:
            values.update(_core_values(text))
    ignore_case = _config_bool(values.get("ignorecase", "false"))
    excludes = values.get("excludesfile")
    return GitSettings(ignore_case, os.path.expanduser(excludes) if excludes else None)


def default_excludes_file() -> str:
    """Where git looks for a global ignore file when ``core.excludesFile`` is not set."""
    xdg = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return os.path.join(xdg, "git", "ignore")



def _core_values(text: str) -> Iterable[tuple[str, str | None]]:
    """``key, value`` pairs of the ``[core]`` section (keys lower-cased; a bare key is
    ``None``, meaning true). Enough of git's config syntax for two keys."""
    in_core = False
    for raw in text.split("\n"):
        line = raw.strip()
        if line.startswith("["):
            header, _, rest = line[1:].partition("]")
            in_core = header.strip().lower() == "core"
            line = rest.strip()
        if not in_core or not line or line[0] in "#;":
            continue
        key, eq, value = line.partition("=")
        key = key.strip().lower()
        yield key, (_config_value(value) if eq else None)


def _config_value(value: str) -> str:
    out: list[str] = []
    quoted = False
    i = 0
    value = value.strip()
    while i < len(value):
        c = value[i]
        if c == '"':
            quoted = not quoted
        elif c == "\\" and i + 1 < len(value):
            i += 1
            out.append({"n": "\n", "t": "\t", "b": "\b"}.get(value[i], value[i]))
        elif c in "#;" and not quoted:
            break
        else:
            out.append(c)
        i += 1
    return "".join(out).strip() if not quoted else "".join(out)


def _config_bool(value: str | None) -> bool:
    return value is None or value.strip().lower() in ("true", "yes", "on", "1")
