"""The explorer's command line, ``chunk-explorer [PATH] [options]``: the same chunking,
walk and settings flags as the verbs, resolved the same way (defaults < settings file <
flags). The launcher (``explorer/__main__.py``) opens the explorer with the result; this
module never imports it."""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from dataclasses import dataclass

from ..engine.options import ChunkOptions
from ..workspace.walk import WalkOptions
from . import options as cli_options


@dataclass(frozen=True, slots=True)
class ExplorerLaunch:
    """What the explorer opens on: the path as given (a directory, or a file in its
    directory), the effective options and walk rules, and the settings file read."""

    path: str
    options: ChunkOptions
    walk: WalkOptions
    settings_path: str | None


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


def parse_explorer_args(argv: Sequence[str]) -> ExplorerLaunch:
    """Parse and resolve the explorer's command line. Raises SystemExit (``--help``, a
    flag argparse refuses) or UsageError."""
    args = build_parser().parse_args(argv)
    cli_options.check_paths([args.path])
    path = os.path.abspath(args.path)
    root = path if os.path.isdir(path) else os.path.dirname(path)
    resolved = cli_options.resolve(args, root)
    return ExplorerLaunch(args.path, resolved.options, resolved.walk, resolved.settings_path)
