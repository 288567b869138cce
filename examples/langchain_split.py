"""Chunk a directory into LangChain documents with the settings tuned in Chunk Explorer.

    pip install 'chunk-explorer[langchain]'
    python examples/langchain_split.py path/to/repo

Uses the .chunk-explorer.toml the CLI would use for the directory, walks it as
``chunk-explorer chunk`` does, and prints each document's id, path and lines.
"""

from __future__ import annotations

import sys

from explorer.integrations.langchain import ChunkExplorerLoader, ChunkExplorerTextSplitter


def main(path: str) -> None:
    splitter = ChunkExplorerTextSplitter.from_settings(path)
    documents = splitter.split_documents(ChunkExplorerLoader(path).load())
    for document in documents[:10]:
        meta = document.metadata
        print(f"{document.id}  {meta['path']}:{meta['line_start']}-{meta['line_end']}  {meta['scope']}")
    print(f"{len(documents)} documents (max_size {splitter.options.max_size} {splitter.options.size_unit})")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else ".")
