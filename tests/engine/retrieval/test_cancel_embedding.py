"""Embedding a corpus stops between two requests once the caller says stop."""

from __future__ import annotations

import pytest

from explorer.engine.cancel import Cancelled
from explorer.engine.retrieval.embeddings import EmbeddingClient, EmbeddingEndpoint, EmbeddingRetriever

from .loopback import EmbeddingServer

DOCS = [f"document number {i} about topic {i % 3}" for i in range(10)]


@pytest.fixture
def server():
    with EmbeddingServer() as running:
        yield running


def retriever(server) -> EmbeddingRetriever:
    endpoint = EmbeddingEndpoint(server.url, "test-model", batch_size=2, timeout=5.0, retries=0)
    return EmbeddingRetriever(EmbeddingClient(endpoint))


@pytest.mark.parametrize("after", [0, 1, 3])
def test_embedding_stops_mid_way_after_the_requests_already_made(server, after):
    asked = []

    def should_stop() -> bool:
        asked.append(True)
        return len(asked) > after

    with pytest.raises(Cancelled):
        retriever(server).search(DOCS, ["topic 1"], 3, should_stop=should_stop)
    assert len(server.requests) == after  # 5 batches of 2 documents planned; stopped before batch after+1


def test_embedding_that_is_not_stopped_makes_every_request(server):
    ranking = retriever(server).search(DOCS, ["topic 1"], 3, should_stop=lambda: False)
    assert len(server.requests) == 6  # 5 document batches and 1 query batch
    assert ranking.ids.shape == (1, 3)
