"""A tokenizer.json as models publish it: often with truncation to the model's window and
padding to a fixed length switched on. Counts must be of the text itself, whatever the
file says: truncation would cap every count at the window (so chunks over it go
unnoticed), padding would make every count the padded length.

The tokenizer here is a word-level vocabulary built in the test (one token per word or
punctuation mark, [CLS] and [SEP] around every input), so every expected count is plain
arithmetic."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from tokenizers import Tokenizer, models, pre_tokenizers, processors

import explorer
from explorer.engine.tokens import get_counter

WINDOW = 8
PADDED = 24


def words(text: str) -> int:
    """What the word-level tokenizer makes of ``text`` (its Whitespace pre-tokenizer)."""
    return len(re.findall(r"\w+|[^\w\s]+", text))


def publish(path: Path, *, truncation: bool, padding: bool) -> str:
    vocab = {"[UNK]": 0, "[CLS]": 1, "[SEP]": 2, "[PAD]": 3}
    tokenizer = Tokenizer(models.WordLevel(vocab, unk_token="[UNK]"))
    tokenizer.pre_tokenizer = pre_tokenizers.Whitespace()
    tokenizer.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", special_tokens=[("[CLS]", 1), ("[SEP]", 2)])
    if truncation:
        tokenizer.enable_truncation(max_length=WINDOW)
    if padding:
        tokenizer.enable_padding(length=PADDED, pad_id=3, pad_token="[PAD]")
    tokenizer.save(str(path))
    return str(path)


@pytest.mark.parametrize("truncation, padding", [(True, False), (False, True), (True, True), (False, False)])
def test_counts_ignore_the_files_truncation_and_padding(tmp_path: Path, truncation: bool, padding: bool) -> None:
    spec = publish(tmp_path / "tokenizer.json", truncation=truncation, padding=padding)
    counter = get_counter(spec)
    assert counter.special == 2  # [CLS] and [SEP]: the only tokens added around a text
    for text in ("", "x", "a b c", "def f(x):\n    return x + 1\n", " ".join(["word"] * 40)):
        assert counter.count(text) == words(text) + 2, text
        assert counter.count_piece(text) == words(text), text
    # the window's length, one below and one above: counted past it all the same
    for n in (WINDOW - 3, WINDOW - 2, WINDOW - 1):
        assert counter.count(" ".join(["w"] * n)) == n + 2


def test_chunks_over_the_files_window_are_measured_and_kept_within_max_size(tmp_path: Path) -> None:
    spec = publish(tmp_path / "tokenizer.json", truncation=True, padding=True)
    lines = [f"value_{i} = compute(alpha, beta, gamma, {i})\n" for i in range(30)]
    source = "".join(lines)
    max_size = 40  # over the window of 8 the file declares, under the padded length of 24 as well
    chunks = explorer.chunk("values.py", source, size_unit="tokens", tokenizer=spec, max_size=max_size)
    assert "".join(c.text for c in chunks) == source
    assert len(chunks) > 1
    for chunk in chunks:
        assert chunk.size == words(chunk.text) + 2
        assert chunk.embedded_size == words(chunk.contextualized_text) + 2 <= max_size
    # most chunks hold more than the window: the counts were not capped at it
    assert sum(chunk.size > WINDOW for chunk in chunks) >= len(chunks) - 1
