"""Hybrid retrieval: BM25 and the embedding model's rankings fused by reciprocal rank.

Production code search fuses full-text and vector search (claude-context fuses BM25
and dense results with RRF; Cursor and Continue combine both), so settings are best
tuned under the same fusion. Reciprocal rank fusion scores a document
``sum over retrievers of 1 / (k + rank)`` (rank 1-based; a retriever that did not rank
it adds nothing) and needs no score calibration between the two. ``k`` (60 in the
original paper) flattens the head: a larger ``k`` lets agreement between the two
matter more than a single first place. Ties go to the document BM25 ranked higher,
then the lower id, so the fused order is deterministic. The embedding side is the
:class:`~.embeddings.EmbeddingRetriever` as is: its cache, batching and retries.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..cancel import ShouldStop
from .ranking import Ranking, Retriever, StepProgress

DEFAULT_RRF_K = 60
#: Each side is ranked this many times deeper than asked (at least 100), so a document
#: ranked well by one side and modestly by the other is still seen by both.
DEPTH_FACTOR = 2


def fuse(rankings: Sequence[np.ndarray], depth: int, rrf_k: float = DEFAULT_RRF_K) -> np.ndarray:
    """Row-wise reciprocal rank fusion of id matrices (-1 pads); the ``depth`` best ids
    per row, -1 padded. Ties: the earlier ranking's better rank, then the lower id."""
    rows = rankings[0].shape[0] if rankings else 0
    out = np.full((rows, max(0, depth)), -1, dtype=np.int64)
    for q in range(rows):
        scores: dict[int, float] = {}
        first_rank: dict[int, tuple[int, int]] = {}
        for which, ranking in enumerate(rankings):
            for position, doc in enumerate(ranking[q]):
                if doc < 0:
                    continue
                doc = int(doc)
                scores[doc] = scores.get(doc, 0.0) + 1.0 / (rrf_k + position + 1)
                first_rank.setdefault(doc, (which, position))
        best = sorted(scores, key=lambda d: (-scores[d], first_rank[d], d))[:depth]
        out[q, : len(best)] = best
    return out


class HybridRetriever:
    """BM25 and an embedding retriever, fused with RRF (``rrf_k``: the constant ``k``)."""

    name = "hybrid"

    def __init__(self, lexical: Retriever, dense: Retriever, *, rrf_k: float = DEFAULT_RRF_K):
        if rrf_k <= 0:
            raise ValueError(f"the RRF constant must be above 0, not {rrf_k!r}")
        self.lexical, self.dense, self.rrf_k = lexical, dense, rrf_k
        self.client = getattr(dense, "client", None)  # closed by the caller, as for embeddings

    def search(
        self,
        documents: Sequence[str],
        queries: Sequence[str],
        k: int,
        *,
        on_progress: StepProgress | None = None,
        should_stop: ShouldStop | None = None,
    ) -> Ranking:
        deeper = min(len(documents), max(100, DEPTH_FACTOR * k)) if documents else k
        lexical = self.lexical.search(documents, queries, deeper, should_stop=should_stop)
        dense = self.dense.search(documents, queries, deeper, on_progress=on_progress, should_stop=should_stop)
        ids = fuse([lexical.ids, dense.ids], max(0, k), self.rrf_k)
        return Ranking(ids, {**lexical.notes, **dense.notes})
