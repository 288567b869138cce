"""Which retriever an evaluation ranks with, built from a :class:`RetrieverSpec`: BM25
(offline), the user's embedding model behind an OpenAI-compatible endpoint (vectors cached
on disk), or both fused by reciprocal rank. This is where the cache file is opened and the
API key is read from the environment (never from a settings file), for the CLI's ``eval``
and any view that evaluates with the user's own model.

The spec's fields are the ``eval`` flags; the messages of :class:`RetrieverError` name them.
"""

from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass
from typing import Literal

from ..engine.retrieval.hybrid import DEFAULT_RRF_K
from ..engine.retrieval.ranking import Retriever
from .cache_dir import cache_file

RetrieverKind = Literal["bm25", "embeddings", "hybrid"]
RETRIEVER_KINDS: tuple[RetrieverKind, ...] = ("bm25", "embeddings", "hybrid")


class RetrieverError(ValueError):
    """The spec cannot make a retriever (a missing model, an unset key, an unusable cache)."""


@dataclass(frozen=True, slots=True)
class RetrieverSpec:
    """A retriever to build. ``kind=None``: embeddings when an endpoint is given, else BM25.
    ``cache=None``: the default cache file (:func:`default_cache_path`); ``keep_cache=False``:
    vectors for this run only."""

    kind: RetrieverKind | None = None
    embed_url: str | None = None
    embed_model: str | None = None
    api_key_env: str | None = None  # the name of the environment variable holding the key
    batch_size: int = 32
    timeout: float = 60.0
    retries: int = 3
    query_prefix: str = ""
    document_prefix: str = ""
    max_tokens: int | None = None
    cache: str | None = None
    keep_cache: bool = True
    rrf_k: float = DEFAULT_RRF_K

    @property
    def resolved_kind(self) -> RetrieverKind:
        return self.kind or ("embeddings" if self.embed_url else "bm25")


def make_retriever(spec: RetrieverSpec, tokenizer: str | None = None) -> Retriever:
    """The retriever ``spec`` describes; ``tokenizer`` counts chunks against the model's
    window. Close it with :func:`close_retriever`. Raises RetrieverError."""
    from ..engine.retrieval.bm25 import BM25Retriever

    kind = spec.resolved_kind
    if kind == "bm25":
        if spec.embed_url or spec.embed_model:
            raise RetrieverError("--embed-url and --embed-model go with --retriever embeddings or hybrid")
        return BM25Retriever()
    if not spec.embed_url or not spec.embed_model:
        raise RetrieverError(f"the {kind} retriever needs --embed-url and --embed-model")
    if spec.timeout <= 0:
        raise RetrieverError("--embed-timeout must be above 0")
    from ..engine.retrieval.embeddings import EmbeddingClient, EmbeddingEndpoint, EmbeddingRetriever, VectorCache

    api_key = None
    if spec.api_key_env:
        api_key = os.environ.get(spec.api_key_env)
        if not api_key:
            raise RetrieverError(f"--embed-api-key-env: the environment variable {spec.api_key_env} is not set")
    endpoint = EmbeddingEndpoint(
        spec.embed_url, spec.embed_model, api_key=api_key, batch_size=spec.batch_size,
        timeout=spec.timeout, retries=spec.retries, query_prefix=spec.query_prefix,
        document_prefix=spec.document_prefix, max_tokens=spec.max_tokens, tokenizer=tokenizer,
    )
    cache_path = (spec.cache or default_cache_path()) if spec.keep_cache else None
    try:
        cache = VectorCache(cache_path)
    except (OSError, sqlite3.Error) as exc:  # an unusable cache file or directory
        raise RetrieverError(f"--embed-cache: cannot use {cache_path}: {exc}") from None
    dense = EmbeddingRetriever(EmbeddingClient(endpoint, cache))
    if kind == "hybrid":
        from ..engine.retrieval.hybrid import HybridRetriever

        return HybridRetriever(BM25Retriever(), dense, rrf_k=spec.rrf_k)
    return dense


def close_retriever(retriever: Retriever) -> None:
    """Close an embedding retriever's connection and cache (BM25 holds none)."""
    close = getattr(getattr(retriever, "client", None), "close", None)
    if close is not None:
        close()


def default_cache_path() -> str | None:
    """``$XDG_CACHE_HOME/chunk-explorer/embeddings.sqlite`` (``~/.cache`` when unset); None
    when the disk cache is off (:mod:`.cache_dir`)."""
    return cache_file("embeddings.sqlite")
