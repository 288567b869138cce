"""The token counters at their edges: which texts start clean (counts add up after a line
break), which names are paths, the messages for a bad name, lone surrogates, a counter
loaded the first time in a process."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from tokenizers import Tokenizer, models, pre_tokenizers, trainers

from explorer.engine.tokens import ENCODINGS, TokenizerError, _load, get_counter, is_path_spec, starts_clean

KNOWN = ", ".join(ENCODINGS)


@pytest.mark.parametrize("text, clean", [
    ("", False), ("   ", False), (" \t", False), ("\t\t", False),  # nothing after the indentation
    ("x", True), ("  x", True), ("\tx = 1", True),
    ("/x", False), (" /x", True), ("\t/ x", True),  # a slash only right at the line start
    ("\nx", False), ("  \nx", False), (" \x0cx", False), ("\u3000x", False),  # blank before the first character
    ("\x1cx", False), ("  \x1fx", False), ("\x1d", False), ("\x1e", False),  # separators count as breaks
])
def test_which_texts_start_clean(text: str, clean: bool) -> None:
    assert starts_clean(text) is clean
    # Where a slash after a line break starts a pre-token of its own, only the slash case changes.
    assert starts_clean(text, slash_joins=False) is (clean or text == "/x")


def test_a_slash_opening_a_line_joins_the_line_break_in_o200k_base_only() -> None:
    before, after = "}\n", "// note\n"
    cl100k, o200k = get_counter("cl100k_base"), get_counter("o200k_base")
    assert not cl100k.slash_joins and starts_clean(after, cl100k.slash_joins)
    assert cl100k.count(before + after) == cl100k.count(before) + cl100k.count(after)
    assert o200k.slash_joins and not starts_clean(after, o200k.slash_joins)
    assert o200k.count(before + after) != o200k.count(before) + o200k.count(after)


@pytest.mark.parametrize("name", ["cl100k_base", "o200k_base"])
@pytest.mark.parametrize("before, after", [("def f():\n", "    return 1\n"), ("x = 1\n", "y = 2\n"),
                                           ("a\n", " /b\n"), ("}\n", "\tz\n")])
def test_a_clean_text_counts_the_same_alone_as_after_a_line_break(name: str, before: str, after: str) -> None:
    counter = get_counter(name)
    assert starts_clean(after) and counter.clean_joins
    assert counter.count(before + after) == counter.count(before) + counter.count(after)


@pytest.mark.parametrize("spec, path", [("tokenizer.json", True), ("models/bge", True), ("a/b.json", True),
                                        ("cl100k_base", False), ("json", False), ("tokenizer.json.bak", False)])
def test_which_names_are_paths(spec: str, path: bool) -> None:
    assert is_path_spec(spec) is path


def test_a_json_name_without_a_folder_is_read_as_a_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(TokenizerError, match=rf"tokenizer file not found: missing.json \(give the path of an "
                                             rf"existing tokenizer.json, or an encoding name: {KNOWN}\)"):
        get_counter("missing.json")


@pytest.mark.parametrize("spec", ["", "   ", None, 3])
def test_an_empty_or_non_text_name_says_what_a_name_is(spec: object) -> None:
    with pytest.raises(TokenizerError, match=rf"^tokenizer must be an encoding name \({KNOWN}\) or the path of "
                                             rf"a tokenizer.json, not {spec!r}$"):
        get_counter(spec)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def tokenizer_file(tmp_path_factory: pytest.TempPathFactory) -> str:
    tokenizer = Tokenizer(models.BPE(unk_token="[UNK]"))
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    trainer = trainers.BpeTrainer(vocab_size=300, special_tokens=["[UNK]"],
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    tokenizer.train_from_iterator(["def add(a, b):", "    return a + b", "naïve é"], trainer)
    path = tmp_path_factory.mktemp("tok") / "tokenizer.json"
    tokenizer.save(str(path))
    return str(path)


def test_a_tokenizer_file_counter_is_named_by_its_path(tokenizer_file: str) -> None:
    counter = get_counter(tokenizer_file)
    assert counter.name == tokenizer_file and repr(counter) == f"TokenCounter({tokenizer_file!r})"
    assert not counter.clean_joins and counter.special == 0


@pytest.mark.parametrize("name", ["cl100k_base", "o200k_base", "file"])
@pytest.mark.parametrize("text", ["a\ud800b", "\udfff", "é\ud83d x"])
def test_a_lone_surrogate_counts_as_the_replacement_character(name: str, text: str, tokenizer_file: str) -> None:
    _load.cache_clear()  # a counter built here, not one cached by an earlier test
    counter = get_counter(tokenizer_file if name == "file" else name)
    replaced = text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    assert "\ufffd" in replaced and counter.count(text) == counter.count(replaced) > 0
    assert counter.count_piece(text) == counter.count_piece(replaced)


def test_the_first_load_in_a_process_finds_the_compiled_counter(monkeypatch: pytest.MonkeyPatch) -> None:
    expected = get_counter("cl100k_base").count("hello world\n    return x")
    monkeypatch.delitem(sys.modules, "bpe_openai._bindings", raising=False)
    _load.cache_clear()
    try:
        assert get_counter("cl100k_base").count("hello world\n    return x") == expected
        assert "bpe_openai._bindings" in sys.modules
    finally:
        _load.cache_clear()


class _Unencodable:
    """A tokenizer that loads but fails on every text, as a file with a broken model does."""

    @classmethod
    def from_file(cls, path: str) -> _Unencodable:
        return cls()

    def no_truncation(self) -> None: ...

    def no_padding(self) -> None: ...

    def encode(self, text: str, add_special_tokens: bool = True) -> list[int]:
        raise Exception("the model\n   has no   merges " + "x" * 300)


def test_a_tokenizer_file_that_cannot_encode_says_so_in_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import tokenizers

    path = tmp_path / "tokenizer.json"
    path.write_text("{}", encoding="utf-8")
    monkeypatch.setattr(tokenizers, "Tokenizer", _Unencodable)
    _load.cache_clear()
    try:
        with pytest.raises(TokenizerError) as caught:
            get_counter(str(path))
    finally:
        _load.cache_clear()
    reason = ("the model has no merges " + "x" * 300)[:200]
    assert str(caught.value) == f"{path} cannot encode text ({reason}); give the file the model publishes"


def test_token_stretches_start_at_the_line_starts_that_are_clean_joins() -> None:
    from explorer.engine.sizing import _token_stretches
    from explorer.engine.text import SourceText

    lines = ["a\n", "  b\n", "\n", "   \n", "/c\n", "  /d\n", "\x1ce\n", "\x01f\n", "\x7fg\n", "\u3000h\n",
             "\u00e9i\n", "\tj\r\n", "\rk\n", "l"]
    data = "".join(lines).encode()
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line.encode()))
    clean = {1: 2, 5: 2, 7: 0, 8: 0, 10: 0, 11: 1, 13: 0}  # line: its indentation (a `\r` line start is none)
    expected_bounds = [0, *(starts[i] for i in clean), len(data)]
    expected_firsts = [0, *(starts[i] + clean[i] for i in clean), len(data)]
    assert _token_stretches(SourceText(data, "x"), True, True) == (expected_bounds, expected_firsts)
    with_slash = {**clean, 4: 0}  # where `/` starts a pre-token, a line opening with it is clean too
    assert _token_stretches(SourceText(data, "x"), True, False) == (
        [0, *(starts[i] for i in sorted(with_slash)), len(data)],
        [0, *(starts[i] + with_slash[i] for i in sorted(with_slash)), len(data)])
