"""Code-aware tokens for BM25: identifiers whole and in parts.

Text is split on anything that is not a letter, digit or underscore; each
identifier gives its snake_case and camelCase parts (``parseHTTPHeader`` ->
``parse``, ``http``, ``header``) and, when it has several, itself as one token
too (``parsehttpheader``), so an exact identifier in a query still ranks its
definition first. Everything is lowercased; English stopwords (bm25s's list) and
one-character tokens are dropped. Identifiers repeat a lot in code: each is split
once.
"""

from __future__ import annotations

import re

from bm25s.stopwords import STOPWORDS_EN

_IDENTIFIER = re.compile(r"\w+")
# ASCII camelCase parts, acronyms, digits; any other run of letters stays whole
_PART = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+|[^\W\d_a-zA-Z]+")
STOPWORDS = frozenset(STOPWORDS_EN)
_MEMO_LIMIT = 2_000_000


class CodeTokenizer:
    """Splits text into tokens (see the module docstring); keeps a memo per identifier."""

    __slots__ = ("stopwords", "_memo")

    def __init__(self, stopwords: frozenset[str] = STOPWORDS):
        self.stopwords = stopwords
        self._memo: dict[str, tuple[str, ...]] = {}

    def identifier_tokens(self, identifier: str) -> tuple[str, ...]:
        known = self._memo.get(identifier)
        if known is not None:
            return known
        parts = [p.lower() for p in _PART.findall(identifier)]
        whole = identifier.strip("_").lower()
        if len(parts) > 1 and whole not in parts:
            parts.append(whole)
        stop = self.stopwords
        tokens = tuple(p for p in parts if len(p) > 1 and p not in stop)
        if len(self._memo) < _MEMO_LIMIT:
            self._memo[identifier] = tokens
        return tokens

    def tokens(self, text: str) -> list[str]:
        out: list[str] = []
        split = self.identifier_tokens
        for identifier in _IDENTIFIER.findall(text):
            out.extend(split(identifier))
        return out
