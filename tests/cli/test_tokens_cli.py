"""The tokens unit on the command line and in the settings file: outputs name the
tokenizer, the embedded text fits, and a tokenizer that cannot be used stops the run
with one message (exit 2, nothing written)."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import bpe_openai
import pytest

from explorer.engine.options import ChunkOptions
from explorer.workspace.settings import SETTINGS_FILE, save_settings

REAL = Path(__file__).resolve().parents[1] / "fixtures" / "real"


PY_SOURCE = (REAL / "textwrap.py").read_text(encoding="utf-8")


def _project(tmp_path: Path) -> Path:
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / "app.py").write_text(PY_SOURCE)
    (tmp_path / "decoder.py").write_text((REAL / "json_decoder.py").read_text(encoding="utf-8"))
    return tmp_path


def test_chunk_in_tokens_fits_and_names_the_tokenizer(cli, tmp_path) -> None:
    root = _project(tmp_path)
    out = tmp_path / "chunks.json"
    run = cli("chunk", root, "--size-unit", "tokens", "--tokenizer", "cl100k_base", "--max-size", "200",
              "--overlap-lines", "2", "-o", out, "-q", "--no-settings")
    assert run.code == 0, run.err
    encoder = bpe_openai.get_encoding("cl100k_base")
    document = json.loads(out.read_text())
    assert document["options"]["tokenizer"] == "cl100k_base" and document["options"]["fit"] == "auto"
    chunks = [c for f in document["files"] for c in f["chunks"]]
    assert len(chunks) > 10
    for c in chunks:
        assert c["tokenizer"] == "cl100k_base"
        assert c["embeddedSize"] == c["embeddedTokens"] == len(encoder.encode(c["contextualizedText"], disallowed_special=()))
        assert c["embeddedSize"] <= 200


@pytest.mark.parametrize("flags,message", [
    (["--size-unit", "tokens"], "needs a tokenizer"),
    (["--size-unit", "tokens", "--tokenizer", "gpt-9"], "unknown tokenizer 'gpt-9'"),
    (["--tokenizer", "missing/tokenizer.json"], "tokenizer file not found"),
])
def test_an_unusable_tokenizer_stops_the_run(cli, tmp_path, flags, message) -> None:
    root = _project(tmp_path)
    out = tmp_path / "chunks.json"
    run = cli("chunk", root, *flags, "-o", out, "--no-settings")
    assert run.code == 2
    errors = [line for line in run.err.splitlines() if not line.startswith("settings:")]
    assert len(errors) == 1 and message in errors[0]
    assert not out.exists()


def test_a_corrupt_tokenizer_json_stops_stats(cli, tmp_path) -> None:
    root = _project(tmp_path)
    bad = tmp_path / "tokenizer.json"
    bad.write_text('{"model": {')
    run = cli("stats", root, "--size-unit", "tokens", "--tokenizer", bad, "--no-settings")
    assert run.code == 2 and "not a valid tokenizer.json" in run.err and run.out == ""


def test_stats_reports_embedded_over(cli, tmp_path) -> None:
    root = _project(tmp_path)
    loose = cli("stats", root, "--max-size", "300", "--overlap-lines", "2", "--json", "-q", "--no-settings")
    fitted = cli("stats", root, "--max-size", "300", "--overlap-lines", "2", "--fit", "embedded", "--json", "-q",
                 "--no-settings")
    tokens = cli("stats", root, "--size-unit", "tokens", "--tokenizer", "o200k_base", "--max-size", "120", "--json",
                 "-q", "--no-settings")
    assert loose.code == fitted.code == tokens.code == 0
    assert loose.json()["summary"]["overall"]["embeddedOverPct"] > 0
    assert fitted.json()["summary"]["overall"]["embeddedOverPct"] == 0
    assert tokens.json()["summary"]["overall"]["embeddedOverPct"] == 0
    assert tokens.json()["summary"]["overall"]["overPct"] == 0
    assert tokens.json()["options"]["tokenizer"] == "o200k_base"


def test_sweep_in_tokens(cli, tmp_path) -> None:
    root = _project(tmp_path)
    run = cli("sweep", root, "--size-unit", "tokens", "--tokenizer", "cl100k_base", "--json", "-q", "--no-settings")
    assert run.code == 0, run.err
    assert "tokens" in run.out and "cl100k_base" in run.out


def test_the_settings_file_takes_a_tokenizer_json_inside_the_repository_only(cli, tmp_path) -> None:
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers

    root = _project(tmp_path / "repo")
    (root / ".git").mkdir()
    tokenizer = Tokenizer(models.BPE(unk_token="[UNK]"))
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tokenizer.train_from_iterator(PY_SOURCE.splitlines(), trainers.BpeTrainer(
        vocab_size=300, special_tokens=["[UNK]"], initial_alphabet=pre_tokenizers.ByteLevel.alphabet()))
    (root / "models").mkdir()
    tokenizer.save(str(root / "models" / "tokenizer.json"))
    tokenizer.save(str(tmp_path / "outside.json"))

    (root / SETTINGS_FILE).write_text('[chunk]\nsize_unit = "tokens"\ntokenizer = "models/tokenizer.json"\nmax_size = 64\n')
    run = cli("chunk", root, "-q")
    assert run.code == 0, run.err
    assert all(c["embeddedSize"] <= 64 for f in run.json()["files"] for c in f["chunks"])

    (root / SETTINGS_FILE).write_text('[chunk]\nsize_unit = "tokens"\ntokenizer = "../outside.json"\n')
    out = tmp_path / "chunks.json"
    run = cli("chunk", root, "-o", out)
    assert run.code == 2 and "outside the repository" in run.err and not out.exists()


def test_saved_settings_keep_a_tokenizer_path_relative(tmp_path) -> None:
    from tokenizers import Tokenizer, models

    (tmp_path / ".git").mkdir()
    Tokenizer(models.BPE()).save(str(tmp_path / "tokenizer.json"))
    options = ChunkOptions(size_unit="tokens", tokenizer=str(tmp_path / "tokenizer.json"), max_size=256)
    path = save_settings(tmp_path, options)
    written = tomllib.loads(Path(path).read_text())["chunk"]
    assert written["tokenizer"] == "tokenizer.json" and written["fit"] == "auto"


def test_eval_in_tokens_counts_its_budget_in_tokens(cli, tmp_path) -> None:
    """The retrieval budget follows the size unit: in tokens, a default of 2,000 tokens."""
    root = _project(tmp_path)
    run = cli("eval", root, "--size-unit", "tokens", "--tokenizer", "cl100k_base", "--max-size", "128,512",
              "--json", "-q", "--no-settings", "-j", "1")
    assert run.code in (0, 1), run.err  # 1: too few queries in two files is allowed, not a crash
    document = json.loads(run.out)
    assert document["budget"] == 2000 and document["budget_unit"] == "tokens"
    assert [s["size_unit"] for s in document["settings"]] == ["tokens", "tokens"]


def test_eval_prints_its_budget_in_the_settings_unit(cli, tmp_path) -> None:
    """The table's heading names the budget's unit (it once said "2,000 nws" for tokens)."""
    root = _project(tmp_path)
    run = cli("eval", root, "--size-unit", "tokens", "--tokenizer", "cl100k_base", "--max-size", "128,512",
              "--no-chart", "-q", "--no-settings", "-j", "1")
    if "No queries" in run.err:
        pytest.skip("the project gave no queries")
    assert "budget 2,000 tokens, hit at 0.5 overlap" in run.out
    run = cli("eval", root, "--max-size", "500,1000", "--no-chart", "-q", "--no-settings", "-j", "1", "--json")
    document = json.loads(run.out)
    assert document["budget"] == 4000 and document["budget_unit"] == "nws"  # always written, nws too
