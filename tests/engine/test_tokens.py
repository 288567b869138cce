"""The tokens unit and fit="embedded": every embedded text within max_size by an
independent count, the texts tiling the file, the header giving way in its order.

Everything runs offline: the OpenAI-style encodings ship inside the bpe-openai wheel,
and the Hugging Face tokenizer.json is trained here from real code (never downloaded)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import bpe_openai
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tokenizers import Tokenizer, models, pre_tokenizers, processors, trainers

import explorer
from explorer.engine.context import make_context_builder
from explorer.engine.fit import GIVE_WAY, Fitter
from explorer.engine.measure.quality import _captures, definition_spans
from explorer.engine.options import ChunkOptions
from explorer.engine.sizing import measure_for
from explorer.engine.tokens import TokenizerError, _load, get_counter


def nws(text: str) -> int:
    return len(re.sub(r"[ \t\n\r\x0b\x0c]", "", text))


def split_lines(text: str, keepends: bool = False) -> list[str]:
    """Lines at \\n, \\r\\n and a lone \\r; a final break opens no line."""
    parts = re.split(r"(\r\n|\r|\n)", text)
    lines = [a + (b if keepends else "") for a, b in zip(parts[::2], parts[1::2] + [""])]
    return lines[:-1] if lines and lines[-1] == "" else lines

REAL = Path(__file__).resolve().parent.parent / "fixtures" / "real"
REAL_FILES = sorted(p for p in REAL.iterdir() if p.suffix in (".py", ".ts", ".go", ".h", ".js"))
CL100K = bpe_openai.get_encoding("cl100k_base")


def cl100k(text: str) -> int:
    """The independent count: bpe-openai's public tiktoken-style encoder."""
    return len(CL100K.encode(text, disallowed_special=()))


@pytest.fixture(scope="session")
def hf_tokenizer(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Tokenizer]:
    """A small byte-level BPE trained on the real fixtures, with [CLS]/[SEP] added around
    every input as BERT-style embedding models do; saved as a tokenizer.json."""
    tokenizer = Tokenizer(models.BPE(unk_token="[UNK]"))
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    trainer = trainers.BpeTrainer(vocab_size=600, special_tokens=["[UNK]", "[CLS]", "[SEP]"],
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    lines = (line for path in REAL_FILES for line in path.read_text(encoding="utf-8").splitlines())
    tokenizer.train_from_iterator(lines, trainer)
    tokenizer.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", special_tokens=[("[CLS]", 1), ("[SEP]", 2)]
    )
    path = tmp_path_factory.mktemp("tok") / "tokenizer.json"
    tokenizer.save(str(path))
    return str(path), Tokenizer.from_file(str(path))


def check_embedded(source: str, chunks: list, max_size: int, count, overlap_lines: int = 0) -> None:
    """Tiling, exact sizes, and every contextualized text within max_size by ``count``."""
    assert "".join(c.text for c in chunks) == source
    for i, c in enumerate(chunks):
        where = f"chunk {i} {c.text[:40]!r}"
        assert c.size == count(c.text), where
        embedded = count(c.contextualized_text)
        assert embedded <= max_size, f"{where}: embedded text is {embedded} > {max_size}"
        assert c.embedded_size == embedded, where
        assert c.contextualized_text.endswith(c.text), where
        if c.overlap_text:  # kept whole, or given way entirely
            expected = "".join(split_lines(chunks[i - 1].text, keepends=True)[-overlap_lines:])
            assert c.overlap_text == expected, where


# -- the counters ----------------------------------------------------------------------
@given(st.text(max_size=300))
@settings(max_examples=200, deadline=None)
def test_named_encoding_counts_equal_the_encoder(text: str) -> None:
    assert get_counter("cl100k_base").count(text) == len(CL100K.encode(text, disallowed_special=()))


def test_special_token_text_is_counted_as_text() -> None:
    # Source code may hold "<|endoftext|>": it is text to the model, never an error.
    assert get_counter("cl100k_base").count("x = '<|endoftext|>'") == cl100k("x = '<|endoftext|>'") > 3


def test_tokenizer_json_counts_include_the_special_tokens(hf_tokenizer: tuple[str, Tokenizer]) -> None:
    path, tokenizer = hf_tokenizer
    counter = get_counter(path)
    assert counter.special == 2
    for text in ("def f(x):\n    return x\n", "", "naïve ünïcode 🐍\n"):
        assert counter.count(text) == len(tokenizer.encode(text).ids)
        assert counter.count_piece(text) == len(tokenizer.encode(text, add_special_tokens=False).ids)


# -- the limit on real code ------------------------------------------------------------
@pytest.mark.parametrize("path", REAL_FILES, ids=lambda p: p.name)
@pytest.mark.parametrize("max_size", [512, 160])
def test_real_code_embedded_text_within_the_limit(path: Path, max_size: int) -> None:
    source = path.read_text(encoding="utf-8")
    chunks = explorer.chunk(path.name, source, size_unit="tokens", tokenizer="cl100k_base",
                            max_size=max_size, context_mode="full", overlap_lines=2)
    check_embedded(source, chunks, max_size, cl100k, overlap_lines=2)
    assert all(c.tokenizer == "cl100k_base" and c.tokens == c.size for c in chunks)
    # The header gives way only where it must: most chunks keep their path line.
    assert sum(c.contextualized_text != c.text for c in chunks) >= 0.9 * len(chunks)


@pytest.mark.parametrize("path", REAL_FILES[:3], ids=lambda p: p.name)
def test_real_code_with_a_tokenizer_json(path: Path, hf_tokenizer: tuple[str, Tokenizer]) -> None:
    spec, tokenizer = hf_tokenizer
    source = path.read_text(encoding="utf-8")
    chunks = explorer.chunk(path.name, source, size_unit="tokens", tokenizer=spec, max_size=256, overlap_lines=2)
    check_embedded(source, chunks, 256, lambda t: len(tokenizer.encode(t).ids), overlap_lines=2)


def test_a_definition_that_fits_the_room_left_is_not_split() -> None:
    source = (REAL / "textwrap.py").read_text(encoding="utf-8")
    options = ChunkOptions(size_unit="tokens", tokenizer="cl100k_base", max_size=400, overlap_lines=2)
    chunks = explorer.chunk("textwrap.py", source, **options.to_dict())
    parsed = explorer.engine.api.parse("textwrap.py", source, options)
    fitter = Fitter(parsed, options, make_context_builder(parsed, options, parsed.path))
    size = options.measure.sizer(parsed.source)
    checked = 0
    root, language = parsed.root, parsed.language
    for start, end, _kind, _top in definition_spans(root, language, _captures(root, language)):
        line_start = parsed.source.line_start_at(start)
        if size(line_start, end) <= fitter.limit_at(line_start):
            checked += 1
            assert any(c.byte_range.start <= start and end <= c.byte_range.end for c in chunks), (start, end)
    assert checked >= 10


def test_fit_text_binds_the_text_in_tokens() -> None:
    source = (REAL / "json_decoder.py").read_text(encoding="utf-8")
    chunks = explorer.chunk("d.py", source, size_unit="tokens", tokenizer="o200k_base", max_size=200, fit="text",
                            overlap_lines=2)
    o200k = bpe_openai.get_encoding("o200k_base")
    assert "".join(c.text for c in chunks) == source
    assert all(len(o200k.encode(c.text, disallowed_special=())) == c.size <= 200 for c in chunks)
    # the header is not made to fit: some embedded texts are over
    assert any(c.embedded_size > 200 for c in chunks)


# -- generated input -------------------------------------------------------------------
_LINES = st.sampled_from([
    "def f(x):", "    return x + 1", "class A:", "    def m(self):", "        pass", "", "   ",
    "x = [1, 2, 3]", "# a comment", "import os", "from a import b", "s = 'naïve é 🐍'",
    "    y = {'k': (1, 2)}", "if x:\n    y = 2\nelse:\n    y = 3", "z = " + "a" * 120,
    "\t\tpass", "\r", "async def g():\n    await h()",
])


@given(lines=st.lists(_LINES, max_size=40), max_size=st.integers(8, 200), overlap=st.integers(0, 3),
       mode=st.sampled_from(["full", "minimal", "none"]))
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_generated_code_fits(lines: list[str], max_size: int, overlap: int, mode: str) -> None:
    source = "\n".join(lines)
    chunks = explorer.chunk("gen.py", source, size_unit="tokens", tokenizer="cl100k_base", max_size=max_size,
                            overlap_lines=overlap, context_mode=mode)
    if not source.strip():
        assert chunks == []
        return
    check_embedded(source, chunks, max_size, cl100k, overlap_lines=overlap)


@given(lines=st.lists(_LINES, min_size=1, max_size=30), max_size=st.integers(6, 120))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_generated_code_fits_a_tokenizer_json(lines: list[str], max_size: int, hf_tokenizer: tuple[str, Tokenizer]) -> None:
    spec, tokenizer = hf_tokenizer
    source = "\n".join(lines)
    if not source.strip():
        return
    chunks = explorer.chunk("gen.py", source, size_unit="tokens", tokenizer=spec, max_size=max_size, overlap_lines=1)
    check_embedded(source, chunks, max_size, lambda t: len(tokenizer.encode(t).ids), overlap_lines=1)


@given(lines=st.lists(_LINES, min_size=1, max_size=30), max_size=st.integers(1, 6))
@settings(max_examples=60, deadline=None)
def test_a_tiny_limit_fits_or_says_so(lines: list[str], max_size: int) -> None:
    """Below one character's tokens the limit cannot be met: a clear error, never a chunk over it."""
    source = "\n".join(lines)
    if not source.strip():
        return  # nothing to chunk
    try:
        chunks = explorer.chunk("gen.py", source, size_unit="tokens", tokenizer="cl100k_base", max_size=max_size)
    except ValueError as exc:
        assert "too small" in str(exc) and "raise max_size" in str(exc)
        return
    check_embedded(source, chunks, max_size, cl100k)


# -- the header's order of giving way -------------------------------------------------------
def test_the_header_gives_way_in_order() -> None:
    source = (REAL / "textwrap.py").read_text(encoding="utf-8")
    options = ChunkOptions(size_unit="tokens", tokenizer="cl100k_base", max_size=300, overlap_lines=2)
    chunks = explorer.chunk("lib/textwrap.py", source, **options.to_dict())
    parsed = explorer.engine.api.parse("lib/textwrap.py", source, options)
    builder = make_context_builder(parsed, options, parsed.path)
    rank = {kind: i for i, kind in enumerate(GIVE_WAY)}
    gave_way = 0
    for c in chunks:
        parts = builder.header_parts(c.context)
        kept = c.contextualized_text[: len(c.contextualized_text) - len(c.text)].split("\n")
        dropped = [kind for kind, line in parts if line not in kept]
        present = [kind for kind, line in parts if line in kept]
        gave_way += bool(dropped)
        if dropped and present:
            # everything left out comes before everything kept, in GIVE_WAY order
            assert max(rank[k] for k in dropped) < min(rank[k] for k in present), (dropped, present)
    assert gave_way, "a 300-token window must make some headers give way"


# -- the other units ------------------------------------------------------------------------
@pytest.mark.parametrize("unit,max_size", [("nws", 400), ("chars", 900), ("lines", 30)])
def test_other_units_unchanged_unless_embedded_is_asked(unit: str, max_size: int, check) -> None:
    source = (REAL / "textwrap.py").read_text(encoding="utf-8")
    default = explorer.chunk("textwrap.py", source, size_unit=unit, max_size=max_size, overlap_lines=2)
    text_fit = explorer.chunk("textwrap.py", source, size_unit=unit, max_size=max_size, overlap_lines=2, fit="text")
    assert [c.to_dict() for c in default] == [c.to_dict() for c in text_fit]
    check(source, default, max_size=max_size, size_unit=unit, overlap_lines=2)
    measure = {"nws": nws, "chars": len, "lines": lambda t: len(split_lines(t))}[unit]
    assert all(c.embedded_size == measure(c.contextualized_text) for c in default)
    assert any(c.embedded_size > max_size for c in default)  # what fit="embedded" is for

    embedded = explorer.chunk("textwrap.py", source, size_unit=unit, max_size=max_size, overlap_lines=2, fit="embedded")
    assert "".join(c.text for c in embedded) == source
    assert all(c.embedded_size == measure(c.contextualized_text) <= max_size for c in embedded)


def test_a_tokenizer_with_another_unit_reports_token_counts() -> None:
    chunks = explorer.chunk("a.py", "def f():\n    return 1\n", tokenizer="cl100k_base")
    record = chunks[0].to_dict()
    assert record["sizeUnit"] == "nws" and record["tokenizer"] == "cl100k_base"
    assert record["tokens"] == cl100k(chunks[0].text)
    assert record["embeddedTokens"] == cl100k(chunks[0].contextualized_text)


# -- bad input --------------------------------------------------------------------------------
def test_tokens_without_a_tokenizer_names_the_fix() -> None:
    with pytest.raises(ValueError, match="needs a tokenizer.*cl100k_base"):
        explorer.chunk("a.py", "x = 1", size_unit="tokens")


def test_unknown_encoding_lists_the_known_ones() -> None:
    with pytest.raises(TokenizerError, match="unknown tokenizer 'cl100k'.*cl100k_base, o200k_base"):
        ChunkOptions.build(tokenizer="cl100k")


def test_missing_and_corrupt_tokenizer_files(tmp_path: Path) -> None:
    with pytest.raises(TokenizerError, match="not found"):
        ChunkOptions.build(tokenizer=str(tmp_path / "tokenizer.json"))
    bad = tmp_path / "bad.json"
    bad.write_text('{"version": "1.0", "model": ', encoding="utf-8")
    with pytest.raises(TokenizerError, match="not a valid tokenizer.json"):
        ChunkOptions.build(tokenizer=str(bad))


def test_a_missing_package_names_the_extra(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "bpe_openai._bindings", None)
    monkeypatch.setitem(sys.modules, "tokenizers", None)
    _load.cache_clear()
    try:
        with pytest.raises(TokenizerError, match=r"bpe-openai.*pip install 'chunk-explorer\[tokens\]'"):
            get_counter("o200k_base")
        with pytest.raises(TokenizerError, match=r"tokenizers package.*pip install"):
            get_counter(str(tmp_path / "tokenizer.json"))
    finally:
        _load.cache_clear()


def test_an_invalid_fit_is_refused() -> None:
    with pytest.raises(ValueError, match="fit must be one of auto, text, embedded"):
        ChunkOptions(fit="window")


# -- exact range counts where counts add up -------------------------------------------------
_SOURCE_LINES = st.sampled_from([
    "def f(x):", "    return x + 1", "", "   ", "\t", "}", "  }", "// c", "/* x */", "#include <a.h>", "x = 1  ",
    "s = 'naïve é 🐍'", "\u00a0x", "\u3000y", "---", "    ---", "'s", "/", "  /", "a\r", "é", "1234567",
    "\x0c", "z\x1c", "<|endoftext|>",
])


@given(lines=st.lists(_SOURCE_LINES, min_size=1, max_size=25), ends=st.sampled_from(["\n", "\r\n"]),
       cuts=st.lists(st.integers(0, 10_000), min_size=2, max_size=2), name=st.sampled_from(["cl100k_base", "o200k_base"]))
@settings(max_examples=300, deadline=None)
def test_range_sizes_are_exact_for_clean_join_encodings(lines: list[str], ends: str, cuts: list[int], name: str) -> None:
    """Stretches are summed only where the encoding's counts add up: every range counts what its text counts."""
    from explorer.engine.text import SourceText

    source = SourceText(ends.join(lines) + ends)
    counter = get_counter(name)
    data = source.data
    start, end = sorted(min(c, len(data)) for c in cuts)
    start, end = source.floor_char_boundary(start), source.floor_char_boundary(end)
    assert measure_for("tokens", name).size(source, start, end) == counter.count(data[start:end].decode("utf-8"))


def test_a_size_in_another_unit_is_about_as_much_text() -> None:
    from explorer.engine.options import options_in_unit
    from explorer.engine.sizing import measure_for, size_in_unit
    from explorer.engine.text import SourceText

    nws, lines = measure_for("nws", None), measure_for("lines", None)
    # A file smaller than a chunk says little about the code: the typical ratio, two digits.
    small = SourceText(b"x = 1\n")
    converted = size_in_unit(1500, nws, lines, small)
    assert not converted.measured and converted.size == 63  # 1,500 x 0.042
    # A file of at least a chunk: its own ratio (here 10 nws per line).
    big = SourceText(b"abcdefghij\n" * 400)
    converted = size_in_unit(1500, nws, lines, big)
    assert converted.measured and converted.ratio == pytest.approx(0.1) and converted.size == 150
    assert size_in_unit(1500, nws, nws, big).size == 1500 and size_in_unit(1, nws, lines, big).size == 1
    # Tokens without a tokenizer start with the first offline encoding.
    options, converted = options_in_unit(ChunkOptions(), "tokens")
    assert options.tokenizer == "cl100k_base" and options.max_size == 500 and not converted.measured
    kept, _ = options_in_unit(ChunkOptions(tokenizer="o200k_base"), "tokens")
    assert kept.tokenizer == "o200k_base"
