"""The project settings file, ``.chunk-explorer.toml``: parameters that travel from the
explorer to the pipeline. Precedence: built-in defaults < this file < command-line flags.

    [chunk]                 # ChunkOptions fields
    max_size = 1200
    size_unit = "nws"
    overlap_lines = 2

    [walk]                  # which files a directory run takes
    exclude = ["tests/fixtures"]
    max_file_size = "2M"

Every option belongs in its table: a key outside one (``max_size = 1000`` above any
``[chunk]``) or a misspelt table name is an error, never silently ignored. Saving edits
the file in place: comments, layout and other tables are kept.
"""

from __future__ import annotations

import difflib
import os
import tomllib
from dataclasses import dataclass, field, fields
from typing import Any

from ..engine.files import UnreadableFileError, read_regular_file
from ..engine.options import ChunkOptions
from ..engine.tokens import is_path_spec
from .atomic import write_atomic
from .gitignore import find_worktree_top
from .walk import SETTINGS_FILE, WalkOptions, parse_size

SETTINGS_MAX_BYTES = 1 << 20
CHUNK_TABLE = "chunk"
WALK_TABLE = "walk"
#: Short names people will write by analogy with the command-line flags.
_CHUNK_ALIASES = {"context": "context_mode", "max_chunk_size": "max_size"}
_HEADER = (
    "# Chunk Explorer settings: read by `chunk-explorer` (explorer and headless commands).\n"
    "# Command-line flags override these values.\n"
)


class SettingsError(ValueError):
    """The settings file is malformed or holds an invalid value; names the file."""


@dataclass(frozen=True, slots=True)
class Settings:
    options: ChunkOptions = field(default_factory=ChunkOptions)
    walk: WalkOptions = field(default_factory=WalkOptions)
    path: str | None = None  # the file these came from, None for defaults
    extra: dict[str, Any] = field(default_factory=dict)  # other tables, preserved on save


def settings_search_dirs(start: str | os.PathLike[str], cwd: str | os.PathLike[str] | None = None) -> list[str]:
    """The directories searched for the settings file of ``start`` (a directory, or a
    file's directory), nearest first, as ruff or git search: from ``start`` upwards to
    the top of its repository (the directory holding ``.git``), never beyond it. Outside
    any repository, upwards to the current directory ``cwd`` when ``start`` lies inside it,
    else ``start`` alone: a file from an unrelated folder above is never picked up."""
    current = os.path.abspath(os.fspath(start))
    if os.path.isfile(current):
        current = os.path.dirname(current)
    top = find_worktree_top(current)
    if top is None:
        here = os.path.abspath(os.fspath(cwd) if cwd is not None else os.curdir)
        inside = current == here or current.startswith(here.rstrip(os.sep) + os.sep)
        top = here if inside else current
    dirs = [current]
    while current != top:
        parent = os.path.dirname(current)
        if parent == current:
            break
        current = parent
        dirs.append(current)
    return dirs


def find_settings(start: str | os.PathLike[str], cwd: str | os.PathLike[str] | None = None) -> str | None:
    """The nearest settings file for ``start`` (see :func:`settings_search_dirs`), or None.
    The one rule for the CLI, the explorer and the framework adapters."""
    for directory in settings_search_dirs(start, cwd):
        candidate = os.path.join(directory, SETTINGS_FILE)
        if os.path.isfile(candidate):
            return candidate
    return None


def settings_notice(settings: Settings, start: str | os.PathLike[str], cwd: str | os.PathLike[str] | None = None) -> str:
    """One line saying which settings file a run read, or where none was found."""
    if settings.path is not None:
        return f"settings: {settings.path}"
    dirs = settings_search_dirs(start, cwd)
    where = dirs[0] if len(dirs) == 1 else f"{dirs[0]} up to {dirs[-1]}"
    return f"settings: none ({SETTINGS_FILE} not found in {where}); built-in defaults"


def load_settings(root: str | os.PathLike[str] | None = None, path: str | os.PathLike[str] | None = None) -> Settings:
    """Settings from ``path`` if given, else from the file found for ``root``, else defaults."""
    if path is None:
        found = find_settings(root if root is not None else os.curdir)
        if found is None:
            return Settings()
        path = found
    return read_settings_file(path)


def read_settings_file(path: str | os.PathLike[str]) -> Settings:
    path = os.fspath(path)
    try:
        raw = read_regular_file(path, SETTINGS_MAX_BYTES)  # a FIFO or a huge file must not hang us
        data = tomllib.loads(raw.decode("utf-8"))
    except FileNotFoundError:
        raise SettingsError(f"settings file {path} does not exist") from None
    except UnreadableFileError as exc:
        if exc.reason == "not found":
            raise SettingsError(f"settings file {path} does not exist") from None
        detail = f" ({exc.detail})" if exc.detail else ""
        raise SettingsError(f"cannot read settings file {path}: {exc.reason}{detail}") from None
    except OSError as exc:
        raise SettingsError(f"cannot read settings file {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise SettingsError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    except tomllib.TOMLDecodeError as exc:
        raise SettingsError(f"{path}: not valid TOML ({exc}); fix the file or remove it") from None
    return settings_from_dict(data, path)


def settings_from_dict(data: dict[str, Any], path: str | None = None) -> Settings:
    where = path or "settings"
    _check_top_level(data, where)
    chunk_table = _table(data, CHUNK_TABLE, where)
    walk_table = _table(data, WALK_TABLE, where)
    extra = {k: v for k, v in data.items() if k not in (CHUNK_TABLE, WALK_TABLE)}

    chunk_values = {_CHUNK_ALIASES.get(k, k): v for k, v in ((_key(k), v) for k, v in chunk_table.items())}
    if path is not None and isinstance(chunk_values.get("tokenizer"), str) and is_path_spec(chunk_values["tokenizer"]):
        chunk_values["tokenizer"] = _tokenizer_path(chunk_values["tokenizer"], path)
    try:
        options = ChunkOptions.build(None, **chunk_values)
    except (ValueError, TypeError) as exc:
        raise SettingsError(f"{where}: [{CHUNK_TABLE}] {exc}") from None

    walk_values = {_key(k): v for k, v in walk_table.items()}
    known = {f.name for f in fields(WalkOptions)}
    unknown = sorted(set(walk_values) - known)
    if unknown:
        raise SettingsError(
            f"{where}: [{WALK_TABLE}] unknown key{'s' if len(unknown) > 1 else ''} {', '.join(unknown)}; "
            f"valid keys: {', '.join(sorted(known))}"
        )
    try:
        for key in ("include", "exclude"):
            if isinstance(walk_values.get(key), str):
                walk_values[key] = (walk_values[key],)
            elif key in walk_values and not all(isinstance(g, str) for g in walk_values[key]):
                raise ValueError(f"{key} must be a list of glob strings")
        if "max_file_size" in walk_values:
            walk_values["max_file_size"] = parse_size(walk_values["max_file_size"])
        for key in ("gitignore", "default_excludes", "follow_symlinks", "all_languages"):
            if key in walk_values and not isinstance(walk_values[key], bool):
                raise ValueError(f"{key} must be true or false, not {walk_values[key]!r}")
        walk = WalkOptions(**walk_values)
    except (ValueError, TypeError) as exc:
        raise SettingsError(f"{where}: [{WALK_TABLE}] {exc}") from None
    return Settings(options, walk, path, extra)


def save_settings(
    root: str | os.PathLike[str], options: ChunkOptions, walk: WalkOptions | None = None,
    *, path: str | os.PathLike[str] | None = None,
) -> str:
    """Write ``options`` (and ``walk`` if given) to ``path``, else to the settings file of
    ``root``: the one :func:`find_settings` finds, else a new one in ``root``. Atomic.
    Returns the path.

    An existing file is edited, not rewritten: its comments, layout, key order and
    other tables stay as they were (tomlkit round-trips them); only the values of the
    options change. A malformed existing file is reported and left alone."""
    # Imported here: only saving edits a file in place; reading (every command) needs tomllib only.
    import tomlkit
    from tomlkit.exceptions import TOMLKitError

    if path is None:
        path = find_settings(root) or os.path.join(os.path.abspath(os.fspath(root)), SETTINGS_FILE)
    path = os.fspath(path)
    if os.path.exists(path):
        read_settings_file(path)  # refuse to edit a file that does not read back as settings
        try:
            with open(path, encoding="utf-8") as handle:
                document = tomlkit.parse(handle.read())
        except (OSError, UnicodeDecodeError, TOMLKitError) as exc:
            raise SettingsError(f"cannot edit settings file {path}: {exc}") from None
    else:
        document = tomlkit.document()
        for line in _HEADER.splitlines():
            document.add(tomlkit.comment(line.lstrip("# ")))
        document.add(tomlkit.nl())
    values = settings_chunk_values(options)
    if isinstance(values.get("tokenizer"), str) and is_path_spec(values["tokenizer"]):
        # Written relative to the settings file, as it is read back (and the repository moves with it).
        values["tokenizer"] = os.path.relpath(os.path.abspath(values["tokenizer"]), os.path.dirname(os.path.abspath(path)))
    _update_values(_table_of(document, CHUNK_TABLE, path), values, _CHUNK_ALIASES)
    if walk is not None:
        _update_values(_table_of(document, WALK_TABLE, path), settings_walk_values(walk), {})
    write_atomic(path, tomlkit.dumps(document))
    return path


def settings_chunk_values(options: ChunkOptions) -> dict[str, Any]:
    """The chunk options as written to a settings file: every one (so a later change of
    the built-in defaults cannot silently change a pipeline's chunks); None: not written."""
    return options.to_dict()


def settings_walk_values(walk: WalkOptions) -> dict[str, Any]:
    """The walk options as written: the lists and the size cap, and what differs from the defaults."""
    default_walk = WalkOptions()
    return {
        k: v for k, v in walk.to_dict().items()
        if k in ("include", "exclude", "max_file_size") or v != getattr(default_walk, k)
    }


def _table_of(document: Any, name: str, path: str) -> Any:
    import tomlkit

    table = document.get(name)
    if table is None:
        table = tomlkit.table()
        document.add(name, table)
    elif not isinstance(table, dict):
        raise SettingsError(f"{path}: {name} must be a table ([{name}])")
    return table


def _update_values(container: Any, values: dict[str, Any], aliases: dict[str, str]) -> None:
    """Set ``values`` in a tomlkit table, in place: a key already written
    (under an alias or with dashes) keeps its spelling, place and comment; a None value
    removes the key; new keys go after the last one."""
    spelled = {aliases.get(_key(key), _key(key)): key for key in list(container.keys())}
    # Comments and blank lines at the end of a table introduce what follows it: new
    # keys go before them.
    trailing: list[Any] = []
    body = container.value.body
    while body and body[-1][0] is None:
        trailing.insert(0, body.pop()[1])
    for key, value in values.items():
        existing = spelled.get(key, key)
        if value is None:
            if existing in container:
                del container[existing]
        else:
            container[existing] = list(value) if isinstance(value, tuple) else value
    for item in trailing:
        container.add(item)



def _tokenizer_path(value: str, settings_path: str) -> str:
    """A tokenizer.json named by a settings file: relative to the file's folder, and inside the
    repository holding it (the file is untrusted: it must not point the run at other files)."""
    folder = os.path.dirname(os.path.abspath(settings_path))
    root = find_worktree_top(folder) or folder
    resolved = os.path.realpath(os.path.join(folder, value))
    if os.path.commonpath([resolved, os.path.realpath(root)]) != os.path.realpath(root):
        raise SettingsError(
            f"{settings_path}: [{CHUNK_TABLE}] tokenizer {value!r} is outside the repository ({root}); "
            "a settings file may only name a tokenizer.json inside it (give another with --tokenizer)"
        )
    return os.path.join(folder, value)


def _check_top_level(data: dict[str, Any], where: str) -> None:
    """Options belong in a table: a bare ``max_size = 1000`` at the top, or a misspelt
    ``[chunks]``, would otherwise be kept as an unknown extra and change nothing."""
    chunk_keys = {f.name for f in fields(ChunkOptions)} | set(_CHUNK_ALIASES)
    walk_keys = {f.name for f in fields(WalkOptions)}
    for key, value in data.items():
        if key in (CHUNK_TABLE, WALK_TABLE):
            continue  # checked by _table
        if isinstance(value, dict):
            near = difflib.get_close_matches(key, (CHUNK_TABLE, WALK_TABLE), n=1, cutoff=0.75)
            if near:
                raise SettingsError(f"{where}: unknown table [{key}]; did you mean [{near[0]}]?")
            continue
        name = _key(key)
        table = CHUNK_TABLE if name in chunk_keys else WALK_TABLE if name in walk_keys else None
        if table is not None:
            raise SettingsError(f"{where}: {key} must be in the [{table}] table: write [{table}] on a line above it")
        raise SettingsError(
            f"{where}: {key} = ... outside any table; settings go in [{CHUNK_TABLE}] "
            f"({', '.join(sorted(chunk_keys - set(_CHUNK_ALIASES)))}) or [{WALK_TABLE}] ({', '.join(sorted(walk_keys))})"
        )


def _table(data: dict[str, Any], name: str, where: str) -> dict[str, Any]:
    table = data.get(name, {})
    if not isinstance(table, dict):
        raise SettingsError(f"{where}: {name} must be a table ([{name}])")
    return table


def _key(key: str) -> str:
    return key.replace("-", "_")
