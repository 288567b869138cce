"""Chunk Explorer: see, tune and teach how source code gets chunked for retrieval.

The engine (``explorer.engine``) is importable without Textual::

    import explorer
    chunks = explorer.chunk("src/app.py", source, max_size=1500)
"""

from .engine.api import Chunker, chunk, chunk_file, chunk_parsed, chunk_stream, languages
from .engine.batch import BatchFile, BatchResult, chunk_batch, chunk_batch_stream
from .engine.languages import detect_language
from .engine.model import Chunk, Range
from .engine.options import ChunkOptions
from .engine.parse import UnsupportedLanguageError
from .engine.text import BinaryContentError
from .engine.trace import TraceStep, replay, trace
from .version import tool_version

__all__ = [
    "BatchFile",
    "BatchResult",
    "BinaryContentError",
    "Chunk",
    "ChunkOptions",
    "Chunker",
    "Range",
    "UnsupportedLanguageError",
    "chunk",
    "chunk_batch",
    "chunk_batch_stream",
    "chunk_file",
    "chunk_parsed",
    "chunk_stream",
    "detect_language",
    "languages",
    "replay",
    "trace",
    "TraceStep",
    "__version__",
]


def __getattr__(name: str) -> str:
    # The version is read from the package metadata only when asked for (start-up stays fast).
    if name == "__version__":
        return tool_version()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
