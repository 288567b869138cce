"""Saving a picture of the screen: where it goes, and why it could not go there."""

from __future__ import annotations

import os
import time

from explorer.workspace.atomic import atomic_writer


def screenshot_folder(start_dir: str, home: str | None = None) -> str:
    """``~/Downloads`` when it exists (where Textual puts screenshots), else the folder the
    explorer was started from."""
    downloads = os.path.join(home or os.path.expanduser("~"), "Downloads")
    return downloads if os.path.isdir(downloads) else start_dir


def save_screenshot(svg: str, title: str, start_dir: str, home: str | None = None) -> str:
    """Write ``svg`` to a new file named after ``title`` and the time; returns its path.
    Raises OSError (OutputError says why and what to do) when it cannot be written."""
    stem = "-".join(title.lower().split()) or "screenshot"
    path = os.path.join(screenshot_folder(start_dir, home), f"{stem}-{time.strftime('%Y-%m-%d-%H%M%S')}.svg")
    with atomic_writer(path) as out:
        out.write(svg)
    return path
