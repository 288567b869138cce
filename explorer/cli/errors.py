"""Exit statuses and the error that means "the command line is wrong"."""

from __future__ import annotations

EXIT_OK = 0
EXIT_FAILED = 1  # the run went through but some files failed (or output could not be written)
EXIT_USAGE = 2  # bad flags, paths, settings: nothing was done
EXIT_INTERRUPTED = 130


class UsageError(Exception):
    """A problem with what the user asked for; the message says what to do instead."""
