"""The explorer's command line, ``chunk-explorer [PATH] [options]``: the same chunking,
walk and settings flags as the verbs, resolved the same way (defaults < settings file <
flags). The launcher (``explorer/__main__.py``) opens the explorer with the result; this
module never imports it."""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from dataclasses import dataclass, replace

from ..engine.options import ChunkOptions
from ..workspace.walk import WalkOptions
from . import options as cli_options
from .errors import UsageError


@dataclass(frozen=True, slots=True)
class ExplorerLaunch:
    """What the explorer opens on: the path as given (a directory, or a file in its
    directory), the effective options and walk rules, and the settings file read."""

    path: str
    options: ChunkOptions
    walk: WalkOptions
    settings_path: str | None
    #: ``--teach FILE``: teach mode on this file at start, in its presentation layout.
    teach: str | None = None
    #: Set by ``chunk-explorer serve`` for each visitor's app: reads confined to PATH, writes
    #: to ``write_to`` only (None: none), ``open`` the file to show first.
    served: bool = False
    write_to: str | None = None
    open: str | None = None


def build_parser(prog: str = "chunk-explorer") -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=prog,
        description="Open the explorer on a directory (default: the current one) or a file.",
    )
    parser.add_argument("path", nargs="?", default=".", metavar="PATH",
                        help="directory to explore, or a file to open in its directory")
    parser.add_argument("--teach", metavar="FILE",
                        help="start in teach mode on FILE (under PATH), in its presentation layout")
    cli_options.add_chunk_options(parser)
    cli_options.add_walk_options(parser)
    cli_options.add_settings_options(parser)
    # What `chunk-explorer serve` starts each visitor's app with (not for the command line).
    parser.add_argument("--served", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--write-to", metavar="DIR", help=argparse.SUPPRESS)
    parser.add_argument("--open", metavar="FILE", help=argparse.SUPPRESS)
    return parser


def parse_explorer_args(argv: Sequence[str]) -> ExplorerLaunch:
    """Parse and resolve the explorer's command line. Raises SystemExit (``--help``, a
    flag argparse refuses) or UsageError."""
    args = build_parser().parse_args(argv)
    cli_options.check_paths([args.path] + [p for p in (args.teach, args.open) if p])
    path = os.path.abspath(args.path)
    root = path if os.path.isdir(path) else os.path.dirname(path)
    if args.teach and not os.path.isfile(args.teach):
        raise UsageError(f"--teach {args.teach}: not a file")
    resolved = cli_options.resolve(args, root)
    walk = resolved.walk
    if args.served and walk.follow_symlinks:
        walk = replace(walk, follow_symlinks=False)  # a served explorer reads nothing outside PATH
    return ExplorerLaunch(args.path, resolved.options, walk, resolved.settings_path, teach=args.teach,
                          served=args.served, write_to=args.write_to, open=args.open)
