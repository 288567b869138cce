"""The package's version, from one source: the ``version`` in pyproject.toml, read from
the installed distribution's metadata, or from pyproject.toml itself in a source checkout
that was never installed. ``explorer.__version__``, ``--version`` and the ``version`` of
every JSON output read it here."""

from __future__ import annotations

import os
from functools import cache

DISTRIBUTION = "chunk-explorer"
#: When neither the metadata nor a pyproject.toml of this package can be read.
UNKNOWN = "0+unknown"


@cache
def tool_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(DISTRIBUTION)
    except PackageNotFoundError:
        return _source_version() or UNKNOWN


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
