"""Chunk the container files under some folders and print what the chunking of their
embedded code is worth: tiling, range slicing, and the quality measures (clean cuts,
split definitions) of the cuts that fall inside embedded regions, beside the same
measures for the plain source files found under the same folders.

    python scripts/embedded_quality.py FOLDER... [--max-size N]
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from bisect import bisect_right
from collections import Counter, defaultdict

from explorer.engine.api import chunk_parsed, parse
from explorer.engine.containers import is_container
from explorer.engine.containers.notebook import NotebookError
from explorer.engine.files import read_regular_file
from explorer.engine.languages import detect_language
from explorer.engine.measure.quality import REGION_BOUNDARY, measure_file
from explorer.engine.model import Chunk
from explorer.engine.options import ChunkOptions
from explorer.engine.parse import ParsedFile

_BREAK = re.compile(r"\r\n|\r|\n")
PLAIN = {"python", "javascript", "typescript", "css", "scss", "tsx"}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("folders", nargs="+")
    ap.add_argument("--max-size", type=int, default=500)
    ap.add_argument("--show", action="store_true", help="print every cut in code that is not clean")
    args = ap.parse_args()
    options = ChunkOptions(max_size=args.max_size)
    rows: dict[str, Counter[str]] = defaultdict(Counter)
    langs: dict[str, Counter[str]] = defaultdict(Counter)
    for folder in args.folders:
        for base, dirs, files in os.walk(folder):
            dirs.sort()
            for name in sorted(files):
                path = os.path.join(base, name)
                language = detect_language(path)
                if language is None or not (is_container(language) or language in PLAIN):
                    continue
                key = language if is_container(language) else f"plain {language}"
                row = rows[key]
                try:
                    data = read_regular_file(path, 8 << 20)
                    parsed = parse(path, data, options)
                    chunks = chunk_parsed(parsed, options)
                except (NotebookError, ValueError, OSError) as exc:
                    row["refused"] += 1
                    print(f"refused: {exc}", file=sys.stderr)
                    continue
                row["files"] += 1
                row["chunks"] += len(chunks)
                src = parsed.source
                row["exact"] += "".join(c.text for c in chunks) == src.text
                row["ranges ok"] += all(
                    src.data[c.byte_range.start : c.byte_range.end].decode("utf-8", "surrogatepass") == c.text
                    and src.text[c.char_range.start : c.char_range.end] == c.text
                    for c in chunks
                )
                if parsed.cells:
                    row["cells"] += len(parsed.cells)
                    row["cell slices ok"] += _cells_ok(parsed, chunks)
                metrics = measure_file(parsed, chunks, options)
                embedded = [r for r in parsed.regions if r.embedded]
                row["regions"] += len(embedded)
                for region in embedded:
                    langs[key][region.language or "(none: lines)"] += 1
                starts = [r.start for r in parsed.regions]
                for cut in metrics.cuts:
                    if is_container(language) and not parsed.regions:
                        break  # no embedded code: its cuts are the container's text
                    if parsed.regions:
                        if cut.parent == REGION_BOUNDARY:
                            row["boundary cuts"] += 1
                            continue
                        region = parsed.regions[bisect_right(starts, cut.offset) - 1]
                        if not region.embedded:
                            continue
                    row["cuts"] += 1
                    row["clean"] += cut.kind in ("stmt", "sibling")
                    if args.show and cut.kind not in ("stmt", "sibling"):
                        print(f"  {path}:{cut.line + 1}: {cut.kind} cut in {cut.parent} (before {cut.after})", file=sys.stderr)
                    row["clean or forced"] += cut.kind in ("stmt", "sibling") or cut.oversized_token
                row["defs fit"] += metrics.any_fit
                row["defs split"] += metrics.any_split
                row["top fit"] += metrics.top_fit
                row["top split"] += metrics.top_split
    print(f"max_size={options.max_size} {options.size_unit}")
    head = ("kind", "files", "refused", "regions", "chunks", "exact", "ranges", "cuts in code", "clean%",
            "clean/forced%", "defs fit", "split%", "top split%")
    print(" | ".join(head))
    for key in sorted(rows):
        r = rows[key]
        pct = lambda a, b: f"{100 * a / b:.2f}" if b else "-"  # noqa: E731
        print(" | ".join(str(x) for x in (
            key, r["files"], r["refused"], r["regions"], r["chunks"], f"{r['exact']}/{r['files']}",
            f"{r['ranges ok']}/{r['files']}", r["cuts"], pct(r["clean"], r["cuts"]),
            pct(r["clean or forced"], r["cuts"]), r["defs fit"], pct(r["defs split"], r["defs fit"]),
            pct(r["top split"], r["top fit"]),
        )))
        if r["cells"]:
            print(f"    notebooks: {r['cells']} cells, cell slices exact in {r['cell slices ok']}/{r['files']} files")
        if langs[key]:
            print("    regions by language:", ", ".join(f"{k} {v}" for k, v in langs[key].most_common()))
    return 0


def _cells_ok(parsed: ParsedFile, chunks: list[Chunk]) -> bool:
    """Every chunk's cell parts are slices of the cells' sources, in order, and together
    they give back every cell's source."""
    sources = {cell.index: parsed.source.text[cell.char_start : cell.char_end] for cell in parsed.cells}
    rebuilt: dict[int, str] = defaultdict(str)
    for chunk in chunks:
        for part in chunk.context.cells or ():
            text = sources[part.index][part.char_range.start : part.char_range.end]
            if text not in chunk.text:
                return False
            before = sources[part.index][: part.char_range.start]
            first = len(_BREAK.findall(before))
            if (part.line_range.start, part.line_range.end) != (first, first + _breaks_inside(text)):
                return False
            rebuilt[part.index] += text
    return all(rebuilt.get(i, "") == source for i, source in sources.items())


def _breaks_inside(text: str) -> int:
    """Line breaks before the last line of ``text`` (a final break opens no line)."""
    ends = [m.end() for m in _BREAK.finditer(text)]
    if ends and ends[-1] == len(text):
        ends.pop()
    return len(ends)


if __name__ == "__main__":
    sys.exit(main())
