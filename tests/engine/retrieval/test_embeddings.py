"""The OpenAI-compatible embeddings retriever against a loopback server started here."""

from __future__ import annotations

import numpy as np
import pytest

from explorer.engine.options import ChunkOptions
from explorer.engine.retrieval import evaluate
from explorer.engine.retrieval.embeddings import (
    EmbeddingClient,
    EmbeddingEndpoint,
    EmbeddingError,
    EmbeddingRetriever,
    VectorCache,
)

from .loopback import EmbeddingServer

DOCS = ["alpha beta gamma", "delta epsilon kappa", "zeta eta theta", "iota lambda mu", "nu xi omicron pi"]


@pytest.fixture
def server():
    with EmbeddingServer() as running:
        yield running


def _retriever(server, cache=None, **endpoint):
    settings = {"batch_size": 2, "timeout": 5.0, "retries": 2, "backoff": 0.01, **endpoint}
    return EmbeddingRetriever(EmbeddingClient(EmbeddingEndpoint(server.url, "test-model", **settings), cache))


def test_ranks_by_similarity_in_batches_with_prefixes(server):
    retriever = _retriever(server, query_prefix="query: ", document_prefix="passage: ")
    ranking = retriever.search(DOCS, ["epsilon delta", "theta zeta"], 3)
    assert ranking.ids[:, 0].tolist() == [1, 2]
    assert server.paths == ["/v1/embeddings"] * 4  # 5 documents in batches of 2, then the 2 queries
    assert [len(r["input"]) for r in server.requests] == [2, 2, 1, 2]
    assert {r["model"] for r in server.requests} == {"test-model"}
    assert server.inputs[:5] == [f"passage: {d}" for d in DOCS]
    assert server.inputs[5:] == ["query: epsilon delta", "query: theta zeta"]
    assert ranking.notes == {"embedded": 7, "cached": 0}


def test_the_disk_cache_embeds_only_unseen_texts(server, tmp_path):
    path = str(tmp_path / "cache" / "vectors.sqlite")
    _retriever(server, VectorCache(path)).search(DOCS, ["beta"], 2)
    sent = len(server.inputs)
    again = _retriever(server, VectorCache(path)).search(DOCS + ["rho sigma"], ["beta"], 2)
    assert server.inputs[sent:] == ["rho sigma"]
    assert again.notes == {"embedded": 1, "cached": 6}
    other_model = EmbeddingRetriever(EmbeddingClient(EmbeddingEndpoint(server.url, "other"), VectorCache(path)))
    other_model.search(DOCS, ["beta"], 2)
    assert len(server.inputs) == sent + 1 + len(DOCS) + 1  # the cache is keyed by model too


def test_retries_on_server_errors_then_gives_up_with_a_message(server):
    server.fail_next = [503, 429]
    ranking = _retriever(server, retries=2).search(DOCS[:2], ["alpha"], 1)
    assert ranking.ids[0, 0] == 0 and len(server.requests) == 4  # two failures, then the 2 batches
    server.fail_next = [500, 500, 500]
    with pytest.raises(EmbeddingError, match=r"answered 500.*tried 3 times"):
        _retriever(server, retries=2).search(["new text"], ["q"], 1)


def test_a_client_error_is_not_retried(server):
    server.fail_next = [400]
    with pytest.raises(EmbeddingError, match="answered 400: .*failing with 400"):
        _retriever(server).search(DOCS, ["alpha"], 1)
    assert len(server.requests) == 1


def test_timeouts_are_reported(server):
    server.delay = 0.5
    with pytest.raises(EmbeddingError, match="no answer from .* within 0.2 s"):
        _retriever(server, timeout=0.2, retries=0).search(DOCS[:1], ["alpha"], 1)


def test_chunks_over_the_model_window_are_counted(server):
    ranking = _retriever(server, max_tokens=3).search(DOCS, ["alpha"], 1)
    assert ranking.notes["over_window"] == 1  # only "nu xi omicron pi" has more than 3 words


def test_the_api_key_goes_in_the_authorization_header(server):
    _retriever(server, api_key="sk-test").search(DOCS[:1], ["alpha"], 1)
    assert server.headers[0]["Authorization"] == "Bearer sk-test"


def test_no_built_in_host():
    with pytest.raises(ValueError, match="http:// or https://"):
        EmbeddingClient(EmbeddingEndpoint("localhost:11434", "m"))


def test_evaluation_with_the_embedding_retriever(server, tmp_path):
    files = [("a.py", b'def parse_header(line):\n    """Split one mail header line into its name and value parts."""\n'
                      b'    name, _, value = line.partition(":")\n    return name.strip(), value.strip()\n\n\n'
                      b'def send_mail(host, message):\n    """Open an SMTP connection to the host and deliver the message."""\n'
                      b'    connection = smtp_connect(host)\n    connection.deliver(message)\n')]
    result = evaluate(files, [ChunkOptions(max_size=60, context_mode="none")], retriever=_retriever(server), jobs=1)
    assert result.retriever == "embeddings" and len(result.queries) == 2
    assert result.settings[0].notes["embedded"] > 0
    assert all("Split one mail header" not in text for text in server.inputs[:-2])  # docs were masked
    assert server.inputs[-2:] == [q.text for q in result.queries]


# -- hybrid: BM25 and the endpoint fused by reciprocal rank ------------------------------
def test_reciprocal_rank_fusion_rewards_agreement_and_breaks_ties_by_the_first_ranking():
    from explorer.engine.retrieval.hybrid import fuse

    lexical = np.array([[0, 1, 2, -1], [3, -1, -1, -1]])
    dense = np.array([[4, 1, 2, 0], [-1, -1, -1, -1]])
    fused = fuse([lexical, dense], 4, rrf_k=60)
    # 1 is second in both: 2/62 beats 0 (1/61 + 1/64), 2 (2/63) and 4 (1/61 alone)
    assert fused[0].tolist() == [1, 0, 2, 4]
    assert fused[1].tolist() == [3, -1, -1, -1]
    # a small k lets a first place outweigh agreement: 0 (1/1.5 + 1/4.5) before 1 (2/2.5)
    assert fuse([lexical, dense], 2, rrf_k=0.5)[0].tolist() == [0, 1]
    # equal scores: the first ranking's order decides
    assert fuse([np.array([[5, 6]]), np.array([[6, 5]])], 2)[0].tolist() == [5, 6]


def test_hybrid_retriever_uses_the_endpoint_with_its_cache_and_batches(server, tmp_path):
    from explorer.engine.retrieval.bm25 import BM25Retriever
    from explorer.engine.retrieval.hybrid import HybridRetriever

    cache = VectorCache(str(tmp_path / "v.sqlite"))
    hybrid = HybridRetriever(BM25Retriever(), _retriever(server, cache), rrf_k=60)
    ranking = hybrid.search(DOCS, ["epsilon delta", "zeta"], 3)
    assert ranking.ids[:, 0].tolist() == [1, 2]  # both retrievers agree
    assert [len(r["input"]) for r in server.requests] == [2, 2, 1, 2]  # batches of 2
    assert ranking.notes == {"embedded": 7, "cached": 0}
    again = HybridRetriever(BM25Retriever(), _retriever(server, cache)).search(DOCS, ["epsilon delta", "zeta"], 3)
    assert again.notes == {"embedded": 0, "cached": 7} and (again.ids == ranking.ids).all()
    server.fail_next = [503]
    retried = HybridRetriever(BM25Retriever(), _retriever(server, retries=1)).search(DOCS[:2], ["alpha"], 2)
    assert retried.ids[0, 0] == 0


def test_hybrid_evaluation_end_to_end(server):
    from explorer.engine.retrieval.bm25 import BM25Retriever
    from explorer.engine.retrieval.hybrid import HybridRetriever

    files = [("a.py", b'def area(width, height):\n    """Compute the area of a rectangle from its sides."""\n'
                      b'    return width * height\n'),
             ("b.py", b'def greet(name):\n    """Say hello to somebody by their given name."""\n'
                      b'    return "hello " + name\n')]
    result = evaluate(files, [ChunkOptions(max_size=200)], retriever=HybridRetriever(BM25Retriever(), _retriever(server)))
    assert result.retriever == "hybrid" and len(result.queries) == 2
    assert result.settings[0].metrics["recall@1"].value == 1.0
