"""Stable chunk ids: same file, content and settings give the same id; any change to
what is embedded, to the path or to an option changes it."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os

import explorer
from explorer.engine.options import ChunkOptions
from explorer.workspace.ids import chunk_id, chunk_ids, content_hash, fingerprint_of, settings_fingerprint

SOURCE = "def a():\n    return 1\n\n\ndef b():\n    return 2\n"


def _field(value: bytes) -> bytes:
    return str(len(value)).encode() + b":" + value


def test_id_follows_the_documented_formula() -> None:
    options = ChunkOptions(max_size=20)
    values = dataclasses.asdict(options)
    del values["namespace"]  # unset: not in the fingerprint
    canonical = json.dumps(values, sort_keys=True, separators=(",", ":"))
    fingerprint = hashlib.sha256(canonical.encode()).hexdigest()[:16]
    assert settings_fingerprint(options) == fingerprint
    text = "def a():\n    return 1\n"

    def expected(namespace: bytes, occurrence: bytes, fingerprint: str = fingerprint) -> str:
        return hashlib.sha256(_field(b"chunk-explorer-id/2") + _field(fingerprint.encode()) + _field(namespace)
                              + _field(b"pkg/a.py") + _field(occurrence) + _field(text.encode())).hexdigest()[:32]

    assert chunk_id(fingerprint, "pkg/a.py", text) == expected(b"", b"0")
    assert chunk_id(fingerprint, "pkg/a.py", text, 2, "repo") == expected(b"repo", b"2")
    # A namespace that is set is also in the fingerprint.
    named = hashlib.sha256(json.dumps({**values, "namespace": "repo"}, sort_keys=True,
                                      separators=(",", ":")).encode()).hexdigest()[:16]
    assert chunk_ids("pkg/a.py", [text, text], ChunkOptions(max_size=20, namespace="repo")) == [
        expected(b"repo", b"0", named), expected(b"repo", b"1", named)]
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
    # A namespace is in the fingerprint once set (a state written under another one is stale).
    assert settings_fingerprint(dataclasses.replace(base, namespace="repo")) != settings_fingerprint(base)


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


def test_an_occurrence_number_cannot_be_forged_by_the_text() -> None:
    # The second "x" of a file and a chunk whose text is "x", NUL, "1" were the same bytes.
    fingerprint = settings_fingerprint(ChunkOptions())
    assert chunk_id(fingerprint, "a.py", "x", 1) != chunk_id(fingerprint, "a.py", "x\x001")
    assert chunk_ids("a.py", ["x", "x"], fingerprint)[1] != chunk_ids("a.py", ["x", "x\x001"], fingerprint)[1]
    # Nor can a path run into the text (a path holding NUL comes only from an adapter's metadata).
    assert chunk_id(fingerprint, "a\x00b", "c") != chunk_id(fingerprint, "a", "b\x00c")


def test_names_that_differ_in_undecodable_bytes_get_different_ids() -> None:
    fingerprint = settings_fingerprint(ChunkOptions())
    names = [b"caf\xe9.py", b"caf\xe8.py", b"caf\xc3\xa9.py", b"caf\xed\xb3\xa9\xed\xa0\x80.py", b"caf.py"]
    decoded = [os.fsdecode(name) for name in names]
    # Strings no file name decodes to: escaped bytes that form valid UTF-8, and a lone surrogate.
    others = ["caf\udcc3\udca9.py", "caf\udce9\ud800.py"]
    ids = [chunk_id(fingerprint, name, "x") for name in decoded + others]
    assert len(set(ids)) == len(ids)
    # A name's bytes are hashed as they are: the id of b"caf\xe9.py" is that of those bytes.
    raw = hashlib.sha256(_field(b"chunk-explorer-id/2") + _field(fingerprint.encode()) + _field(b"")
                         + _field(b"caf\xe9.py") + _field(b"0") + _field(b"x")).hexdigest()[:32]
    assert ids[0] == raw


def test_a_namespace_changes_every_id_and_none_is_no_namespace() -> None:
    texts = [c.contextualized_text for c in explorer.chunk("a.py", SOURCE, max_size=20)]
    plain = chunk_ids("a.py", texts, ChunkOptions(max_size=20))
    repo_a = chunk_ids("a.py", texts, ChunkOptions(max_size=20, namespace="repo-a"))
    repo_b = chunk_ids("a.py", texts, ChunkOptions(max_size=20, namespace="repo-b"))
    assert not set(plain) & set(repo_a) and not set(repo_a) & set(repo_b)
    named = ChunkOptions(max_size=20, namespace="repo-a")
    assert chunk_ids("a.py", texts, settings_fingerprint(named), "repo-a") == repo_a
    assert chunk_ids("a.py", texts, ChunkOptions(max_size=20, namespace=None)) == plain


def _long_module(extra_import: str = "") -> str:
    """About 2,000 lines: 150 functions, every thirtieth of which calls json."""
    head = "import os\nfrom collections import OrderedDict as Ordered\n" + extra_import + "\n\n"
    bodies = []
    for i in range(150):
        use = "json.dumps(values)" if i % 30 == 0 else "os.path.join(*values)" if i % 2 else "Ordered(values)"
        lines = [f"def step_{i}(values):", f'    """Step {i} of the pipeline."""']
        lines += [f"    values = [v + {k} for v in values]" for k in range(9)]
        lines += [f"    return {use}", "", ""]
        bodies.append("\n".join(lines))
    return head + "\n".join(bodies)


def _ids_and_texts(code: str, **options: object) -> tuple[list[str], list[str]]:
    built = ChunkOptions.build(None, **options)
    chunks = explorer.chunk("pkg/pipeline.py", code, **options)
    return chunk_ids("pkg/pipeline.py", [c.contextualized_text for c in chunks], built), [c.text for c in chunks]


def test_adding_an_import_changes_only_the_ids_of_the_chunks_that_use_it() -> None:
    before, after = _long_module(), _long_module("import json\n")
    assert 1900 <= after.count("\n") <= 2200
    old_ids, _ = _ids_and_texts(before)
    new_ids, new_texts = _ids_and_texts(after)
    changed = [text for id_, text in zip(new_ids, new_texts) if id_ not in set(old_ids)]
    using = [text for text in new_texts if "json" in text]  # json's callers, and the chunk holding the import
    assert changed and len(changed) < len(new_ids) / 4
    assert set(changed) <= set(using)
    assert len(old_ids) - len(set(old_ids) & set(new_ids)) == len(changed)  # as many ids gone as came
    # With the file's imports in every header, the same edit changes every chunk of the file.
    old_ids, _ = _ids_and_texts(before, filter_imports=False)
    new_ids, _ = _ids_and_texts(after, filter_imports=False)
    assert not set(old_ids) & set(new_ids)


def test_the_fingerprint_is_of_sorted_compact_json_whatever_the_order_given() -> None:
    # fingerprint_of directly: settings_fingerprint is cached, and a cache filled by an
    # earlier call would hide a change in how the fingerprint is made.
    values = {"b": [1, 2], "a": "x", "namespace": None}
    expected = hashlib.sha256(b'{"a":"x","b":[1,2]}').hexdigest()[:16]
    assert fingerprint_of(values) == expected
    assert fingerprint_of({"a": "x", "b": [1, 2]}) == expected  # the order given changes nothing
    assert fingerprint_of({"b": [1, 2], "a": "x", "namespace": "repo"}) == hashlib.sha256(
        b'{"a":"x","b":[1,2],"namespace":"repo"}').hexdigest()[:16]
    settings_fingerprint.cache_clear()
    assert settings_fingerprint(ChunkOptions()) == fingerprint_of(ChunkOptions().to_dict())


def test_a_string_no_name_decodes_to_is_marked_and_coded_with_its_surrogates() -> None:
    fingerprint = settings_fingerprint(ChunkOptions())
    lone = "caf\ud800.py"  # a lone surrogate: no file name's bytes decode to it
    coded = lone.encode("utf-8", "surrogatepass")
    expected = hashlib.sha256(_field(b"chunk-explorer-id/2") + _field(fingerprint.encode()) + _field(b"")
                              + b"~" + _field(coded) + _field(b"0") + _field(b"x")).hexdigest()[:32]
    assert chunk_id(fingerprint, lone, "x") == expected
    # The same in the embedded text and the namespace.
    text_id = hashlib.sha256(_field(b"chunk-explorer-id/2") + _field(fingerprint.encode()) + _field(b"")
                             + _field(b"a.py") + _field(b"0") + b"~" + _field(coded)).hexdigest()[:32]
    assert chunk_id(fingerprint, "a.py", lone) == text_id
