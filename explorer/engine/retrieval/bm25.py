"""BM25 over code tokens, with bm25s (numpy only, fast, well kept)."""

from __future__ import annotations

from collections.abc import Sequence

import bm25s
import numpy as np

from ..cancel import ShouldStop, stop_if_asked
from .code_tokens import CodeTokenizer
from .ranking import Ranking, StepProgress

#: Documents tokenized, or queries ranked, between two ``should_stop`` checks.
STOP_CHECK_EVERY = 2000


class BM25Retriever:
    """bm25s's default BM25 (Lucene variant, k1=1.5, b=0.75) over :class:`CodeTokenizer` tokens.
    ``should_stop`` is asked between batches of documents and of queries
    (:class:`~explorer.engine.cancel.Cancelled` when it says so)."""

    name = "bm25"

    def __init__(self, tokenizer: CodeTokenizer | None = None, *, k1: float = 1.5, b: float = 0.75):
        self.tokenizer = tokenizer or CodeTokenizer()
        self.k1, self.b = k1, b

    def search(
        self,
        documents: Sequence[str],
        queries: Sequence[str],
        k: int,
        *,
        on_progress: StepProgress | None = None,
        should_stop: ShouldStop | None = None,
    ) -> Ranking:
        ids = np.full((len(queries), max(0, k)), -1, dtype=np.int64)
        if not documents or not queries or k <= 0:
            return Ranking(ids)
        tokens = self.tokenizer.tokens
        vocab: dict[str, int] = {}
        corpus_ids: list[list[int]] = []
        for start in range(0, len(documents), STOP_CHECK_EVERY):
            stop_if_asked(should_stop)
            corpus_ids += [[vocab.setdefault(t, len(vocab)) for t in tokens(text)]
                           for text in documents[start : start + STOP_CHECK_EVERY]]
        vocab.setdefault("", len(vocab))  # lets bm25s score a document without tokens
        index = bm25s.BM25(k1=self.k1, b=self.b)
        index.index((corpus_ids, vocab), show_progress=False)
        query_ids = [[vocab[t] for t in tokens(text) if t in vocab] for text in queries]
        asked = [i for i, q in enumerate(query_ids) if q]  # a query with no known token finds nothing
        depth = min(k, len(documents))
        # Each query is ranked on its own: asking them a batch at a time gives the same rows.
        for start in range(0, len(asked), STOP_CHECK_EVERY):
            stop_if_asked(should_stop)
            batch = asked[start : start + STOP_CHECK_EVERY]
            found, scores = index.retrieve([query_ids[i] for i in batch], k=depth, show_progress=False)
            ids[np.asarray(batch), :depth] = np.where(scores > 0, found, -1)
        if on_progress is not None:
            on_progress(len(queries), len(queries))
        return Ranking(ids)
