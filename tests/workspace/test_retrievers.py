"""The retriever factory: BM25 unless an endpoint is named; the key from the environment;
the vector cache where the user keeps caches."""

from __future__ import annotations

import pytest

from explorer.engine.retrieval.bm25 import BM25Retriever
from explorer.engine.retrieval.embeddings import EmbeddingRetriever
from explorer.engine.retrieval.hybrid import HybridRetriever
from explorer.workspace.retrievers import (
    RetrieverError,
    RetrieverSpec,
    close_retriever,
    default_cache_path,
    make_retriever,
)

ENDPOINT = {"embed_url": "http://127.0.0.1:9/v1", "embed_model": "m"}


def test_bm25_unless_an_endpoint_is_given():
    assert isinstance(make_retriever(RetrieverSpec()), BM25Retriever)
    assert RetrieverSpec(embed_url="http://x/v1").resolved_kind == "embeddings"


def test_embeddings_and_hybrid_open_a_cache_that_closing_releases(tmp_path):
    dense = make_retriever(RetrieverSpec(**ENDPOINT, cache=str(tmp_path / "c" / "v.sqlite")))
    assert isinstance(dense, EmbeddingRetriever) and (tmp_path / "c" / "v.sqlite").exists()
    close_retriever(dense)
    hybrid = make_retriever(RetrieverSpec(kind="hybrid", **ENDPOINT, keep_cache=False))
    assert isinstance(hybrid, HybridRetriever)
    close_retriever(hybrid)
    close_retriever(BM25Retriever())  # nothing to close


@pytest.mark.parametrize("spec, message", [
    (RetrieverSpec(embed_model="m"), "go with --retriever embeddings"),
    (RetrieverSpec(kind="hybrid"), "needs --embed-url and --embed-model"),
    (RetrieverSpec(**ENDPOINT, timeout=0), "--embed-timeout must be above 0"),
    (RetrieverSpec(**ENDPOINT, api_key_env="CHUNK_EXPLORER_TEST_UNSET_KEY"), "is not set"),
])
def test_what_cannot_make_a_retriever_says_which_flag(spec, message, monkeypatch):
    monkeypatch.delenv("CHUNK_EXPLORER_TEST_UNSET_KEY", raising=False)
    with pytest.raises(RetrieverError, match=message):
        make_retriever(spec)


def test_an_unusable_cache_is_refused(tmp_path):
    (tmp_path / "file").write_text("")
    with pytest.raises(RetrieverError, match="--embed-cache: cannot use"):
        make_retriever(RetrieverSpec(**ENDPOINT, cache=str(tmp_path / "file" / "v.sqlite")))


def test_the_default_cache_follows_xdg(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert default_cache_path() == str(tmp_path / "chunk-explorer" / "embeddings.sqlite")
