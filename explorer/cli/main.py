"""The headless CLI: ``chunk-explorer COMMAND ...`` (the launcher, ``explorer/__main__.py``,
sends a command line here when it names a command, and opens the explorer otherwise).

Each verb lives in its own module exposing ``NAME``, ``HELP``, ``register(subparsers)``
(which sets ``run`` as the parser default) and ``run(args) -> exit status``. A verb's
module is imported only when that verb runs (or for ``--help``): ``--version`` and
``chunk`` in a hook never load what ``eval`` needs (numpy, the retrievers).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from types import ModuleType

from ..version import tool_version
from ..workspace.atomic import OutputError
from .errors import EXIT_FAILED, EXIT_INTERRUPTED, EXIT_TERMINATED, EXIT_USAGE, MissingExtra, Terminated, UsageError
from .verbs import SUMMARIES, VERB_NAMES


def verb_module(name: str) -> ModuleType:
    """The module of a verb, imported now."""
    match name:
        case "chunk":
            from . import chunk_cmd
            return chunk_cmd
        case "stats":
            from . import stats_cmd
            return stats_cmd
        case "languages":
            from . import languages_cmd
            return languages_cmd
        case "sweep":
            from . import sweep_cmd
            return sweep_cmd
        case "eval":
            from . import eval_cmd
            return eval_cmd
        case "report":
            from . import report_cmd
            return report_cmd
        case "serve":
            from . import serve_cmd
            return serve_cmd
    raise KeyError(name)


def build_parser(verbs: Sequence[str] = VERB_NAMES, *, listed: Sequence[str] = ()) -> argparse.ArgumentParser:
    """The top-level parser with the subparsers of ``verbs`` (all of them by default), and
    ``listed`` verbs only named with their summary (enough for ``--help``, no module imported)."""
    parser = argparse.ArgumentParser(
        prog="chunk-explorer",
        usage="chunk-explorer [PATH] [options]\n       chunk-explorer COMMAND ...",
        description="See, tune and teach how source code gets chunked for retrieval. "
                    "With no command (or a PATH) it opens the explorer; the commands run headless.",
        epilog="`chunk-explorer COMMAND --help` describes each command; "
               "`chunk-explorer . --help` the explorer's options.",
    )
    parser.add_argument("--version", action="version", version=f"chunk-explorer {tool_version()}")
    subparsers = parser.add_subparsers(title="commands", metavar="COMMAND", prog="chunk-explorer",
                                       dest="command", required=True)
    for name in verbs:
        verb_module(name).register(subparsers)
    for name in listed:
        subparsers.add_parser(name, help=SUMMARIES[name])
    return parser


def is_command(argv: Sequence[str]) -> bool:
    """Whether a command line is for the CLI (a verb, ``--help``, ``--version``), not the explorer."""
    return bool(argv) and (argv[0] in VERB_NAMES or argv[0] in ("-h", "--help", "--version"))


def main(argv: Sequence[str] | None = None) -> int:
    """Run a command; returns the exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    with _sigterm_raises():
        return guarded(lambda: _run_command(args))


@contextlib.contextmanager
def _sigterm_raises() -> Iterator[None]:
    """While a command runs, SIGTERM (``kill PID``, a time-out of the caller) raises
    :class:`Terminated` instead of ending the process on the spot, so it cleans up."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def terminated(signum: int, frame: object) -> None:
        raise Terminated

    previous = signal.signal(signal.SIGTERM, terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _run_command(argv: list[str]) -> int:
    first = argv[0] if argv else None
    # Only the verb named is loaded; --help lists them all by their summaries; --version needs none.
    if first in VERB_NAMES:
        parser = build_parser((first,))
    else:
        parser = build_parser((), listed=() if first == "--version" else VERB_NAMES)
    args, extras = parser.parse_known_args(argv)
    # serve passes PATH and the explorer's own flags on to every visitor's app (it checks them);
    # any other verb refuses what it does not know, as parse_args would.
    if extras and not getattr(args, "explorer_flags", False):
        parser.error(f"unrecognized arguments: {' '.join(extras)}")
    args.explorer_argv = extras
    status: int = args.run(args)
    return status


def guarded(run: Callable[[], int]) -> int:
    """``run()``'s exit status, with the errors every command line can meet turned into
    a message on stderr and their exit status."""
    try:
        return run()
    except SystemExit as exc:  # argparse: --help (0) or a usage error (2, message printed)
        return exc.code if isinstance(exc.code, int) else EXIT_USAGE
    except UsageError as exc:
        _error(str(exc))
        return EXIT_USAGE
    except (OutputError, MissingExtra) as exc:
        _error(str(exc))
        return EXIT_FAILED
    except Terminated:
        _error("terminated (an -o file is only written by a finished run: nothing was replaced)")
        return EXIT_TERMINATED
    except KeyboardInterrupt:
        _error("interrupted (an -o file is only written by a finished run: nothing was replaced)")
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader went away (e.g. `| head`): stop quietly.
        _silence_stdout()
        return EXIT_FAILED


def _error(message: str) -> None:
    # Imported when needed: the report's formatting is not part of a `--version` start-up.
    from .report import error

    error(message)


def _silence_stdout() -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
