"""Cost against input size on pathological inputs (cost must grow about linearly with size).

    python benchmarks/pathological.py [--repeat 5] [--max-size 1500] [--only TEXT] [--quick] [--json]

Three families of generated files, each at doubling sizes:

* many tiny definitions: N one-line functions (Python and JavaScript);
* deep nesting: brackets and ``if`` blocks nested D deep (125 to 1000, and 10,000);
* one huge line: S bytes of minified JavaScript with no newline.

For every size it prints the bytes, parse-only and chunking time (median of
``--repeat``), chunking microseconds per KB, that cost relative to the smallest
size, and chunking time over parse time; per family, the exponent k of
time ~ size^k fitted over the sizes that give at least 4 chunks (1.0 is
linear; smaller files fit in one or two chunks and cost less per byte, which
says nothing about growth). A family with k above 1.2 is flagged NOT LINEAR. Times are CPU seconds of this
process (``time.process_time``), which a busy machine disturbs far less than
wall time.
Every result is also checked: lossless, and no chunk over the limit.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import explorer
from explorer.engine.languages import get_parser

#: Exponent k of time ~ size^k (least squares over a family) above which we call it non-linear.
#: 1.0 is linear; fixed per-call costs pull small sizes up and k below 1.
MAX_EXPONENT = 1.2


def many_functions_py(n: int) -> tuple[str, str]:
    return "f.py", "".join(f"def f{i}(x): return x + {i}\n" for i in range(n))


def many_functions_js(n: int) -> tuple[str, str]:
    return "f.js", "".join(f"function f{i}(x) {{ return x + {i}; }}\n" for i in range(n))


def nested_brackets(d: int) -> tuple[str, str]:
    return "n.js", "const x = " + "[1, " * d + "2" + "]" * d + ";\n"


def nested_ifs(d: int) -> tuple[str, str]:
    return "n.js", "function f(a) {\n" + "if (a) {\n" * d + "g(a);\n" + "}\n" * d + "}\n"


def nested_python(d: int) -> tuple[str, str]:
    return "n.py", "x = " + "[1, " * d + "2" + "]" * d + "\n"


def minified_js(size: int) -> tuple[str, str]:
    unit = "var a{i}=function(b,c){{if(b>c){{return b-c}}return c*{i}+b}};"
    parts, total, i = [], 0, 0
    while total < size:
        piece = unit.format(i=i)
        parts.append(piece)
        total += len(piece)
        i += 1
    return "min.js", "".join(parts)


FAMILIES = {
    "functions.py (N defs)": (many_functions_py, [1000, 2000, 4000, 8000, 16000]),
    "functions.js (N defs)": (many_functions_js, [1000, 2000, 4000, 8000, 16000]),
    "nested [ ] .js (depth D)": (nested_brackets, [125, 250, 500, 1000, 2000, 4000, 10_000]),
    "nested if .js (depth D)": (nested_ifs, [125, 250, 500, 1000, 2000, 4000, 10_000]),
    "nested [ ] .py (depth D)": (nested_python, [125, 250, 500, 1000, 2000, 4000, 10_000]),
    "minified .js (S bytes, 1 line)": (minified_js, [312_500, 625_000, 1_250_000, 2_500_000, 5_000_000]),
}


#: CPU time of this process: on a shared machine, wall time measures the neighbours too.
CLOCK = time.process_time
#: Small inputs are run in loops of at least this long, so timer noise does not dominate.
MIN_SAMPLE_S = 0.05


def median_time(fn, repeat: int) -> float:
    """Median seconds per call over ``repeat`` samples. Small inputs are looped so a
    sample lasts MIN_SAMPLE_S; a first call that long already counts as a sample."""
    t0 = CLOCK()
    fn()
    once = CLOCK() - t0
    times = [once] if once >= MIN_SAMPLE_S else []
    loops = max(1, int(MIN_SAMPLE_S / max(once, 1e-6)))
    while len(times) < repeat:
        t0 = CLOCK()
        for _ in range(loops):
            fn()
        times.append((CLOCK() - t0) / loops)
    return statistics.median(times)


def exponent(sizes: list[int], times: list[float]) -> float:
    """Least-squares slope of log(time) against log(size)."""
    xs = [math.log(s) for s in sizes]
    ys = [math.log(max(t, 1e-9)) for t in times]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)


def run_case(make, n: int, repeat: int, max_size: int) -> dict:
    path, code = make(n)
    data = code.encode()
    language = explorer.detect_language(path)
    assert language is not None, path
    parser = get_parser(language)
    parse_s = median_time(lambda: parser.parse(data), repeat)
    chunks: list[explorer.Chunk] = []

    def chunk():
        chunks[:] = explorer.chunk(path, data, max_size=max_size, context_mode="none")

    chunk_s = median_time(chunk, repeat)
    full_s = median_time(lambda: explorer.chunk(path, data, max_size=max_size, context_mode="full"), repeat)
    lossless = "".join(c.text for c in chunks) == code
    within = all(c.size <= max_size for c in chunks)
    return {
        "n": n, "bytes": len(data), "parse_s": parse_s, "chunk_s": chunk_s, "full_s": full_s,
        "us_per_kb": chunk_s / len(data) * 1e9, "full_us_per_kb": full_s / len(data) * 1e9,
        "chunks": len(chunks), "ok": lossless and within,
        "problem": None if lossless and within else ("not lossless" if not lossless else "chunk over the limit"),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--max-size", type=int, default=1500)
    parser.add_argument("--quick", action="store_true", help="only the two smallest sizes of each family (no verdict)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--only", help="run only the families whose name contains this text")
    args = parser.parse_args()

    report: dict = {"families": {}, "not_linear": []}
    for name, (make, sizes) in FAMILIES.items():
        if args.only and args.only not in name:
            continue
        sizes = sizes[:2] if args.quick else sizes
        if not args.json:
            print(f"\n{name}")
            print(f"  {'N':>9} {'bytes':>10} {'parse s':>9} {'chunk s':>9} {'full s':>9} {'chunks':>7} "
                  f"{'us/KB':>8} {'growth':>7} {'x parse':>7}  check", flush=True)
        rows: list[dict] = []
        for n in sizes:
            r = run_case(make, n, args.repeat, args.max_size)
            r["growth"] = r["us_per_kb"] / rows[0]["us_per_kb"] if rows else 1.0
            r["x_parse"] = r["chunk_s"] / r["parse_s"]
            rows.append(r)
            if not args.json:
                print(f"  {r['n']:>9} {r['bytes']:>10} {r['parse_s']:9.4f} {r['chunk_s']:9.4f} {r['full_s']:9.4f} "
                      f"{r['chunks']:>7} {r['us_per_kb']:8.1f} {r['growth']:7.2f} {r['x_parse']:7.2f}  "
                      f"{'ok' if r['ok'] else 'FAIL: ' + r['problem']}", flush=True)
        # fit where the file really gets chunked (a file that fits in one chunk costs less per byte)
        top = [r for r in rows if r["chunks"] >= 4]
        top = top if len(top) >= 3 else rows[-3:]
        exponents = {
            key: exponent([r["bytes"] for r in top], [r[col] for r in top]) if len(top) > 1 else float("nan")
            for key, col in (("none", "chunk_s"), ("full", "full_s"), ("parse", "parse_s"))
        }
        report["families"][name] = {"rows": rows, "exponent": exponents}
        if not args.quick and max(exponents["none"], exponents["full"]) > MAX_EXPONENT:
            report["not_linear"].append(name)
        if not args.json:
            print(f"  time ~ size^k: k = {exponents['none']:.2f} (context none), "
                  f"{exponents['full']:.2f} (full), {exponents['parse']:.2f} (parse only)", flush=True)
    if args.json:
        print(json.dumps(report, indent=1))
        return
    print()
    if args.quick:
        print("quick run: too few sizes for a verdict on linearity")
    elif report["not_linear"]:
        for name in report["not_linear"]:
            print(f"NOT LINEAR: {name} (k > {MAX_EXPONENT})")
    else:
        print(f"linear: in every family time grows as size^k with k <= {MAX_EXPONENT}")


if __name__ == "__main__":
    main()
