"""The package's version, from one source: the ``version`` in pyproject.toml, read from
pyproject.toml itself in a source checkout (installed in editable mode or not), or from the
installed distribution's metadata. ``explorer.__version__``, ``--version`` and the ``version`` of
every JSON output read it here."""

from __future__ import annotations

import os
from functools import cache

DISTRIBUTION = "chunk-explorer"
#: When neither the metadata nor a pyproject.toml of this package can be read.
UNKNOWN = "0+unknown"


@cache
def tool_version() -> str:
    # A source checkout (an editable install too) is read first: its pyproject.toml is the
    # version even before a reinstall, and tomllib starts in a fraction of importlib.metadata's
    # time (which `--version` would spend most of its start-up importing).
    found = _source_version()
    if found is not None:
        return found
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(DISTRIBUTION)
    except PackageNotFoundError:
        return UNKNOWN


def _source_version() -> str | None:
    """The version in the pyproject.toml beside the package (a source checkout)."""
    import tomllib

    path = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "pyproject.toml")
    try:
        with open(path, "rb") as handle:
            project = tomllib.load(handle).get("project", {})
    except (OSError, tomllib.TOMLDecodeError):
        return None
    found = project.get("version") if project.get("name") == DISTRIBUTION else None
    return found if isinstance(found, str) else None
