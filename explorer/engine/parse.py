"""Parsing a source into a tree, and describing the syntax errors it holds.

A tree with errors is still chunked by its nodes: tree-sitter always recovers one, and
most of a broken file (a file mid-edit, or syntax newer than the grammar) keeps its
structure. The chunker cuts the error regions themselves only between lines.
"""

from __future__ import annotations

import json
import re
import time
from bisect import bisect_left
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tree_sitter import Node, Point, Tree
from tree_sitter import Range as TSRange

from .containers import GRAMMAR_CONTAINERS, locate
from .containers.notebook import read_notebook
from .containers.region import RegionSpec
from .languages import NOTEBOOK, UNSAFE_GRAMMARS, detect_language, get_parser, resolve_language
from .text import SourceText

#: The fallback reason of a file chunked by lines because the ``lines`` strategy was asked for.
LINES_STRATEGY = "lines strategy"

#: Errors named in the message; the rest are counted.
MAX_NAMED_ERRORS = 3

_LONE_CR = re.compile(rb"\r(?!\n)")


class UnsupportedLanguageError(ValueError):
    """Raised with ``strict=True`` for a file that would otherwise be chunked line-based
    because it has no usable grammar (unknown language, plain text, an unsafe parser)."""

    def __init__(self, path: str | None, language: str | None = None):
        self.path = path
        self.language = language
        what = f"language {language!r}" if language else "file type"
        super().__init__(f"Unsupported {what}: {path}")


@dataclass(slots=True)
class ParsedFile:
    """A source with its tree. ``tree`` is None when the file is chunked line-based,
    and ``fallback`` then says why. A tree with syntax errors is kept (``parse_error``
    describes them).

    A container file (Markdown, a component, HTML, a notebook) also has ``regions``: the
    parts that tile it, each parsed on its own (embedded code by its grammar, the text around
    it by the container's). A notebook's ``source`` is its cells' sources (see
    :mod:`.containers.notebook`), ``cells`` place them, and ``tree`` is None."""

    source: SourceText
    path: str | None
    language: str | None
    tree: Tree | None
    parse_error: dict[str, Any] | None = None
    fallback: str | None = None
    regions: tuple[Region, ...] = ()
    cells: tuple[Cell, ...] = ()
    #: What was read but not chunked (a notebook's outputs), for a person to see.
    notes: tuple[str, ...] = ()
    #: Parts of the file left out of the chunks, each with why (a notebook cell of a type
    #: this version does not know): reported with the file, as a skip is.
    skipped: tuple[str, ...] = ()

    @property
    def root(self) -> Node | None:
        return self.tree.root_node if self.tree is not None else None


@dataclass(eq=False, slots=True, weakref_slot=True)
class Region:
    """One part of a container file: bytes ``[start, end)``, parsed alone (``parsed`` shares
    the file's source; its tree's offsets are the file's). ``embedded``: code of another
    language (else the container's own text). ``cell``: the notebook cell it lies in."""

    start: int
    end: int
    parsed: ParsedFile
    embedded: bool
    label: str
    cell: int | None = None
    note: str | None = None

    @property
    def language(self) -> str | None:
        return self.parsed.language


@dataclass(frozen=True, slots=True)
class Cell:
    """A notebook cell in the document: its source is ``source.text`` between code points
    ``char_start`` and ``char_end``, bytes ``[start, end)``, from line ``first_line`` on.
    ``newline_added``: a line break follows it in the document that its source lacks."""

    index: int
    kind: str
    language: str | None
    start: int
    end: int
    char_start: int
    char_end: int
    first_line: int
    newline_added: bool


class NotebookDocument(SourceText):
    """A notebook's document (its cells' sources, what is chunked and shown), keeping the
    notebook file's own text: parsing the document again (another strategy or language)
    starts from the file."""

    __slots__ = ("notebook",)

    def __init__(self, text: str, path: str | None, notebook: SourceText):
        super().__init__(text, path)
        self.notebook = notebook


def parse_source(
    source: SourceText, path: str | None = None, language: str | None = None, *, strategy: str = "ast",
    yield_every: int = 0, strict: bool = False,
) -> ParsedFile:
    """Detect the language (unless given), parse, and record errors or the reason to fall back.

    ``yield_every`` (bytes, 0 = never): parse through a read callback that lets other
    threads run between reads. The parser otherwise holds the GIL for the whole parse,
    which freezes a UI thread (the explorer parses in a worker) for as long.
    ``strict``: raise :class:`UnsupportedLanguageError` instead of falling back to lines
    when there is no grammar to parse with (the ``lines`` strategy is asked for, so it is not
    a fallback)."""
    if isinstance(source, NotebookDocument):
        source = source.notebook
    lang = resolve_language(language) if language else detect_language(path, source.data[:256])
    if lang is None or lang == "text":
        if strict:
            raise UnsupportedLanguageError(path, lang)
        reason = "unknown language" if lang is None else "plain text"
        return ParsedFile(source, path, lang, None, fallback=reason)
    if lang == NOTEBOOK:  # (the lines strategy too: a notebook's lines are its cells')
        return parse_notebook(source, path, strategy=strategy, strict=strict)
    if strategy == "lines":
        return ParsedFile(source, path, lang, None, fallback=LINES_STRATEGY)
    if lang in UNSAFE_GRAMMARS:
        if strict:
            raise UnsupportedLanguageError(path, lang)
        return ParsedFile(source, path, lang, None, fallback=UNSAFE_GRAMMARS[lang])
    data = parser_bytes(source.data)
    tree = get_parser(lang).parse(_yielding_reader(data, yield_every) if yield_every else data)
    if tree is None:
        return ParsedFile(source, path, lang, None, fallback="the parser gave no tree")
    parsed = ParsedFile(source, path, lang, tree)
    root = tree.root_node
    errors = find_errors(root) if root.has_error else []
    if errors:
        parsed.parse_error = {"message": describe_errors(errors, source), "recoverable": True}
    if lang in GRAMMAR_CONTAINERS:
        specs = locate(lang, root, data)
        if specs:
            parsed.regions = tuple(_tile(source, data, lang, specs, 0, len(data), errors))
    return parsed


def _tile(
    source: SourceText, data: bytes, outer: str | None, specs: list[RegionSpec], start: int, end: int,
    errors: list[tuple[Node, int]], cell: int | None = None, strategy: str = "ast",
) -> list[Region]:
    """Regions tiling ``[start, end)``: each spec, and the container's text between them
    (parsed alone, by the ``outer`` grammar; its syntax errors are the whole file's that fall
    in it, not the ones cutting it out makes, such as a fence left open)."""
    regions: list[Region] = []
    at, closer = start, 0
    for spec in specs:
        if spec.start > at:
            regions.append(_outer(source, data, outer, at, spec.start, errors, cell, strategy, closer))
        parsed = _parse_range(source, data, spec.language, spec.start, spec.end, spec.holes, strategy, spec.note)
        label = spec.label if cell is None else f"cell {cell} {spec.label}"
        regions.append(Region(spec.start, spec.end, parsed, True, label, cell, spec.note))
        at, closer = spec.end, spec.closer
    if at < end:
        regions.append(_outer(source, data, outer, at, end, errors, cell, strategy, closer))
    return regions


def _outer(
    source: SourceText, data: bytes, language: str | None, start: int, end: int,
    errors: list[tuple[Node, int]], cell: int | None, strategy: str, closer: int = 0,
) -> Region:
    # The closing delimiter of the region before is left out of the parse (see RegionSpec.closer).
    holes = ((start, closer),) if start < closer < end and data[closer:end].strip() else ()
    parsed = _parse_range(source, data, language, start, end, holes, strategy, None)
    offsets = [offset for _, offset in errors]  # sorted (find_errors sorts them)
    inside = errors[bisect_left(offsets, start) : bisect_left(offsets, end)]
    parsed.parse_error = {"message": describe_errors(inside, source), "recoverable": True} if inside else None
    label = (language or "text") if cell is None else f"cell {cell}"
    return Region(start, end, parsed, False, label, cell)


def _parse_range(
    source: SourceText, data: bytes, language: str | None, start: int, end: int,
    holes: tuple[tuple[int, int], ...], strategy: str, reason: str | None,
) -> ParsedFile:
    """A range of the file parsed alone by a language (tree offsets stay the file's)."""
    path = source.path
    if language is None or language in UNSAFE_GRAMMARS:
        return ParsedFile(source, path, language, None, fallback=reason or UNSAFE_GRAMMARS.get(language or "", "no grammar"))
    if strategy == "lines":
        return ParsedFile(source, path, language, None, fallback="lines strategy")
    pieces, at = [], start
    for hole_start, hole_end in holes:
        if hole_start > at:
            pieces.append((at, hole_start))
        at = max(at, hole_end)
    if at < end:
        pieces.append((at, end))
    parser = get_parser(language)
    parser.included_ranges = [TSRange(_point(source, a), _point(source, b), a, b) for a, b in pieces]
    try:
        tree = parser.parse(data)
    finally:
        parser.included_ranges = []  # the parser is reused for whole files
    if tree is None:
        return ParsedFile(source, path, language, None, fallback="the parser gave no tree")
    parsed = ParsedFile(source, path, language, tree)
    if tree.root_node.has_error:
        parsed.parse_error = {"message": describe_errors(find_errors(tree.root_node), source), "recoverable": True}
    return parsed


def _point(source: SourceText, byte: int) -> Point:
    line = source.line_of(byte) if byte < len(source.data) else max(0, source.line_count - 1)
    line_start = source.line_start(line) if source.data else 0
    if byte == len(source.data) and byte > line_start and source.data[byte - 1] in (10, 13):
        line, line_start = line + 1, byte  # the end of a file ending in a line break
    return Point(line, byte - line_start)


def edited_notebook(parsed: ParsedFile, edited: bytes, to_edited: Callable[[int], int]) -> bytes:
    """A notebook (JSON) whose cells are those of ``parsed`` (a parsed notebook) with their
    sources taken from ``edited``, its document after edits inside cells (``to_edited`` maps
    a document offset to an edited one): the edited document parsed as a notebook again."""
    cells: list[dict[str, Any]] = [
        {"cell_type": cell.kind, "metadata": {}, "source": edited[to_edited(cell.start) : to_edited(cell.end)].decode("utf-8", "surrogatepass"),
         **({"outputs": [], "execution_count": None} if cell.kind == "code" else {})}
        for cell in parsed.cells
    ]
    language = next((cell.language for cell in parsed.cells if cell.kind == "code"), None) or "none"
    notebook = {"nbformat": 4, "nbformat_minor": 5, "metadata": {"kernelspec": {"language": language}}, "cells": cells}
    return json.dumps(notebook).encode("utf-8", "surrogatepass")


def parse_notebook(source: SourceText, path: str | None, *, strategy: str = "ast", strict: bool = False) -> ParsedFile:
    """A notebook as the document of its cells (raises NotebookError when it is not one).
    Code cells are parsed in the kernel's language, Markdown cells as Markdown with their
    fenced code blocks, raw cells are text (chunked by lines)."""
    notebook = read_notebook(source.data, path)
    text, spans = notebook.document()
    document = NotebookDocument(text, path, source)
    data = parser_bytes(document.data)
    kernel = notebook.language
    try:
        language = resolve_language(kernel) if kernel else "python"
    except ValueError:
        language = None
    if language is None and strict:
        raise UnsupportedLanguageError(path, kernel)
    regions: list[Region] = []
    cells: list[Cell] = []
    for cell, (char_start, char_end, added) in zip(notebook.cells, spans):
        start, end = document.byte_offset(char_start), document.byte_offset(char_end)
        stop = end + added  # the added line break belongs to the cell's region
        first_line = document.line_of(start) if start < len(data) else document.line_count
        cell_language = language if cell.kind == "code" else "markdown" if cell.kind == "markdown" else None
        cells.append(Cell(cell.index, cell.kind, cell_language, start, end, char_start, char_end, first_line, added))
        if start == stop:
            continue  # an empty cell: nothing of it is in the document
        if cell.kind == "markdown" and strategy != "lines":
            parsed = _parse_range(document, data, "markdown", start, stop, (), strategy, None)
            tree = parsed.tree
            specs = locate("markdown", tree.root_node, data) if tree is not None else []
            if tree is not None and specs:
                regions += _tile(document, data, "markdown", specs, start, stop,
                                 find_errors(tree.root_node) if parsed.parse_error else [], cell.index, strategy)
                continue
        else:
            why = (f"no grammar for the kernel language {kernel!r}" if cell.kind == "code"
                   else "a raw cell: plain text")
            parsed = _parse_range(document, data, cell_language, start, stop, (), strategy, why)
        regions.append(Region(start, stop, parsed, cell.kind == "code", f"cell {cell.index} [{cell.kind}]", cell.index,
                              parsed.fallback if parsed.tree is None and strategy != "lines" else None))
    notes: tuple[str, ...] = ()
    if notebook.outputs:
        notes = (f"{notebook.outputs} cell outputs left out ({notebook.output_bytes} bytes of JSON)",)
    return ParsedFile(document, path, NOTEBOOK, None, regions=tuple(regions), cells=tuple(cells), notes=notes,
                      skipped=notebook.skipped)


def parser_bytes(data: bytes) -> bytes:
    """The bytes to give the parser: a lone CR (an old Mac line end) becomes LF, which every
    grammar knows as a line end (Python's takes a lone CR for an error). One byte for one
    byte, so every offset in the tree is an offset in the original."""
    if b"\r" not in data:
        return data
    return _LONE_CR.sub(b"\n", data)


def _yielding_reader(data: bytes, step: int) -> Callable[[int, Any], bytes]:
    def read(offset: int, _point: Any) -> bytes:
        time.sleep(0)  # give up the GIL for a moment
        return data[offset : offset + step]

    return read


def find_errors(root: Node) -> list[tuple[Node, int]]:
    """ERROR and MISSING nodes in document order, nested ones included, each with the
    byte offset where it goes wrong: a MISSING node's place; for an ERROR node, its first
    child that is a stray token or another error (a root ERROR over a file that is well
    formed up to some line starts being wrong there), else its start.
    Iterative, and only descends into subtrees that contain an error."""
    found: list[tuple[Node, int]] = []
    stack = [root]
    while stack:
        node = stack.pop()
        if node.is_missing:
            found.append((node, node.start_byte))
            continue
        children = node.children
        if node.is_error:
            where = node.start_byte
            for child in children:
                if not child.is_named or child.is_error or child.is_missing:
                    where = child.start_byte
                    break
            found.append((node, where))
        stack.extend([child for child in reversed(children) if child.has_error])
    found.sort(key=lambda item: item[1])
    return found


def describe_errors(errors: list[tuple[Node, int]], source: SourceText) -> str:
    """``ERROR at line L, column C`` (1-based, columns in characters) for the first
    few places, then ``... and N more``."""
    places: list[tuple[bool, int]] = []
    for node, offset in errors:
        place = (node.is_missing, offset)
        if not places or places[-1] != place:  # an ERROR whose first child is an ERROR: one place
            places.append(place)
    named = []
    for missing, offset in places[:MAX_NAMED_ERRORS]:
        line = source.line_of(offset)
        column = source.char_offset(offset) - source.char_offset(source.line_start(line)) if source.data else 0
        named.append(f"{'MISSING' if missing else 'ERROR'} at line {line + 1}, column {column + 1}")
    message = "; ".join(named)
    if len(places) > MAX_NAMED_ERRORS:
        message += f"; ... and {len(places) - MAX_NAMED_ERRORS} more"
    return message or "syntax error"
