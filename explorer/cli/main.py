"""``chunk-explorer``: the explorer with no verb, headless verbs otherwise.

Each verb lives in its own module exposing ``NAME``, ``register(subparsers)`` (which
sets ``run`` as the parser default) and ``run(args) -> exit status``.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from types import ModuleType

from ..version import tool_version
from ..workspace.export import OutputError
from . import chunk_cmd, eval_cmd, languages_cmd, stats_cmd, sweep_cmd, tui_cmd
from .errors import EXIT_FAILED, EXIT_INTERRUPTED, EXIT_USAGE, UsageError
from .report import error

VERBS: tuple[ModuleType, ...] = (chunk_cmd, stats_cmd, languages_cmd, sweep_cmd, eval_cmd)


def build_parser(verbs: Sequence[ModuleType] | None = None) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="chunk-explorer",
        usage="chunk-explorer [PATH] [options]\n       chunk-explorer COMMAND ...",
        description="See, tune and teach how source code gets chunked for retrieval. "
                    "With no command (or a PATH) it opens the explorer; the commands run headless.",
        epilog="`chunk-explorer COMMAND --help` describes each command; "
               "`chunk-explorer . --help` the explorer's options.",
    )
    parser.add_argument("--version", action="version", version=f"chunk-explorer {tool_version()}")
    subparsers = parser.add_subparsers(title="commands", metavar="COMMAND", prog="chunk-explorer")
    for verb in VERBS if verbs is None else verbs:
        verb.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    modules = VERBS
    parser = build_parser(modules)
    verbs = {module.NAME for module in modules}
    try:
        if argv and (argv[0] in verbs or argv[0] in ("-h", "--help", "--version")):
            args = parser.parse_args(argv)
            return args.run(args)
        args = tui_cmd.build_parser().parse_args(argv)
        return tui_cmd.run(args)
    except SystemExit as exc:  # argparse: --help (0) or a usage error (2, message printed)
        return exc.code if isinstance(exc.code, int) else EXIT_USAGE
    except UsageError as exc:
        error(str(exc))
        return EXIT_USAGE
    except OutputError as exc:
        error(str(exc))
        return EXIT_FAILED
    except KeyboardInterrupt:
        error("interrupted (an -o file is only written by a finished run: nothing was replaced)")
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader went away (e.g. `| head`): stop quietly.
        _silence_stdout()
        return EXIT_FAILED


def _silence_stdout() -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


if __name__ == "__main__":
    sys.exit(main())
