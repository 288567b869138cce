"""Descriptors this process keeps from the workers it starts (a state file's lock: a forked
worker would hold it too, and keep it after this process dies).

Apart from the runner (:mod:`.local`, which closes them in every new worker) so that a run
that starts no worker, as an unchanged ``--state`` run, need not import multiprocessing.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

#: Closed first thing in every worker forked while they are listed.
PARENT_ONLY: set[int] = set()


@contextlib.contextmanager
def kept_from_workers(fd: int) -> Iterator[None]:
    """While the block runs, workers started by this process close ``fd`` first thing
    (``fork`` copies every descriptor, whatever its close-on-exec flag)."""
    PARENT_ONLY.add(fd)
    try:
        yield
    finally:
        PARENT_ONLY.discard(fd)
