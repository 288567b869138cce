"""Per-chunk context and contextualized text.

``make_context_builder(parsed, options, filepath, structure=None)`` returns a
builder with ``context_for(start, end)`` (the :class:`~explorer.engine.model.ChunkContext`
of the chunk covering bytes ``[start, end)``) and ``contextualize(context, text,
overlap_text)`` (its ``contextualized_text``, composed from the typed context). Pass a
precomputed ``structure`` (``extract_structure(parsed)``) to re-chunk without re-extracting.

The context's wire form (``ChunkContext.to_dict()``: camelCase keys, in this order)::

    filepath, language     only when context_mode is not "none"
    scope                  entities containing the chunk, innermost first (at most
                           64): [{name, type, signature}]
    entities               entities overlapping the chunk that are not in scope, in
                           source order, imports included: [{name, type, signature,
                           docstring, lineRange, isPartial}]; isPartial when the
                           chunk holds only part of the entity
    siblings               children of the innermost scope (or top-level entities)
                           entirely before/after the chunk, nearest first, at most
                           max_siblings per side: [{name, type, position
                           ("before"|"after"), distance (1 = adjacent)[, signature]}]
    imports                the imports the chunk uses (the default, filter_imports), or
                           with filter_imports off the file's (each name once):
                           [{name, source[, isDefault][, isNamespace]}] (flags only when true)
    parseError             {message, recoverable}, in every mode, only when the tree
                           has errors

"Contains" means the entity's byte range holds the whole chunk and is not
exactly the chunk's range (entity ranges include decorators and ``export``
keywords, not doc comments; the chunk's trailing blanks and line breaks are left
out, so a class ending before the file's final newline still holds its last chunk). So a chunk that is exactly one method has the class
as scope and the method in ``entities`` (not partial); a chunk from a method's
first byte to somewhere inside it has the method (and the class) as scope; a
chunk holding the tail of one method and all of the next has the class as scope
and both methods in ``entities``, the first partial. (code-chunk took the scope
at the chunk's start only, so the first method there would wrongly be the scope,
and it listed the chunk's own entity as its scope.) Imports and exports are
never scopes.

``context_mode``:
  ``none``    scope/entities/siblings/imports are empty, no filepath/language,
              ``contextualized_text == text`` and no overlap;
  ``minimal`` filepath, language and scope (other lists empty); header has the
              path and scope lines only;
  ``full``    everything; header has path, scope, defines, uses and siblings.
``sibling_detail``: ``none`` (no siblings), ``names``, ``signatures`` (each
sibling also carries its signature, and the header shows signatures).
``filter_imports`` (on by default): keep an import when its local name appears as an
identifier in the chunk's text outside import statements (``os`` in ``os.path.join``
for ``import os`` or ``import os.path``; ``z`` for ``from x import y as z``); glob
imports (``*``, ``#include``, ``require``) are always kept, since what they bring in is
unknown; side-effect imports are dropped. So adding an import to a file changes the
header, and the id, of the chunks that use it only. Off, every chunk lists the file's
imports, and one added import changes every chunk of the file.

Contextualized text format (``C`` is the line comment of the chunk's language,
e.g. ``#`` for Python, ``//`` for the C family, ``--`` for SQL and Lua, ``;``
for Lisps, ``%`` for LaTeX and Erlang; block-comment languages write
``<!-- line -->`` or ``/* line */``)::

    C <last 3 path segments>                      if the chunk has a filepath
    C Scope: <outermost> > ... > <innermost>      if the scope is not empty
    C Defines: <signature>, ...                   full: entities except imports/exports,
                                                  at most 10, then "… (+N more)"
    C Uses: <import name>, ...                    full: at most 10 import names
    C After: <sibling>, ...                       full: siblings before the chunk
    C Before: <sibling>, ...                      full: siblings after the chunk
    <empty line>                                  if any header line was written
    C ...                                         if overlap_text is not empty
    <overlap text>
    C ---
    <chunk text>

Siblings are shown by name, or by signature with ``sibling_detail="signatures"``.
Header values are put on one line (line breaks become spaces), and a block
comment's closer inside a value is broken up (``-->`` becomes ``- ->``).
Docstrings are never written into the header.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from typing import Protocol

from .model import ChunkContext, EntityEntry, ImportEntry, ParseErrorEntry, Range, ScopeEntry, SiblingEntry
from .options import ChunkOptions
from .parse import ParsedFile
from .structure import FileStructure, extract_structure
from .structure.entities import NON_SCOPE_TYPES, Entity
from .structure.specs.comments import header_comment

#: Scope chains are cut to this many innermost entities (only pathological
#: nesting gets there; it keeps context linear in the number of chunks).
MAX_SCOPE = 64
#: Header lists longer than this are cut and end with "… (+N more)".
MAX_DEFINES = 10
MAX_USES = 10

#: An identifier: a letter (any script, as Python, JS and others allow) or ``_``/``$``, then
#: letters, digits, ``_`` and ``$``.
_IDENTIFIER = re.compile(r"(?:[^\W\d]|\$)[\w$]*")
_BLANKS = frozenset(b" \t\r\n\x0b\x0c")
_LINE_BREAKS = re.compile(r"[\r\n\u2028\u2029\x0b\x0c\x1c-\x1e\x85]+")


class ContextBuilding(Protocol):
    """What the chunk maker and the fitter (engine/fit.py) ask of a file's context builder:
    :class:`ContextBuilder`, :class:`NoContextBuilder`, or a container's
    :class:`~explorer.engine.regions.RegionContextBuilder`."""

    def context_for(self, start: int, end: int) -> ChunkContext: ...

    def contextualize(self, context: ChunkContext, text: str, overlap_text: str) -> str: ...

    def compose(self, header: list[str], overlap_text: str, text: str) -> str: ...

    def header_parts(self, context: ChunkContext) -> list[tuple[str, str]]: ...


def short_path(filepath: str) -> str:
    """The last three segments of a path, split at ``/`` or ``\\``."""
    parts = [p for p in re.split(r"[\\/]", filepath) if p]
    return "/".join(parts[-3:]) if parts else filepath


class ContextBuilder:
    """Builds each chunk's context and contextualized text for one parsed file
    (``minimal`` and ``full`` modes; ``none`` is :class:`NoContextBuilder`)."""

    def __init__(
        self,
        parsed: ParsedFile,
        options: ChunkOptions,
        filepath: str | None,
        structure: FileStructure | None = None,
    ):
        self.parsed = parsed
        self.options = options
        self.filepath = filepath
        self.mode = options.context_mode
        self.structure = structure if structure is not None else extract_structure(parsed)
        self._imports = _dedupe_imports(self.structure.imports)
        self._import_entries = tuple(e.import_entry() for e in self._imports)
        # What keeps each import in a chunk's header: True always (a glob), else the name the
        # chunk's code must use, None when no identifier can be that name (side effects).
        self._import_keys = tuple(
            True if e.is_wildcard else None if e.is_side_effect else _identifier_or_none(e.local_name)
            for e in self._imports
        )
        # Asked for every chunk, answered once: whether any import needs a look at the chunk's code.
        self._keys_named = any(isinstance(key, str) for key in self._import_keys)
        self._import_ranges = sorted({(e.start, e.end) for e in self._imports})  # disjoint statements
        self._import_ends = [end for _, end in self._import_ranges]
        self._comment = header_comment(parsed.language)
        self._path_lines: dict[str, str] = {}
        self._lines: dict[str, str] = {}  # header lines repeat from chunk to chunk (path, scope, uses)
        error = parsed.parse_error
        self._parse_error = ParseErrorEntry(error["message"], error["recoverable"]) if error else None
        # Each entity's parts, made once: chunk after chunk holds the same ones.
        self._scope_entries: dict[int, ScopeEntry] = {}
        self._entity_entries: dict[tuple[int, bool], EntityEntry] = {}
        self._sibling_entries: dict[tuple[int, str, int], SiblingEntry] = {}
        self._sibling_signatures = options.sibling_detail == "signatures"

    # -- context -----------------------------------------------------------------------
    def context_for(self, start: int, end: int) -> ChunkContext:
        """The context of the chunk covering bytes ``[start, end)`` (see the module doc)."""
        # Trailing blanks belong to no entity: one ending before them ends with the chunk.
        data = self.parsed.source.data
        while end > start and data[end - 1] in _BLANKS:
            end -= 1
        scope, partial = self.structure.scope.around(start, end, MAX_SCOPE)
        ctx = ChunkContext(
            self.filepath,
            self.parsed.language,
            True,
            tuple(self.scope_entry(e) for e in scope),
            parse_error=self._parse_error,
        )
        if self.mode == "full":
            ctx.entities = tuple(
                self._entity_entry(e, is_partial) for e, is_partial in self._found(start, end, partial)
            )
            ctx.siblings = tuple(
                self._sibling_entry(e, position, distance)
                for e, position, distance in self._sibling_rows(start, end, scope)
            )
            ctx.imports = self._imports_for(start, end)
        return ctx

    def scope_entry(self, entity: Entity) -> ScopeEntry:
        found = self._scope_entries.get(id(entity))
        if found is None:
            found = self._scope_entries[id(entity)] = ScopeEntry(entity.name, entity.type, entity.signature)
        return found

    def _entity_entry(self, entity: Entity, is_partial: bool) -> EntityEntry:
        key = (id(entity), is_partial)
        found = self._entity_entries.get(key)
        if found is None:
            found = self._entity_entries[key] = EntityEntry(
                entity.name,
                entity.type,
                entity.signature,
                entity.docstring,
                Range(entity.line_start, entity.line_end),
                is_partial,
            )
        return found

    def _sibling_entry(self, entity: Entity, position: str, distance: int) -> SiblingEntry:
        key = (id(entity), position, distance)
        found = self._sibling_entries.get(key)
        if found is None:
            signature = entity.signature if self._sibling_signatures else None
            found = self._sibling_entries[key] = SiblingEntry(
                entity.name, entity.type, "before" if position == "before" else "after", distance, signature
            )
        return found

    def _found(self, start: int, end: int, partial: list[Entity]) -> list[tuple[Entity, bool]]:
        """Entities overlapping the chunk that are not its scope, with ``is_partial``."""
        found = [(e, True) for e in partial]
        found += [
            (e, is_partial)
            for e, is_partial in self.structure.scope.starting_in(start, end)
            # one starting with the chunk and running past it contains it: scope
            if not (e.start == start and is_partial and e.type not in NON_SCOPE_TYPES)
        ]
        return found

    def _sibling_rows(self, start: int, end: int, scope: list[Entity]) -> list[tuple[Entity, str, int]]:
        if self.options.sibling_detail == "none":
            return []
        parent = scope[0] if scope else None
        rows: list[tuple[Entity, str, int]] = self.structure.scope.siblings(
            parent, start, end, self.options.max_siblings
        )
        return rows

    def _imports_for(self, start: int, end: int) -> tuple[ImportEntry, ...]:
        if not self.options.filter_imports:
            return self._import_entries
        keys = self._import_keys
        if not self._keys_named:
            return tuple(info for key, info in zip(keys, self._import_entries) if key is True)
        code = self._code_outside_imports(start, end)
        used: dict[str, bool] = {}
        kept = []
        for key, info in zip(keys, self._import_entries):
            if isinstance(key, str):
                found = used.get(key)
                if found is None:
                    # most names are absent from most chunks: one search in C says so
                    found = used[key] = key in code and uses_identifier(code, key)
                if found:
                    kept.append(info)
            elif key:
                kept.append(info)
        return tuple(kept)

    def _code_outside_imports(self, start: int, end: int) -> str:
        """The chunk's text, leaving out the import statements themselves (the pieces
        joined by line breaks: no identifier runs across a cut)."""
        source = self.parsed.source
        pieces = []
        pos = start
        first = bisect_right(self._import_ends, start)  # statements ending before the chunk
        for s, e in self._import_ranges[first:]:
            if s >= end:
                break
            if s > pos:
                pieces.append(source.slice(pos, s))
            pos = max(pos, e)
        if pos < end:
            pieces.append(source.slice(pos, end))
        return "\n".join(pieces)

    # -- contextualized text -----------------------------------------------------------------
    def contextualize(self, context: ChunkContext, text: str, overlap_text: str) -> str:
        """The chunk text with its header and overlap (see the module doc for the format)."""
        return self.compose(self.header_lines(context), overlap_text, text)

    def compose(self, header: list[str], overlap_text: str, text: str) -> str:
        """Header lines, overlap and text joined as the contextualized text."""
        parts = header + [""] if header else []
        overlap = overlap_text.rstrip("\r\n")
        if overlap:
            parts += [self._line("..."), overlap, self._line("---")]
        parts.append(text)
        return "\n".join(parts)

    def header_lines(self, context: ChunkContext) -> list[str]:
        return [line for _, line in self.header_parts(context)]

    def header_parts(self, context: ChunkContext) -> list[tuple[str, str]]:
        """The header lines, each with its kind: ``path``, ``scope``, ``defines``, ``uses``,
        ``siblings_before`` (the ``After:`` line) and ``siblings_after`` (``Before:``)."""
        lines = []
        filepath = context.filepath
        if filepath:
            lines.append(("path", self._path_line(filepath)))
        scope = context.scope
        if scope:
            lines.append(("scope", self._line("Scope: " + " > ".join(e.name for e in reversed(scope)))))
        if self.mode != "full":
            return lines
        defines = [e.signature or e.name for e in context.entities if e.type not in NON_SCOPE_TYPES]
        if defines:
            lines.append(("defines", self._line("Defines: " + _capped(defines, MAX_DEFINES))))
        imports = context.imports
        if imports:
            lines.append(("uses", self._line("Uses: " + _capped([i.name for i in imports], MAX_USES))))
        siblings = context.siblings
        signatures = self._sibling_signatures
        for position, label in (("before", "After"), ("after", "Before")):
            names = [(s.signature or s.name) if signatures else s.name for s in siblings if s.position == position]
            if names:
                lines.append((f"siblings_{position}", self._line(f"{label}: " + ", ".join(names))))
        return lines

    def _path_line(self, filepath: str) -> str:
        line = self._path_lines.get(filepath)
        if line is None:
            line = self._path_lines[filepath] = self._line(short_path(filepath))
        return line

    def _line(self, value: str) -> str:
        line = self._lines.get(value)
        if line is None:
            line = self._lines[value] = self._comment_line(value)
        return line

    def _comment_line(self, value: str) -> str:
        opener, closer = self._comment
        if not value.isprintable():
            value = _LINE_BREAKS.sub(" ", value)
        if closer:
            value = value.replace(closer, closer[0] + " " + closer[1:])  # keep the comment closed
            return f"{opener} {value} {closer}"
        return f"{opener} {value}"


def _identifier_or_none(name: str | None) -> str | None:
    return name if name is not None and _IDENTIFIER.fullmatch(name) else None


def uses_identifier(code: str, name: str) -> bool:
    """Whether ``name`` (an identifier) is one of the identifiers of ``code``: the matches of
    :data:`_IDENTIFIER` found left to right, so in a run of word characters the one after its
    leading digits (``x`` in ``2x``). The same answer as ``name in set(_IDENTIFIER.findall(code))``
    without making a string of every identifier: the names are few, a chunk's identifiers many."""
    size, at = len(name), code.find(name)
    while at >= 0:
        after = at + size
        # str methods are what \w and \d test, without a regular expression call per look
        if after == len(code) or not (code[after].isalnum() or code[after] in "_$"):
            before = at
            while before and code[before - 1].isdecimal():
                before -= 1
            if not before or not (code[before - 1].isalnum() or code[before - 1] in "_$"):
                return True
        at = code.find(name, at + 1)
    return False


def _capped(items: list[str], limit: int) -> str:
    if len(items) <= limit:
        return ", ".join(items)
    return ", ".join(items[:limit]) + f", … (+{len(items) - limit} more)"


def _dedupe_imports(imports: list[Entity]) -> list[Entity]:
    seen: set[tuple[str, str | None]] = set()
    out = []
    for entity in imports:
        key = (entity.name, entity.source)
        if key not in seen:
            seen.add(key)
            out.append(entity)
    return out


class NoContextBuilder:
    """``context_mode="none"``: empty lists (and the parse error, if any), the text unchanged.
    Nothing about the file's structure is looked at."""

    def __init__(self, parsed: ParsedFile):
        error = parsed.parse_error
        self._error = ParseErrorEntry(error["message"], error["recoverable"]) if error else None

    def context_for(self, start: int, end: int) -> ChunkContext:
        return ChunkContext(parse_error=self._error)

    def contextualize(self, context: ChunkContext, text: str, overlap_text: str) -> str:
        return text

    def compose(self, header: list[str], overlap_text: str, text: str) -> str:
        return text

    def header_parts(self, context: ChunkContext) -> list[tuple[str, str]]:
        return []


def make_context_builder(
    parsed: ParsedFile,
    options: ChunkOptions,
    filepath: str | None,
    structure: FileStructure | None = None,
) -> ContextBuilder | NoContextBuilder:
    if options.context_mode == "none":
        return NoContextBuilder(parsed)
    return ContextBuilder(parsed, options, filepath, structure)
