"""Queries from calls and type uses: found across files, fair (their own lines are never
ranked), controlled (a line of the target is found, random words are not)."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

import explorer
from explorer.engine.api import parse
from explorer.engine.options import ChunkOptions
from explorer.engine.retrieval import evaluate_prepared, prepare
from explorer.engine.retrieval.bm25 import BM25Retriever
from explorer.engine.retrieval.calls import find_uses
from explorer.engine.retrieval.evaluate import parse_sources, with_query_texts
from explorer.engine.structure import extract_structure

PACKAGE = Path(explorer.__file__).resolve().parent

STORE = b"""export interface StoreOptions {
  capacity: number
  evictAfterMs: number
}

export class LruStore {
  constructor(private options: StoreOptions) {}
  get(key: string): string | undefined { return undefined }
}

export function makeStore(options: StoreOptions): LruStore {
  return new LruStore(options)
}

export type Maker<T> = (options: T) => LruStore
"""
APP = b"""import { makeStore as createStore, StoreOptions } from './store'

const defaults: StoreOptions = { capacity: 10, evictAfterMs: 1000 }
const make: Maker<StoreOptions> = createStore

export function boot() {
  const store = createStore(defaults)
  return store
}

function again() {
  return createStore(defaults)
}
"""


@pytest.fixture(scope="module")
def engine_files():
    return [(p.relative_to(PACKAGE).as_posix(), p.read_bytes()) for p in sorted((PACKAGE / "engine").rglob("*.py"))]


def test_uses_name_callees_through_members_aliases_and_new():
    parsed = parse("app.ts", APP, ChunkOptions())
    structure = extract_structure(parsed)
    from explorer.engine.retrieval.calls import import_aliases

    uses = find_uses(parsed.tree.root_node, structure, import_aliases(structure))
    assert [(u.source, u.name) for u in uses] == [
        ("types", "StoreOptions"), ("types", "Maker"), ("types", "StoreOptions"), ("calls", "makeStore"),
        ("calls", "makeStore")]
    scopes = {u.scope for u in uses if u.source == "calls"}
    assert len(scopes) == 2  # boot() and again(): one scope each
    store = parse("store.ts", STORE, ChunkOptions())
    uses = [(u.source, u.name) for u in find_uses(store.tree.root_node, extract_structure(store))]
    # a definition's own name is no use; a parameter's type, a return type and `new` are
    assert uses == [("types", "StoreOptions"), ("types", "StoreOptions"), ("types", "LruStore"),
                    ("calls", "LruStore"), ("types", "T"), ("types", "LruStore")]  # <T> declares T


def test_queries_target_definitions_in_other_files_only():
    files = [("store.ts", STORE), ("app.ts", APP)]
    prepared = prepare(files, [ChunkOptions(max_size=200)], queries="calls,types", jobs=1)
    made = sorted((q.origin, q.name, q.path) for q in prepared.queries)
    # makeStore is called from two functions of app.ts: one query per scope; new LruStore and the
    # StoreOptions mentions inside store.ts target their own file: none
    assert made == [("calls", "makeStore", "store.ts"), ("calls", "makeStore", "store.ts"),
                    ("types", "Maker", "store.ts"), ("types", "StoreOptions", "store.ts")]
    first = next(q for q in prepared.queries if q.origin == "calls")
    assert "createStore(defaults)" in first.text and first.text.count("\n") <= 4  # at most 5 lines
    target = STORE[first.start:first.end].decode()
    assert target.startswith("export function makeStore") and target.rstrip().endswith("}")
    assert prepared.query_source == "calls,types"


def test_the_query_own_lines_are_never_ranked(engine_files):
    settings = [ChunkOptions(max_size=400), ChunkOptions(max_size=2000, strategy="lines")]
    prepared = prepare(engine_files, settings, queries="calls", jobs=2)
    assert len(prepared.queries) > 200
    result = evaluate_prepared(prepared, BM25Retriever())
    for setting in result.settings:
        for query, target, outcome in zip(result.queries, prepared.targets, setting.outcomes):
            own = prepared.files[target.own_file]
            assert own.path != query.path  # the target is in another file
            for chunk in outcome.top:
                if chunk.path == own.path:  # chunks of the caller's file may rank, its own lines never
                    start = own.masked.to_original(target.own_start)
                    end = own.masked.to_original(target.own_end, end=True)
                    assert chunk.end <= start or chunk.start >= end


def test_positive_and_negative_controls_for_calls(engine_files):
    prepared = prepare(engine_files, [ChunkOptions(max_size=1000)], queries="calls", jobs=2)
    assert len(prepared.queries) > 200
    lines = []
    for query in prepared.queries:  # the target's longest line, copied
        text = dict(engine_files)[query.path][query.start:query.end].decode()
        lines.append(max(text.splitlines(), key=len).strip())
    positive = evaluate_prepared(with_query_texts(prepared, lines), BM25Retriever())
    rng = random.Random(0)
    words = ["river", "candle", "orbit", "velvet", "harbor", "lantern", "meadow", "quartz", "saddle", "tundra"]
    noise = [" ".join(rng.choice(words) for _ in range(8)) for _ in prepared.queries]
    negative = evaluate_prepared(with_query_texts(prepared, noise), BM25Retriever())
    assert positive.settings[0].metrics["recall@5"].value >= 0.85
    assert negative.settings[0].metrics["recall@5"].value <= 0.03
    asked = evaluate_prepared(prepared, BM25Retriever())
    assert 0.1 < asked.settings[0].metrics["recall@5"].value < positive.settings[0].metrics["recall@5"].value


def test_sources_mix_and_report_apart(engine_files):
    prepared = prepare(engine_files[:40], [ChunkOptions(max_size=500), ChunkOptions(max_size=2000)],
                       queries="calls,docs", jobs=2)
    counts = Counter(q.origin for q in prepared.queries)
    assert counts["docs"] > 20 and counts["calls"] > 20 and prepared.query_source == "docs,calls"
    result = evaluate_prepared(prepared, BM25Retriever())
    reports = result.by_source()
    assert list(reports) == ["docs", "calls"] and reports["calls"].queries == counts["calls"]
    document = result.to_dict()
    assert set(document["sources"]) == {"docs", "calls"}
    assert len(document["sources"]["calls"]["settings"]) == 2
    assert parse_sources("types, docs") == ("docs", "types")
    with pytest.raises(ValueError, match="docs, calls, types"):
        parse_sources("docs,comments")
