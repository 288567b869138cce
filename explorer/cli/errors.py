"""Exit statuses and the error that means "the command line is wrong"."""

from __future__ import annotations

EXIT_OK = 0
EXIT_FAILED = 1  # the run went through but some files failed (or output could not be written)
EXIT_USAGE = 2  # bad flags, paths, settings: nothing was done
EXIT_INTERRUPTED = 130
EXIT_TERMINATED = 143  # 128 + SIGTERM, as a shell reports a process ended by it


class Terminated(BaseException):
    """SIGTERM arrived: raised where the command was, so every cleanup on the way out runs
    (workers stopped, temporary files removed, locks released). Not an Exception: nothing
    that handles a file's error may swallow it."""


class UsageError(Exception):
    """A problem with what the user asked for; the message says what to do instead."""


class MissingExtra(Exception):
    """A command needs packages of an optional extra that are not installed."""


def require_extra(extra: str, *modules: str) -> None:
    """Raise MissingExtra (the message says what to install) unless every module can be imported."""
    from importlib.util import find_spec

    missing = [name for name in modules if find_spec(name) is None]
    if missing:
        raise MissingExtra(f"this needs {', '.join(missing)}, of the {extra} extra: "
                           f"pip install 'chunk-explorer[{extra}]'")
