"""What the document service's workers report to the app (past-tense facts, stamped with
the load's generation: the app drops those of a superseded load)."""

from __future__ import annotations

import threading
from dataclasses import dataclass

from textual.message import Message

from .model import Chunking, Document


@dataclass
class FileOpened(Message):
    """A file was read, parsed and chunked."""

    document: Document
    #: True when this is a reload of the open file (keep the scroll position).
    reloaded: bool = False
    #: Set by the app once the document is on screen (a worker may wait for it).
    shown: threading.Event | None = None


@dataclass
class FileOpenFailed(Message):
    """A file could not be shown (binary, unreadable, gone, unsupported)."""

    path: str
    reason: str
    generation: int
    #: Refused only for its size: the user may open it anyway.
    too_large: bool = False


@dataclass
class ChunksReady(Message):
    """A re-chunking of the open file finished."""

    chunking: Chunking
    generation: int
    #: Which chunking run this is (the service starts the next pending one when it ends).
    run: int


@dataclass
class ChunkingFailed(Message):
    reason: str
    generation: int
    run: int
