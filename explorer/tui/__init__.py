"""The explorer: a Textual app showing files, syntax tree, scopes and chunks side by side.

``run(path, options)`` starts it; importing this package does not import Textual.
"""

from __future__ import annotations

from typing import Any


def run(*args: Any, **kwargs: Any) -> int:
    from .app import run as run_app

    return run_app(*args, **kwargs)
