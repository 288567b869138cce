"""What a retriever gives back, and the interface every retriever has."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from ..cancel import ShouldStop

#: ``on_progress(done, total)`` within one retrieval step (e.g. chunks embedded).
StepProgress = Callable[[int, int], None]


@dataclass(slots=True)
class Ranking:
    """``ids[q]``: the documents ranked for query ``q``, best first; -1 pads rows
    with fewer results (a query with no known token, or no document scoring
    above 0). ``notes``: counts worth reporting (e.g. chunks embedded or cached,
    chunks longer than the model's window)."""

    ids: np.ndarray
    notes: dict[str, int] = field(default_factory=dict)


class Retriever(Protocol):
    """Ranks documents for queries. ``name`` is shown in reports."""

    name: str

    def search(
        self,
        documents: Sequence[str],
        queries: Sequence[str],
        k: int,
        *,
        on_progress: StepProgress | None = None,
        should_stop: ShouldStop | None = None,
    ) -> Ranking: ...


def top_k(scores: np.ndarray, k: int) -> np.ndarray:
    """Row-wise indices of the ``k`` best scores, best first, ties by lower index;
    entries whose score is not above 0 are -1."""
    rows, columns = scores.shape
    k = min(k, columns)
    if k <= 0:
        return np.full((rows, 0), -1, dtype=np.int64)
    if k < columns:
        candidates = np.argpartition(-scores, k - 1, axis=1)[:, :k]
    else:
        candidates = np.broadcast_to(np.arange(columns), (rows, columns)).copy()
    picked = np.take_along_axis(scores, candidates, axis=1)
    order = np.lexsort((candidates, -picked), axis=1)
    ids = np.take_along_axis(candidates, order, axis=1).astype(np.int64)
    ids[np.take_along_axis(picked, order, axis=1) <= 0] = -1
    return ids
