"""Adapters for retrieval frameworks, imported only when used: the chunks, ids and
settings of the CLI, in the framework's own types.

- :mod:`explorer.integrations.langchain`: a LangChain ``TextSplitter`` and a directory
  document loader (``pip install 'chunk-explorer[langchain]'``).
- :mod:`explorer.integrations.llamaindex`: a LlamaIndex ``NodeParser``
  (``pip install 'chunk-explorer[llamaindex]'``).

Nothing here is imported by ``import explorer``; the frameworks are imported by the
adapter modules only.
"""
