"""``chunk-explorer [PATH]``: open the explorer (the Textual app), with the initial
parameters from the settings file and flags."""

from __future__ import annotations

import argparse
import importlib
import inspect
import os

from . import options as cli_options
from .errors import EXIT_FAILED, EXIT_OK
from .report import error

APP_MODULE = "explorer.tui.app"
USAGE_HINT = "use the headless commands instead: chunk-explorer chunk|stats|languages --help"


def build_parser(prog: str = "chunk-explorer") -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=prog,
        description="Open the explorer on a directory (default: the current one) or a file.",
    )
    parser.add_argument("path", nargs="?", default=".", metavar="PATH",
                        help="directory to explore, or a file to open in its directory")
    cli_options.add_chunk_options(parser)
    cli_options.add_walk_options(parser)
    cli_options.add_settings_options(parser)
    return parser


def run(args: argparse.Namespace) -> int:
    cli_options.check_paths([args.path])
    path = os.path.abspath(args.path)
    root = path if os.path.isdir(path) else os.path.dirname(path)
    resolved = cli_options.resolve(args, root)
    try:
        app = importlib.import_module(APP_MODULE)
    except ModuleNotFoundError as exc:
        if exc.name not in (APP_MODULE, "explorer.tui", "textual"):
            raise  # a bug inside the app, not a missing app
        error(f"the explorer is not available ({exc}); {USAGE_HINT}")
        return EXIT_FAILED
    # Pass the walk options when the app takes them (the file tree uses the same rules).
    accepted = inspect.signature(app.run).parameters
    extra: dict[str, object] = {}
    if "walk" in accepted:
        extra["walk"] = resolved.walk
    if "settings_path" in accepted:
        extra["settings_path"] = resolved.settings_path
    result = app.run(args.path, resolved.options, **extra)
    return result if isinstance(result, int) else EXIT_OK
