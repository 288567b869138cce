"""Messages: facts that flow up from widgets and workers, named in the past tense."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

from textual.message import Message

from explorer.engine.options import ChunkOptions

from .state import Chunking, Document


# -- from the file tree -------------------------------------------------------------
@dataclass
class FileChosen(Message):
    """The user picked a file to open."""

    path: str


# -- from workers ---------------------------------------------------------------------
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


@dataclass
class FilesChangedOnDisk(Message):
    """watchfiles saw changes under the explored directory: (change name, path) pairs."""

    changes: list[tuple[str, str]]


@dataclass
class ExportProgressed(Message):
    done: int
    total: int

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, ExportProgressed)


@dataclass
class ExportFinished(Message):
    path: str
    files: int
    chunks: int
    failed: int = 0


@dataclass
class ExportFailed(Message):
    path: str
    reason: str


# -- from the panes -------------------------------------------------------------------
@dataclass
class OptionsChanged(Message):
    """The user changed chunking parameters."""

    options: ChunkOptions


@dataclass
class SettingChosen(Message):
    """The user chose a setting (in the sweep panel) to use, and perhaps to save."""

    options: ChunkOptions
    #: Also write it to the settings file.
    save: bool = False


@dataclass
class ChunkSelected(Message):
    """A chunk was picked in the chunk list."""

    index: int


@dataclass
class AstNodeSelected(Message):
    """A syntax node was picked in the AST pane (byte range, end exclusive)."""

    start_byte: int
    end_byte: int


@dataclass
class AnonymousNodesToggled(Message):
    """The AST pane now shows (or hides) anonymous nodes."""

    shown: bool


@dataclass
class EntitySelected(Message):
    """An entity was picked in the scope pane."""

    start_byte: int
    end_byte: int
    entity: Any


@dataclass
class SourceCursorMoved(Message):
    """The cursor in the source view moved (line and character column, 0-based)."""

    line: int
    column: int
    byte: int

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, SourceCursorMoved)
