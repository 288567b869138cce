"""Means with 95% bootstrap intervals over queries, and paired differences.

The same resampled query sets (a fixed seed) serve every setting and measure, so
a difference between two settings is computed per resample on the same queries
(paired): its interval is much narrower than the two intervals suggest. A
difference is called real (``separated``) only when its interval excludes 0.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

DEFAULT_RESAMPLES = 1000
DEFAULT_SEED = 0
CONFIDENCE = 0.95
#: Resample index matrices up to this many entries are kept between estimates.
_KEEP_ENTRIES = 8_000_000
_BLOCK = 100


@dataclass(frozen=True, slots=True)
class Estimate:
    """A mean (or mean difference) and its bootstrap interval."""

    value: float
    low: float
    high: float

    @property
    def separated(self) -> bool:
        """The interval excludes 0 (for a difference: a real one)."""
        return self.low > 0 or self.high < 0

    def to_dict(self, digits: int = 4) -> dict[str, object]:
        return {"value": round(self.value, digits), "ci": [round(self.low, digits), round(self.high, digits)]}


class Bootstrap:
    """Resamples of ``n`` queries, drawn once from ``seed``."""

    def __init__(self, n: int, *, resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED,
                 confidence: float = CONFIDENCE):
        if resamples < 1:
            raise ValueError(f"resamples must be >= 1, not {resamples}")
        self.n, self.resamples, self.seed = n, resamples, seed
        self.tails = (100 * (1 - confidence) / 2, 100 * (1 + confidence) / 2)
        self._kept: list[np.ndarray] | None = None
        if n * resamples <= _KEEP_ENTRIES:
            self._kept = list(self._draw())

    def _draw(self) -> Iterator[np.ndarray]:
        rng = np.random.default_rng(self.seed)
        for start in range(0, self.resamples, _BLOCK):
            yield rng.integers(0, self.n, size=(min(_BLOCK, self.resamples - start), self.n), dtype=np.int32)

    def _blocks(self) -> Iterator[np.ndarray]:
        return iter(self._kept) if self._kept is not None else self._draw()

    def estimate(self, values: np.ndarray) -> Estimate:
        """The mean of per-query ``values`` and its interval."""
        values = np.asarray(values, dtype=np.float64)
        if len(values) != self.n:
            raise ValueError(f"expected {self.n} values, got {len(values)}")
        if self.n == 0:
            return Estimate(0.0, 0.0, 0.0)
        means = np.concatenate([values[block].mean(axis=1) for block in self._blocks()])
        low, high = np.percentile(means, self.tails)
        return Estimate(float(values.mean()), float(low), float(high))

    def paired(self, values: np.ndarray, reference: np.ndarray) -> Estimate:
        """The mean difference ``values - reference`` (same queries) and its interval."""
        return self.estimate(np.asarray(values, dtype=np.float64) - np.asarray(reference, dtype=np.float64))
