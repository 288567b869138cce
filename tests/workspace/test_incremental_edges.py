"""The incremental run from Python: each record's fields (``op``, ``id``, ``path``) say
what its JSON line says, for upserts and for deletes, so a caller can dispatch on them
without parsing the line."""

from __future__ import annotations

import json

from explorer.workspace.incremental import open_incremental

SOURCE = "def first():\n    return 1\n\n\ndef second():\n    return 2\n"


def run_once(tree, state) -> list:
    with open_incremental([tree], state) as run:
        records = list(run.records())
        run.commit()
    return records


def test_record_fields_match_their_lines_for_upserts_and_deletes(tmp_path) -> None:
    tree = tmp_path / "repo"
    tree.mkdir()
    (tree / "a.py").write_text(SOURCE)
    (tree / "b.py").write_text(SOURCE.replace("first", "third"))
    state = tmp_path / "state.json"
    first = run_once(tree, state)
    assert {r.op for r in first} == {"upsert"}
    (tree / "b.py").unlink()
    second = run_once(tree, state)
    assert second and {r.op for r in second} == {"delete"}
    for record in first + second:
        line = json.loads(record.line)
        assert record.to_dict() == line
        assert (record.op, record.id, record.path) == (line["op"], line["id"], line["path"])
    assert {r.path for r in second} == {"b.py"}
    assert {r.id for r in second} == {r.id for r in first if r.path == "b.py"}
