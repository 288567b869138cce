"""Stable chunk ids: same file, content and settings give the same id; any change to
what is embedded, to the path or to an option changes it."""

from __future__ import annotations

import dataclasses
import hashlib
import json

import explorer
from explorer.engine.options import ChunkOptions
from explorer.workspace.ids import chunk_id, chunk_ids, content_hash, fingerprint_of, settings_fingerprint

SOURCE = "def a():\n    return 1\n\n\ndef b():\n    return 2\n"


def test_id_follows_the_documented_formula() -> None:
    options = ChunkOptions(max_size=20)
    canonical = json.dumps(dataclasses.asdict(options), sort_keys=True, separators=(",", ":"))
    fingerprint = hashlib.sha256(canonical.encode()).hexdigest()[:16]
    assert settings_fingerprint(options) == fingerprint
    text = "def a():\n    return 1\n"
    expected = hashlib.sha256(b"chunk-explorer-id/1\0" + fingerprint.encode() + b"\0pkg/a.py\0"
                              + text.encode()).hexdigest()[:32]
    assert chunk_id(fingerprint, "pkg/a.py", text) == expected
    assert content_hash(b"abc") == hashlib.sha256(b"abc").hexdigest()


def test_every_option_is_in_the_fingerprint() -> None:
    base = ChunkOptions()
    values = base.to_dict()
    assert set(values) == {f.name for f in dataclasses.fields(ChunkOptions)}  # options added later included
    fingerprints = {settings_fingerprint(base)}
    for name in values:
        fingerprints.add(fingerprint_of({**values, name: ["changed", values[name]]}))
    assert len(fingerprints) == len(values) + 1
    assert settings_fingerprint(dataclasses.replace(base, max_size=99)) != settings_fingerprint(base)
    assert settings_fingerprint(dataclasses.replace(base, strict=True)) != settings_fingerprint(base)


def test_ids_depend_on_path_text_and_settings_only() -> None:
    options = ChunkOptions(max_size=20)
    chunks = explorer.chunk("a.py", SOURCE, max_size=20)
    texts = [c.contextualized_text for c in chunks]
    ids = chunk_ids("a.py", texts, options)
    assert len(set(ids)) == len(ids) == len(chunks) > 1
    assert chunk_ids("a.py", texts, options) == ids  # deterministic
    assert chunk_ids("b.py", texts, options)[0] != ids[0]
    assert chunk_ids("a.py", texts, ChunkOptions(max_size=21))[0] != ids[0]
    assert chunk_ids("a.py", [texts[0] + " "], options)[0] != ids[0]


def test_identical_chunks_of_one_file_get_distinct_ids() -> None:
    ids = chunk_ids("a.py", ["same", "other", "same", "same"], ChunkOptions())
    assert len(set(ids)) == 4
    assert ids[1] == chunk_ids("a.py", ["other"], ChunkOptions())[0]


def test_names_that_are_not_utf8_are_hashed_as_their_bytes() -> None:
    name = b"caf\xe9.py".decode("utf-8", "surrogateescape")
    assert chunk_id("f", name, "x") != chunk_id("f", "caf.py", "x")
