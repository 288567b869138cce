"""Token counting for the ``tokens`` size unit: exact counts with the embedding model's tokenizer.

A tokenizer is named by a string (the ``tokenizer`` option):

* an OpenAI-style encoding, ``cl100k_base``, ``o200k_base`` or ``voyage3_base``, counted
  with the ``bpe-openai`` package, which ships these encodings inside its wheel (so
  counting works offline; ``tiktoken`` would download them on first use);
* the path of a Hugging Face ``tokenizer.json`` (what most embedding models publish next
  to their weights), read with the ``tokenizers`` package. Its count is the length of
  ``Tokenizer.encode(text)``: the special tokens the model adds (``[CLS]``, ``[SEP]``)
  are counted, since they take room in the model's window; truncation and padding set
  in the file are turned off, so the count is the text's own.

Both packages are the ``tokens`` extra (``pip install 'chunk-explorer[tokens]'``). Every
problem (unknown name, missing or corrupt file, package not installed) raises
:class:`TokenizerError` with a message that names the fix.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import sys
from collections.abc import Callable
from functools import lru_cache
from typing import Any

#: The encodings counted offline by ``bpe-openai`` (its wheel ships their tables).
ENCODINGS = ("cl100k_base", "o200k_base", "voyage3_base")

_INSTALL = "pip install 'chunk-explorer[tokens]'"


class TokenizerError(ValueError):
    """A tokenizer that cannot be used; the message says what to do."""


#: Encodings whose pre-tokenizer never makes a token across a line break followed by
#: indentation and a non-blank character (see :func:`starts_clean`). Counts add up at such
#: points: a text joined there counts the sum of its parts' counts.
CLEAN_JOINS = frozenset({"cl100k_base", "o200k_base"})
#: Of those, the encodings whose pattern takes slashes after punctuation and line breaks into
#: one pre-token (o200k_base's ``[\r\n/]*``; cl100k_base's ``[\r\n]*`` takes line breaks
#: only): a line that opens with ``/`` is no clean join there.
SLASH_JOINS = frozenset({"o200k_base"})


def starts_clean(text: str, slash_joins: bool = True) -> bool:
    """Whether ``text``, placed right after a line break, pre-tokenizes as it does alone (for
    the :data:`CLEAN_JOINS` encodings): its first line has a non-blank character after its
    indentation. The line break before it then always ends a pre-token (their patterns take
    whitespace up to its last line break only, and line breaks after punctuation only), and
    a pre-token starting at the text does not look back. With ``slash_joins`` (the encoding
    is in :data:`SLASH_JOINS`, or is not known) a ``/`` right at the line start is left out."""
    i, size = 0, len(text)
    while i < size and text[i] in " \t":
        i += 1
    if i == size:
        return False
    first = text[i]
    return (not first.isspace() and first not in "\x1c\x1d\x1e\x1f"
            and not (slash_joins and first == "/" and i == 0))


class TokenCounter:
    """Counts the tokens of a text with one tokenizer.

    ``count(text)`` is exact: the tokenizer's own encode length of ``text`` (what the
    model sees). ``count_piece(text)`` leaves out the special tokens a Hugging Face
    tokenizer adds around a whole input (for OpenAI encodings the two are equal): the
    chunker sums piece counts to estimate a range, then counts each chunk exactly. For
    the encodings with ``clean_joins``, sums taken at clean points are exact already.
    """

    __slots__ = ("clean_joins", "count", "count_piece", "name", "slash_joins", "special")

    def __init__(self, name: str, count: Callable[[str], int], count_piece: Callable[[str], int]):
        self.name = name
        self.count = count
        self.count_piece = count_piece
        #: Counts add up where :func:`starts_clean` says so (see :data:`CLEAN_JOINS`).
        self.clean_joins = name in CLEAN_JOINS
        #: A ``/`` opening a line joins the line break before it (:func:`starts_clean`).
        self.slash_joins = name not in CLEAN_JOINS or name in SLASH_JOINS
        #: Tokens added around every input (``count(t) == count_piece(t) + special``).
        self.special = count("") - count_piece("")

    def __repr__(self) -> str:
        return f"TokenCounter({self.name!r})"


def is_path_spec(spec: str) -> bool:
    """Whether a tokenizer name is a file path (a ``.json`` name or one with a directory)."""
    return spec.endswith(".json") or "/" in spec or os.sep in spec


def get_counter(spec: str) -> TokenCounter:
    """The counter for a tokenizer name (see the module doc); loaded once per name."""
    if not isinstance(spec, str) or not spec.strip():
        raise TokenizerError(
            f"tokenizer must be an encoding name ({', '.join(ENCODINGS)}) or the path of a tokenizer.json, not {spec!r}"
        )
    return _load(spec)


@lru_cache(maxsize=16)
def _load(spec: str) -> TokenCounter:
    if is_path_spec(spec):
        return _hf_counter(spec)
    return _bpe_counter(spec)


def _bpe_counter(name: str) -> TokenCounter:
    if name not in ENCODINGS:
        raise TokenizerError(
            f"unknown tokenizer {name!r}: use one of {', '.join(ENCODINGS)}, or the path of a "
            "tokenizer.json (a path ends in .json or names a directory)"
        )
    bindings = _bpe_bindings()
    if bindings is None:
        raise TokenizerError(f"the {name} encoding needs the bpe-openai package: {_INSTALL}")
    backend = bindings.tokenizer_for_encoding(name)
    raw = backend.count

    def count(text: str) -> int:
        try:
            return int(raw(text))
        except UnicodeEncodeError:  # lone surrogates: replaced, as bpe-openai's encode does
            return int(raw(text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")))

    return TokenCounter(name, count, count)


def _bpe_bindings() -> Any:
    """bpe-openai's compiled module (it counts without building the token list), or None
    when the package is not installed.

    It is loaded on its own: importing the ``bpe_openai`` package first decodes the rank
    tables of three encodings in Python (seconds, in every worker process), which counting
    does not need. It is registered under its own name, so a later import of the package
    uses this one."""
    name = "bpe_openai._bindings"
    loaded = sys.modules.get(name, False)
    if loaded is not False:
        return loaded  # None: the package is known to be missing (tests set this)
    package = importlib.util.find_spec("bpe_openai")  # found, not imported
    if package is None or not package.submodule_search_locations:
        return None
    for folder in package.submodule_search_locations:
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            path = os.path.join(folder, "_bindings" + suffix)
            if os.path.isfile(path):
                spec = importlib.util.spec_from_file_location(name, path)
                if spec is None or spec.loader is None:
                    continue
                module = importlib.util.module_from_spec(spec)
                sys.modules[name] = module
                spec.loader.exec_module(module)
                return module
    return None


def _hf_counter(path: str) -> TokenCounter:
    try:
        from tokenizers import Tokenizer
    except ImportError:
        raise TokenizerError(f"reading {path} needs the tokenizers package: {_INSTALL}") from None
    if not os.path.isfile(path):
        raise TokenizerError(
            f"tokenizer file not found: {path} (give the path of an existing tokenizer.json, "
            f"or an encoding name: {', '.join(ENCODINGS)})"
        )
    try:
        tokenizer = Tokenizer.from_file(path)
    except Exception as exc:  # the library raises bare Exceptions for a bad file
        reason = " ".join(str(exc).split())[:200]
        raise TokenizerError(f"{path} is not a valid tokenizer.json ({reason}); give the file the model publishes") from None
    # Counted in full: a window limit set in the file would cut the text being measured.
    tokenizer.no_truncation()
    tokenizer.no_padding()
    encode = tokenizer.encode

    def count(text: str) -> int:
        return len(encode(_no_surrogates(text)))

    def count_piece(text: str) -> int:
        return len(encode(_no_surrogates(text), add_special_tokens=False))

    try:
        return TokenCounter(path, count, count_piece)
    except Exception as exc:
        reason = " ".join(str(exc).split())[:200]
        raise TokenizerError(f"{path} cannot encode text ({reason}); give the file the model publishes") from None


def _no_surrogates(text: str) -> str:
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return text
