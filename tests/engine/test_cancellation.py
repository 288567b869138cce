"""Long computations stop mid-way when asked: chunking, sweeps, batches, exports.

The probe says "stop" after a few questions; each computation must stop there (fewer
files done than planned, nothing written) instead of running to its end.
"""

from __future__ import annotations

import pytest

from explorer.engine.api import CANCEL_CHECK_EVERY, chunk_parsed, parse
from explorer.engine.batch import chunk_batch_stream
from explorer.engine.cancel import Cancelled
from explorer.engine.measure.sweep import sweep
from explorer.engine.options import ChunkOptions
from explorer.workspace.export_run import export_tree_file

SMALL = ChunkOptions(max_size=40)


class Probe:
    """``should_stop`` that answers False ``after`` times, then True; counts the questions."""

    def __init__(self, after: int = 0) -> None:
        self.after = after
        self.asked = 0

    def __call__(self) -> bool:
        self.asked += 1
        return self.asked > self.after


def many_functions(count: int) -> str:
    return "".join(f"def f{i}(x):\n    return x + {i}\n\n\n" for i in range(count))


@pytest.fixture
def files(tmp_path):
    paths = []
    for n in range(8):
        path = tmp_path / f"m{n}.py"
        path.write_text(many_functions(20))
        paths.append(path)
    return paths


def test_chunking_stops_at_the_first_check_that_says_so():
    parsed = parse("big.py", many_functions(3000), SMALL)
    total = len(chunk_parsed(parsed, SMALL))
    assert total > 2 * CANCEL_CHECK_EVERY
    probe = Probe(after=1)
    with pytest.raises(Cancelled):
        chunk_parsed(parsed, SMALL, should_stop=probe)
    assert probe.asked == 2
    never = Probe(after=10**9)
    assert len(chunk_parsed(parsed, SMALL, should_stop=never)) == total
    assert never.asked == 2 * (total // CANCEL_CHECK_EVERY)  # spans, then chunks


def test_a_stopped_sweep_covers_the_files_done_so_far(files):
    settings = [ChunkOptions(max_size=100), ChunkOptions(max_size=200)]
    whole = sweep([(str(p), p.read_text()) for p in files], settings, jobs=1)
    assert whole.complete and whole.settings[0].summary.overall.files == len(files)
    stopped = sweep([(str(p), p.read_text()) for p in files], settings, jobs=1, should_stop=Probe(after=2))
    assert not stopped.complete
    assert [s.summary.overall.files for s in stopped.settings] == [3, 3]


def test_closing_a_batch_stream_mid_way_stops_it(files):
    stream = chunk_batch_stream([str(p) for p in files], jobs=1, max_size=100)
    first = [next(stream) for _ in range(2)]
    stream.close()
    assert [r.ok for r in first] == [True, True]
    with pytest.raises(StopIteration):
        next(stream)


def test_a_cancelled_export_writes_nothing_and_leaves_no_temporary_file(files, tmp_path):
    target = tmp_path / "out" / "export.json"
    target.parent.mkdir()
    probe = Probe(after=3)
    assert export_tree_file(str(tmp_path), SMALL, None, str(target), jobs=1, should_stop=probe) is None
    assert probe.asked == 4
    assert list(target.parent.iterdir()) == []
    done = export_tree_file(str(tmp_path), SMALL, None, str(target), jobs=1, should_stop=Probe(after=10**9))
    assert done is not None and done.tally.files == len(files)
    assert target.exists()


def test_bm25_stops_between_batches_of_documents_and_of_queries():
    from explorer.engine.retrieval.bm25 import STOP_CHECK_EVERY, BM25Retriever

    documents = [f"def handler_{i}(request): return parse_{i % 7}(request)" for i in range(2 * STOP_CHECK_EVERY + 5)]
    queries = [f"handler {i} parse" for i in range(3 * STOP_CHECK_EVERY)]
    retriever = BM25Retriever()
    for after in (1, 3, 5):  # while tokenizing documents, then while ranking queries
        probe = Probe(after=after)
        with pytest.raises(Cancelled):
            retriever.search(documents, queries, 5, should_stop=probe)
        assert probe.asked == after + 1
    whole = retriever.search(documents, queries, 5)
    asked = Probe(after=10**9)
    assert (retriever.search(documents, queries, 5, should_stop=asked).ids == whole.ids).all()
    assert asked.asked == 3 + 3  # three batches of documents, three of queries
