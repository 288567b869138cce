"""Check the token limit on real code: what is embedded fits the model's window.

    python benchmarks/token_fit_check.py [--max-size 512] [--tokenizer cl100k_base]
                                         [--overlap-lines 2] [--languages python,go] [--files N]

Chunks every file of the per-language corpus (see ``corpus.py``) with
``size_unit="tokens"``, ``context_mode="full"`` (``fit`` is then ``embedded``) and
checks, per language:

* every chunk's ``contextualized_text`` counts at most ``--max-size`` tokens, counted
  independently with ``bpe_openai.get_encoding(name).encode`` (the public encoder, not
  the counter the engine uses);
* the chunks' texts tile each file exactly;
* no definition that fits in the room the header leaves is split (a definition whose
  tokens are within the window limit of its own first line lies in one chunk);
* how much of the header survived: chunks with their path line, scope, and overlap.

Exits 1 when a check fails.
"""

from __future__ import annotations

import argparse
import os
import sys
from bisect import bisect_right

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import corpus

import explorer
from explorer.engine.api import parse, room_for
from explorer.engine.measure.quality import _captures, definition_spans
from explorer.engine.options import ChunkOptions


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--max-size", type=int, default=512)
    ap.add_argument("--tokenizer", default="cl100k_base")
    ap.add_argument("--overlap-lines", type=int, default=2)
    ap.add_argument("--languages", default="")
    ap.add_argument("--files", type=int, default=0, help="at most N files per language (0: all)")
    args = ap.parse_args()
    import bpe_openai

    encoder = bpe_openai.get_encoding(args.tokenizer)
    manifest = corpus.load()
    root = manifest.get("root", corpus.DEFAULT_OUT)
    options = ChunkOptions(size_unit="tokens", tokenizer=args.tokenizer, max_size=args.max_size,
                           context_mode="full", overlap_lines=args.overlap_lines)
    wanted = [x for x in args.languages.split(",") if x]
    failed = False
    print(f"tokens, {args.tokenizer}, max {args.max_size}, context full, overlap {args.overlap_lines}, "
          f"fit {'embedded' if options.fit_embedded else 'text'}")
    print(f"{'language':<12}{'files':>6}{'chunks':>8}{'over':>6}{'max':>6}{'tiled':>7}"
          f"{'defs fit':>9}{'split':>6}{'path%':>7}{'scope%':>7}{'overlap%':>9}")
    for language, entry in manifest["languages"].items():
        if wanted and language not in wanted:
            continue
        files = entry["files"][: args.files or None]
        chunks_n = over = biggest = untiled = fit_defs = split_defs = 0
        with_path = with_scope = scope_wanted = with_overlap = overlap_wanted = 0
        for item in files:
            path = os.path.join(root, item["file"])
            with open(path, "rb") as handle:
                data = handle.read()
            try:
                chunks = explorer.chunk(item["file"], data, **options.to_dict())
            except ValueError as exc:  # not text
                print(f"  skipped {item['file']}: {exc}")
                continue
            text = data.decode("utf-8")
            chunks_n += len(chunks)
            untiled += "".join(c.text for c in chunks) != text
            for c in chunks:
                n = len(encoder.encode(c.contextualized_text, disallowed_special=()))
                biggest = max(biggest, n)
                if n > args.max_size or n != c.embedded_size:
                    over += 1
                    print(f"  OVER {item['file']} chunk {c.index}: {n} tokens (reported {c.embedded_size})")
                with_path += c.contextualized_text.startswith(("#", "//", "/*", "--", ";", "%", "<!--"))
                if c.context.scope:
                    scope_wanted += 1
                    with_scope += "Scope: " in c.contextualized_text.split("\n", 3)[1] if "\n" in c.contextualized_text else 0
                if c.index > 0:
                    overlap_wanted += 1
                    with_overlap += bool(c.overlap_text)
            fits, splits = _definitions(item["file"], data, options, chunks)
            fit_defs += fits
            split_defs += len(splits)
            for start, end in splits[:3]:
                print(f"  SPLIT {item['file']} definition at bytes {start}-{end}")
        failed |= bool(over or untiled or split_defs)

        def pct(a: int, b: int) -> str:
            return f"{100 * a / b:.0f}" if b else "-"

        print(f"{language:<12}{len(files):>6}{chunks_n:>8}{over:>6}{biggest:>6}{len(files) - untiled:>7}"
              f"{fit_defs:>9}{split_defs:>6}{pct(with_path, chunks_n):>7}{pct(with_scope, scope_wanted):>7}"
              f"{pct(with_overlap, overlap_wanted):>9}")
    print("FAILED" if failed else "all checks passed")
    return 1 if failed else 0


def _definitions(name: str, data: bytes, options: ChunkOptions, chunks: list) -> tuple[int, list[tuple[int, int]]]:
    """Definitions that fit in the room left at their first line (the chunker's own judge,
    ``engine.fit.Room``), and those of them split."""
    parsed = parse(name, data, options)
    if parsed.root is None or parsed.language is None:
        return 0, []
    room = room_for(parsed, options)
    starts = [c.byte_range.start for c in chunks]
    fits, splits = 0, []
    for start, end, _kind, _top in definition_spans(parsed.root, parsed.language, _captures(parsed.root, parsed.language)):
        if not room.fits(start, end):
            continue
        fits += 1
        k = bisect_right(starts, start) - 1
        if k < 0 or chunks[k].byte_range.end < end:
            splits.append((start, end))
    return fits, splits


if __name__ == "__main__":
    sys.exit(main())
