"""The user's embedding model, through any OpenAI-compatible ``POST /v1/embeddings``.

Ollama, Hugging Face TEI, vLLM, llama.cpp (``--embeddings``) and OpenAI all take
``{"model": ..., "input": [...]}`` and answer ``{"data": [{"embedding": [...],
"index": i}]}``. Texts go in batches, with a timeout and retries (with back-off)
on connection errors, timeouts, 429 and 5xx. Asymmetric models get their query
and document prefixes. Vectors are cached on disk (SQLite), keyed by the model and
a hash of the exact text sent, so a sweep only embeds the chunks it has not seen.
No host is built in: the caller gives the URL.
"""

from __future__ import annotations

import hashlib
import os
import re
import sqlite3
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import httpx
import numpy as np

from ..cancel import ShouldStop, stop_if_asked
from ..tokens import get_counter
from .ranking import Ranking, StepProgress, top_k

_PIECE = re.compile(r"\w+|[^\w\s]")


class EmbeddingError(RuntimeError):
    """The endpoint could not be reached or gave an unusable answer (the message says which)."""


@dataclass(frozen=True, slots=True)
class EmbeddingEndpoint:
    """Where and how to embed. ``url`` is the API base (``http://host:11434/v1``) or
    the full ``.../embeddings`` address. ``max_tokens``: the model's window, if
    known, to count chunks longer than it."""

    url: str
    model: str
    api_key: str | None = None
    batch_size: int = 32
    timeout: float = 60.0
    retries: int = 3
    query_prefix: str = ""
    document_prefix: str = ""
    max_tokens: int | None = None
    #: The model's tokenizer (see engine/tokens.py): ``max_tokens`` is then checked by an exact count.
    tokenizer: str | None = None
    backoff: float = 0.5  # seconds before the first retry, doubling after (at most 8)

    @property
    def embeddings_url(self) -> str:
        url = self.url.rstrip("/")
        return url if url.endswith("/embeddings") else url + "/embeddings"


def estimated_tokens(text: str) -> int:
    """A floor on a text's model tokens: words and punctuation marks (subword
    tokenizers split further, so a chunk above the window by this count is surely over)."""
    return len(_PIECE.findall(text))


def over_window(documents: Sequence[str], endpoint: EmbeddingEndpoint) -> int:
    """How many documents (with the document prefix) are longer than ``endpoint.max_tokens``:
    exactly with the endpoint's tokenizer, else at least so many (:func:`estimated_tokens`)."""
    limit = endpoint.max_tokens
    if limit is None:
        return 0
    if endpoint.tokenizer is not None:
        count = get_counter(endpoint.tokenizer).count
        return sum(1 for d in documents if count(endpoint.document_prefix + d) > limit)
    prefix = estimated_tokens(endpoint.document_prefix)
    return sum(1 for d in documents if prefix + estimated_tokens(d) > limit)


class VectorCache:
    """Vectors on disk, keyed by model and text hash (a SQLite file: atomic writes,
    safe for concurrent runs). ``path=None`` keeps them in memory for this run."""

    def __init__(self, path: str | None):
        if path is not None:
            os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        self._db = sqlite3.connect(path or ":memory:", check_same_thread=False)
        self._db.execute("CREATE TABLE IF NOT EXISTS vectors (key BLOB PRIMARY KEY, vector BLOB NOT NULL)")

    @staticmethod
    def key(model: str, text: str) -> bytes:
        return hashlib.sha256(model.encode() + b"\0" + text.encode("utf-8", "surrogatepass")).digest()

    def get_many(self, keys: Sequence[bytes]) -> dict[bytes, np.ndarray]:
        found: dict[bytes, np.ndarray] = {}
        for start in range(0, len(keys), 500):
            part = keys[start : start + 500]
            rows = self._db.execute(
                f"SELECT key, vector FROM vectors WHERE key IN ({','.join('?' * len(part))})", part
            ).fetchall()
            for key, blob in rows:
                found[bytes(key)] = np.frombuffer(blob, dtype=np.float32)
        return found

    def put_many(self, items: Sequence[tuple[bytes, np.ndarray]]) -> None:
        with self._db:
            self._db.executemany(
                "INSERT OR REPLACE INTO vectors (key, vector) VALUES (?, ?)",
                [(key, np.asarray(vector, dtype=np.float32).tobytes()) for key, vector in items],
            )

    def close(self) -> None:
        self._db.close()


class EmbeddingClient:
    """Embeds texts through the endpoint, with the cache. ``transport`` is for tests."""

    def __init__(self, endpoint: EmbeddingEndpoint, cache: VectorCache | None = None,
                 transport: httpx.BaseTransport | None = None):
        if not endpoint.url.startswith(("http://", "https://")):
            raise ValueError(f"the embedding URL must start with http:// or https://, not {endpoint.url!r}")
        if not endpoint.model:
            raise ValueError("an embedding model name is needed")
        if endpoint.batch_size < 1 or endpoint.retries < 0 or endpoint.timeout <= 0:
            raise ValueError("batch_size must be >= 1, retries >= 0 and timeout > 0")
        self.endpoint = endpoint
        self.cache = cache or VectorCache(None)
        headers = {"Authorization": f"Bearer {endpoint.api_key}"} if endpoint.api_key else {}
        self._http = httpx.Client(timeout=endpoint.timeout, headers=headers, transport=transport)
        self.embedded = self.cached = 0

    def close(self) -> None:
        self._http.close()

    def embed(self, texts: Sequence[str], *, on_progress: StepProgress | None = None,
              should_stop: ShouldStop | None = None) -> np.ndarray:
        """Unit-length vectors, one row per text (texts already carry their prefix)."""
        model = self.endpoint.model
        keys = [VectorCache.key(model, t) for t in texts]
        known = self.cache.get_many(list(dict.fromkeys(keys)))
        self.cached += sum(1 for k in keys if k in known)
        uses = Counter(keys)
        todo: dict[bytes, int] = {}  # one text per key still to embed
        for i, key in enumerate(keys):
            if key not in known:
                todo.setdefault(key, i)
        order = list(todo.values())
        done = len(texts) - sum(uses[k] for k in todo)
        if on_progress is not None:
            on_progress(done, len(texts))
        size = self.endpoint.batch_size
        for start in range(0, len(order), size):
            stop_if_asked(should_stop)
            batch = order[start : start + size]
            vectors = self._post([texts[i] for i in batch])
            fresh = [(keys[i], v) for i, v in zip(batch, vectors)]
            self.cache.put_many(fresh)
            known.update(fresh)
            self.embedded += len(batch)
            done += sum(uses[keys[i]] for i in batch)
            if on_progress is not None:
                on_progress(min(done, len(texts)), len(texts))
        if not texts:
            return np.zeros((0, 0), dtype=np.float32)
        matrix = np.vstack([known[k] for k in keys]).astype(np.float32)
        norms = np.linalg.norm(matrix, axis=1, keepdims=True)
        return matrix / np.where(norms > 0, norms, 1.0)

    def _post(self, inputs: list[str]) -> list[np.ndarray]:
        url, tries = self.endpoint.embeddings_url, self.endpoint.retries + 1
        last = ""
        for attempt in range(tries):
            if attempt:
                time.sleep(min(8.0, self.endpoint.backoff * 2 ** (attempt - 1)))
            try:
                response = self._http.post(url, json={"model": self.endpoint.model, "input": inputs})
            except httpx.TimeoutException:
                last = f"no answer from {url} within {self.endpoint.timeout:g} s"
                continue
            except httpx.HTTPError as exc:
                last = f"cannot reach {url}: {exc}"
                continue
            if response.status_code == 429 or response.status_code >= 500:
                last = f"{url} answered {response.status_code}: {_excerpt(response.text)}"
                continue
            if response.status_code != 200:
                raise EmbeddingError(f"{url} answered {response.status_code}: {_excerpt(response.text)}")
            return _vectors(response, len(inputs), url)
        raise EmbeddingError(f"{last} (tried {tries} times)")


def _vectors(response: httpx.Response, count: int, url: str) -> list[np.ndarray]:
    try:
        data = response.json()["data"]
        rows = sorted(data, key=lambda item: item.get("index", 0))
        vectors = [np.asarray(item["embedding"], dtype=np.float32) for item in rows]
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise EmbeddingError(f"{url} did not answer with OpenAI-style embeddings ({type(exc).__name__})") from None
    if len(vectors) != count or len({v.shape for v in vectors}) > 1 or any(v.ndim != 1 for v in vectors):
        raise EmbeddingError(f"{url} answered {len(vectors)} embeddings of mixed or wrong shape for {count} texts")
    return vectors


def _excerpt(text: str, limit: int = 200) -> str:
    text = " ".join(text.split())
    return text[:limit] + ("…" if len(text) > limit else "")


class EmbeddingRetriever:
    """Cosine similarity between the query and chunk embeddings."""

    name = "embeddings"

    def __init__(self, client: EmbeddingClient):
        self.client = client

    def search(
        self,
        documents: Sequence[str],
        queries: Sequence[str],
        k: int,
        *,
        on_progress: StepProgress | None = None,
        should_stop: ShouldStop | None = None,
    ) -> Ranking:
        endpoint = self.client.endpoint
        before = (self.client.embedded, self.client.cached)
        total = len(documents) + len(queries)

        def documents_progress(done: int, _: int) -> None:
            if on_progress is not None:
                on_progress(done, total)

        def queries_progress(done: int, _: int) -> None:
            if on_progress is not None:
                on_progress(len(documents) + done, total)

        doc_vectors = self.client.embed([endpoint.document_prefix + d for d in documents],
                                        on_progress=documents_progress, should_stop=should_stop)
        query_vectors = self.client.embed([endpoint.query_prefix + q for q in queries],
                                          on_progress=queries_progress, should_stop=should_stop)
        notes = {"embedded": self.client.embedded - before[0], "cached": self.client.cached - before[1]}
        if endpoint.max_tokens is not None:
            notes["over_window"] = over_window(documents, endpoint)
        if not len(documents) or not len(queries):
            return Ranking(np.full((len(queries), max(0, k)), -1, dtype=np.int64), notes)
        if doc_vectors.shape[1] != query_vectors.shape[1]:
            raise EmbeddingError("query and document embeddings differ in size: two models behind one name?")
        rows = []
        for start in range(0, len(queries), 256):
            scores = query_vectors[start : start + 256] @ doc_vectors.T
            # cosine can be <= 0 for a related text: shift so every document stays rankable
            rows.append(top_k(scores + 2.0, k))
        ids = np.vstack(rows)
        if ids.shape[1] < k:
            ids = np.hstack([ids, np.full((len(queries), k - ids.shape[1]), -1, dtype=np.int64)])
        return Ranking(ids, notes)
