"""Chunk Explorer: see, tune and teach how source code gets chunked for retrieval.

The engine (``explorer.engine``) is importable without Textual::

    import explorer
    chunks = explorer.chunk("src/app.py", source, max_size=1500)
"""

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .engine.api import Chunker, chunk, chunk_file, chunk_parsed, chunk_stream, languages
    from .engine.batch import BatchFile, BatchResult, chunk_batch, chunk_batch_stream
    from .engine.languages import detect_language
    from .engine.model import Chunk, Range
    from .engine.options import ChunkOptions
    from .engine.parse import UnsupportedLanguageError
    from .engine.text import BinaryContentError
    from .engine.trace import TraceStep, replay, trace

#: Where each public name lives: imported on first use, so that ``chunk-explorer --version``
#: (which imports this package first) never loads the engine and its grammars.
_HOMES = {
    "Chunker": "engine.api", "chunk": "engine.api", "chunk_file": "engine.api",
    "chunk_parsed": "engine.api", "chunk_stream": "engine.api", "languages": "engine.api",
    "BatchFile": "engine.batch", "BatchResult": "engine.batch", "chunk_batch": "engine.batch",
    "chunk_batch_stream": "engine.batch",
    "detect_language": "engine.languages",
    "Chunk": "engine.model", "Range": "engine.model",
    "ChunkOptions": "engine.options",
    "UnsupportedLanguageError": "engine.parse",
    "BinaryContentError": "engine.text",
    "TraceStep": "engine.trace", "replay": "engine.trace", "trace": "engine.trace",
}

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


def __getattr__(name: str) -> Any:
    # The version is read from the package metadata only when asked for (start-up stays fast).
    if name == "__version__":
        from .version import tool_version

        return tool_version()
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(f".{home}", __name__), name)
    globals()[name] = value  # the next use is a plain attribute
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
