"""``--save`` (sweep and eval): the chosen setting written to the settings file, the one
given with ``--settings``, else the one found for the root, else a new one in the root;
edited in place, comments kept."""

from __future__ import annotations

import os
from dataclasses import replace

from ..engine.options import ChunkOptions
from ..workspace.atomic import check_writable
from ..workspace.export import OutputError
from ..workspace.settings import SETTINGS_FILE, find_settings, save_settings
from .errors import UsageError
from .frame import Frame


def check_save_target(frame: Frame) -> str:
    """The settings file --save will write, checked before any work. Raises UsageError."""
    if frame.settings_file_given and frame.resolved.settings_path:
        path = frame.resolved.settings_path
    else:
        path = find_settings(frame.root) or os.path.join(frame.root, SETTINGS_FILE)
    try:
        return check_writable(path)
    except OutputError as exc:
        raise UsageError(f"--save: {exc}") from None


def save_setting(frame: Frame, options: ChunkOptions) -> str:
    """Write ``options`` to the settings file; returns its path. Raises OutputError or
    SettingsError."""
    # A --language given on the command line is for this run; the file keeps its own.
    options = replace(options, language=frame.resolved.settings.options.language)
    # --settings FILE: write back to that file.
    path = frame.resolved.settings_path if frame.settings_file_given and frame.resolved.settings_path else None
    return save_settings(frame.root, options, path=path)
