"""The explorer's background computations stop mid-way when superseded.

Each is run on a file big enough to take many check intervals, with a probe that says
"cancelled" from its first question on: the computation must stop (raise or return
nothing) having asked, instead of running to its end.
"""

from __future__ import annotations

import pytest

from explorer.engine.api import CANCEL_CHECK_EVERY
from explorer.engine.cancel import Cancelled
from explorer.engine.options import ChunkOptions
from explorer.engine.trace import trace_parsed
from explorer.tui.compare.model import compare
from explorer.tui.document.load import chunk_file, load_file
from explorer.tui.teach.model import compute_run

SMALL = ChunkOptions(max_size=40)


class Probe:
    """``should_stop`` that answers False ``after`` times, then True; counts the questions."""

    def __init__(self, after: int = 0) -> None:
        self.after = after
        self.asked = 0

    def __call__(self) -> bool:
        self.asked += 1
        return self.asked > self.after


@pytest.fixture(scope="module")
def big(tmp_path_factory):
    path = tmp_path_factory.mktemp("big") / "big.py"
    path.write_text("".join(f"def f{i}(x):\n    return x + {i}\n\n\n" for i in range(3000)))
    return load_file(str(path), SMALL)


def test_a_superseded_trace_stops_mid_way(big):
    steps = sum(1 for _ in trace_parsed(big.parsed, SMALL))
    assert steps > 4 * 512  # long enough that stopping early is visible
    probe = Probe(after=1)
    with pytest.raises(Cancelled):
        compute_run(big, SMALL, probe)
    assert probe.asked == 2  # asked every 512 steps: stopped at the second question


def test_a_trace_that_is_not_cancelled_runs_to_its_end(big):
    probe = Probe(after=10**9)
    run = compute_run(big, SMALL, probe)
    assert len(run) == sum(1 for _ in trace_parsed(big.parsed, SMALL))
    assert probe.asked == len(run) // 512
    assert run.done[-1] == len(run.chunks)


def test_a_superseded_chunking_stops_mid_way(big):
    total = len(chunk_file(big, SMALL).chunks)
    assert total > 2 * CANCEL_CHECK_EVERY
    probe = Probe(after=1)
    with pytest.raises(Cancelled):
        chunk_file(big, SMALL, probe)
    assert probe.asked == 2


def test_a_superseded_comparison_gives_nothing(big):
    probe = Probe()
    assert compare(big, SMALL, ChunkOptions(max_size=80), probe) is None
    assert probe.asked == 1
    kept = compare(big, SMALL, ChunkOptions(max_size=80), Probe(after=10**9))
    assert kept is not None
