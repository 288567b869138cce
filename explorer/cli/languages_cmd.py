"""``chunk-explorer languages``: what is supported, at which level, by which file names."""

from __future__ import annotations

import argparse
from typing import Any

from .errors import EXIT_OK, UsageError
from .output import console, print_json
from .verbs import SUMMARIES

NAME = "languages"
HELP = SUMMARIES[NAME]
DESCRIPTION = """\
Every language the engine parses. chunking: ast (split along the syntax tree) or lines
(line packing, for grammars unsafe to run). structure: full (entities, signatures,
docstrings and imports in the chunk context) or generic (definitions found by node kind).
Containers (Markdown, Vue, Svelte, Astro, HTML, Jupyter notebooks) hold code of other
languages: each region is chunked by its own grammar; the last table says what is understood
inside each."""


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(NAME, help=HELP, description=DESCRIPTION)
    parser.add_argument("names", nargs="*", metavar="NAME",
                        help="show only these languages (names, aliases or extensions like .py)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.set_defaults(run=run)


def language_rows() -> list[dict[str, Any]]:
    """The engine's table (``explorer.languages()``)."""
    from ..engine.api import languages

    return languages()


def run(args: argparse.Namespace) -> int:
    rows = language_rows()
    if args.names:
        rows = _select(rows, args.names)
    if args.json:
        print_json(rows)
        return EXIT_OK
    _print_table(rows)
    return EXIT_OK


def _select(rows: list[dict[str, Any]], names: list[str]) -> list[dict[str, Any]]:
    from ..engine.languages import detect_language, resolve_language

    by_name = {row["name"]: row for row in rows}
    chosen: list[dict[str, Any]] = []
    for name in names:
        if name.startswith("."):
            canonical = detect_language(f"file{name}")
            if canonical is None:
                raise UsageError(f"no language is known for files ending in {name}")
        else:
            try:
                canonical = resolve_language(name)
            except ValueError as exc:
                raise UsageError(str(exc)) from None
        if canonical in by_name and by_name[canonical] not in chosen:
            chosen.append(by_name[canonical])
    return chosen


def _print_table(rows: list[dict[str, Any]]) -> None:
    from rich.table import Table
    from rich.text import Text

    out = console(pipe_width=120)
    table = Table(box=None, pad_edge=False, header_style="bold")
    table.add_column("language")
    table.add_column("chunking")
    table.add_column("structure")
    table.add_column("file names", overflow="fold")
    for row in rows:
        level = row.get("structure", row.get("level", "?"))
        table.add_row(
            Text(row["name"]),
            Text(str(row.get("chunking", "ast")), style="yellow" if row.get("chunking") == "lines" else ""),
            Text(str(level), style="green" if level == "full" else ""),
            Text(" ".join(row.get("extensions", [])) + (f"  ({row['note']})" if row.get("note") else "")),
        )
    out.print(table)
    full = sum(1 for r in rows if r.get("structure") == "full")
    out.print(Text(f"{len(rows)} languages, {full} with full structure support."))
    containers = [r for r in rows if r.get("contains")]
    if containers:
        inside = Table(box=None, pad_edge=False, header_style="bold")
        inside.add_column("container")
        inside.add_column("code understood inside (chunked by its own grammar)", overflow="fold")
        for row in containers:
            inside.add_row(Text(row["name"]), Text(row["contains"]))
        out.print()
        out.print(inside)
