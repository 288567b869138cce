"""Reading a walked codebase into memory: ``(relative path, bytes)`` pairs for the engine.

The retrieval evaluation needs every file's bytes in this process (to map chunks back
through masking and to show spans), so files are read here, once, with the safe
reader (regular files only, capped); whatever cannot be read becomes a
:class:`~.walk.Skipped` record instead of an error.
"""

from __future__ import annotations

from ..engine.batch.skips import SkipReason
from ..engine.files import FileTooLargeError, NotRegularFileError, UnreadableFileError, read_chunked_file
from .walk import Skipped, WalkPlan


def read_sources(files_plan: WalkPlan, max_bytes: int) -> tuple[list[tuple[str, bytes]], list[Skipped]]:
    """The planned files' ``(rel, content)`` in plan order, and the ones that could not be read."""
    sources: list[tuple[str, bytes]] = []
    skipped: list[Skipped] = []
    for walked in files_plan.files:
        try:
            sources.append((walked.rel, read_chunked_file(walked.path, max_bytes)))
        except FileTooLargeError as exc:
            skipped.append(Skipped(walked.path, walked.rel, SkipReason.TOO_LARGE, False, exc.detail))
        except NotRegularFileError as exc:
            skipped.append(Skipped(walked.path, walked.rel, SkipReason.NOT_REGULAR, False, exc.reason))
        except (UnreadableFileError, OSError) as exc:
            skipped.append(Skipped(walked.path, walked.rel, SkipReason.UNREADABLE, False, str(exc)))
    return sources, skipped
