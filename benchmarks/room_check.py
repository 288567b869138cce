"""Check on real code that a definition which fits the room its chunk has is never split.

    python benchmarks/room_check.py [--werkzeug DIR] [--stdlib DIR] [--max-size 1500]
                                    [--fits embedded,auto] [--jobs 2] [--files N]
                                    [--size-unit nws] [--tokenizer NAME] [--overlap-lines 0]

Walks each tree as ``stats`` does (the workspace walk, default excludes and .gitignore),
chunks every file under each ``fit`` (``embedded``: the header, overlap and code must stay
within ``max_size``; ``auto``, the default, is ``text`` for nws) with the default settings
otherwise, and counts, per tree and fit:

* ``fit+split``: definitions that fit the room a chunk starting on their first line has
  (:class:`explorer.engine.fit.Room`, the chunker's own judge), yet no chunk holds whole.
  Must be 0. It is counted three ways, which must agree: from the problems (the ``split``
  of ``stats`` and the repository view), from the quality measures (the sweep's
  ``split (fit)``) and directly from the chunks' byte ranges;
* ``too big``: definitions larger than that room, cut into pieces (the sweep's ``cut too
  big``), and how many of them fit ``max_size`` but not the room the header leaves;
* ``alone``: chunks that end with a definition's header (its first lines, decorators
  included) and none of its body, which the next chunk opens. Must be 0. Not counted there
  but in ``kept``: a header whose first member is a definition that fits alone but not
  after the header (it is kept whole, the header stays where it was);
* ``over``: chunks over the limit in the chosen fit (the embedded text with ``embedded``,
  the code with ``text``), and ``lossy``: files whose chunks do not concatenate to the file.
  Both must be 0.

Exits 1 when a check fails. Defaults: Werkzeug 3.1.3 at /work/realcode/werkzeug and the
whole standard library at /usr/lib/python3.11 (about two minutes per fit on 2 cores).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from dataclasses import dataclass, field
from functools import partial

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from explorer.engine.api import room_for
from explorer.engine.batch import BatchFile, chunk_batch_stream
from explorer.engine.kinds import holds_body, is_statement_container
from explorer.engine.measure.problems import find_problems
from explorer.engine.measure.quality import Holders, definition_spans, measure_file
from explorer.engine.options import ChunkOptions
from explorer.engine.parse import ParsedFile
from explorer.workspace.walk import WalkedFile, walk


@dataclass
class Counts:
    files: int = 0
    chunks: int = 0
    definitions: int = 0
    fit: int = 0
    split: int = 0  # from the chunks' byte ranges and the room
    split_problems: int = 0  # find_problems' `split`
    split_quality: int = 0  # measure_file's any_split (the sweep's column)
    too_big: int = 0
    too_big_for_room: int = 0  # of them: within max_size, over the room the header leaves
    alone: int = 0
    kept: int = 0  # header before a first member that fits alone but not after the header
    over: int = 0
    lossy: int = 0
    failed: int = 0
    examples: list[str] = field(default_factory=list)

    def add(self, other: Counts) -> None:
        for name in ("files", "chunks", "definitions", "fit", "split", "split_problems", "split_quality",
                     "too_big", "too_big_for_room", "alone", "kept", "over", "lossy"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.examples += other.examples


def check_file(parsed: ParsedFile, chunks: list, options: ChunkOptions, seconds: dict[str, float]) -> Counts:
    """The counts of one file (run in the batch's workers)."""
    counts = Counts(files=1, chunks=len(chunks))
    src = parsed.source
    name = parsed.path or "?"
    counts.lossy = "".join(c.text for c in chunks) != src.text
    limit = options.max_size
    counts.over = sum(1 for c in chunks if (c.embedded_size if options.fit_embedded else c.size) > limit)
    found = find_problems(parsed, chunks, options)
    kinds = found.counts()
    counts.split_problems = kinds["split"]
    counts.split_quality = measure_file(parsed, chunks, options).any_split
    root = parsed.root
    if root is None or parsed.language is None:
        return counts
    spans = [(c.byte_range.start, c.byte_range.end) for c in chunks]
    holders = Holders(spans)
    room = room_for(parsed, options)
    definitions = definition_spans(root, parsed.language)
    spans_of = {(start, end) for start, end, _kind, _top in definitions}
    for start, end, kind, _top in definitions:
        counts.definitions += 1
        need, space = room.judge(start, end)
        held = holders.holds(start, end)
        if need <= space:
            counts.fit += 1
            if not held:
                counts.split += 1
                counts.examples.append(f"SPLIT {name}:{src.line_of(start) + 1} {kind} {need} <= room {space}")
            continue
        if not held:
            counts.too_big += 1
            counts.too_big_for_room += need <= limit
            first = _first_of_body(root, start, end, kind)
            k = holders.last_start(start)
            if first is None or k < 0 or not spans[k][1] <= first.start_byte < end or not src.nws(spans[k][0], start):
                continue
            member = (first.start_byte, first.end_byte)
            if member in spans_of and room.fits(*member) and room.need(start, member[1]) > room.at(start):
                counts.kept += 1  # its first member fits alone, not after the header: kept whole
                continue
            counts.alone += 1
            counts.examples.append(f"ALONE {name}:{src.line_of(start) + 1} chunk {k} ends with the header "
                                   f"of {kind}: {src.line_text(src.line_of(start)).strip()[:60]}")
    return counts


def _first_of_body(root, start: int, end: int, kind: str):
    """The first statement or member of the definition at ``[start, end)`` (None when its
    last child is no body)."""
    node, found = root.descendant_for_byte_range(end - 1, end), None
    while node is not None and node.end_byte == end:
        if node.type == kind and node.start_byte >= start:
            found = node  # the outermost of that kind that starts in the span
        node = node.parent
    if found is None or not found.named_child_count:
        return None
    body = found.named_children[-1]
    if (holds_body(body.type) or is_statement_container(body.type)) and body.named_child_count:
        return body.named_children[0]
    return None


def run(root: str, options: ChunkOptions, jobs: int, limit_files: int) -> tuple[Counts, float]:
    files = [f for f in walk(root) if isinstance(f, WalkedFile)]
    if limit_files:
        files = files[:limit_files]
    total = Counts()
    started = time.perf_counter()
    batch = [BatchFile(path=f.path, name=f.rel, size=f.size) for f in files]
    for item in chunk_batch_stream(batch, jobs=jobs, analyze=partial(_analyze), keep_chunks=False, options=options):
        if item.ok:
            total.add(item.analysis)
        elif not item.not_text:
            total.failed += 1
            total.examples.append(f"FAILED {item.path}: {item.error}")
    return total, time.perf_counter() - started


def _analyze(parsed: ParsedFile, chunks: list, options: ChunkOptions, seconds: dict[str, float]) -> Counts:
    return check_file(parsed, chunks, options, seconds)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--werkzeug", default="/work/realcode/werkzeug")
    ap.add_argument("--stdlib", default="/usr/lib/python3.11")
    ap.add_argument("--max-size", type=int, default=1500)
    ap.add_argument("--overlap-lines", type=int, default=0)
    ap.add_argument("--size-unit", default="nws", help="nws (default), chars, lines or tokens")
    ap.add_argument("--tokenizer", default=None, help="with --size-unit tokens: cl100k_base, ...")
    ap.add_argument("--fits", default="embedded,auto", help="comma-separated fit modes")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--files", type=int, default=0, help="at most N files per tree (0: all)")
    args = ap.parse_args()
    trees = [(label, path) for label, path in (("werkzeug", args.werkzeug), ("stdlib", args.stdlib)) if path]
    print(f"{args.size_unit}, max {args.max_size}, context full, overlap {args.overlap_lines} (the defaults but fit)")
    print(f"{'tree':<10}{'fit':<10}{'files':>7}{'chunks':>8}{'defs':>8}{'fit':>8}{'fit+split':>10}"
          f"{'(problems':>10}{' quality)':>9}{'too big':>9}{'(for room)':>11}{'alone':>7}{'kept':>6}{'over':>6}"
          f"{'lossy':>6}"
          f"{'seconds':>9}")
    failed = False
    for label, path in trees:
        for fit in [f for f in args.fits.split(",") if f]:
            options = ChunkOptions.build(None, max_size=args.max_size, fit=fit, size_unit=args.size_unit,
                                         tokenizer=args.tokenizer, overlap_lines=args.overlap_lines)
            counts, seconds = run(path, options, args.jobs, args.files)
            print(f"{label:<10}{fit:<10}{counts.files:>7,}{counts.chunks:>8,}{counts.definitions:>8,}"
                  f"{counts.fit:>8,}{counts.split:>10,}{counts.split_problems:>10,}{counts.split_quality:>9,}"
                  f"{counts.too_big:>9,}{counts.too_big_for_room:>11,}{counts.alone:>7,}{counts.kept:>6,}{counts.over:>6,}"
                  f"{counts.lossy:>6,}{seconds:>9.1f}")
            for line in counts.examples[:10]:
                print("   ", line)
            bad = counts.split or counts.split_problems or counts.split_quality or counts.alone or counts.over
            failed |= bool(bad or counts.lossy or counts.failed)
    print("FAILED" if failed else "all checks passed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
