"""The chunk, its ranges and its context, with code-chunk-compatible JSON."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from .options import Strategy
from .sizing import SizeUnit

#: How a chunk edge was cut inside a token: at a line boundary, or inside a single long line.
ForcedCut = Literal["line", "char"]
#: Where a sibling lies, relative to the chunk.
SiblingPosition = Literal["before", "after"]


@dataclass(frozen=True, slots=True)
class Range:
    """A half-open range ``[start, end)``, or for lines an inclusive ``[start, end]``."""

    start: int
    end: int

    def to_dict(self) -> dict[str, int]:
        return {"start": self.start, "end": self.end}


# -- the context of a chunk ------------------------------------------------------------------
# Each part is a small immutable value, shared by the chunks of a file that hold the same
# one (the context builder makes each once); ``to_dict`` gives its camelCase wire form. The
# parts every chunk of a file repeats (its imports, its scopes) keep that form made once,
# and hand out copies: a batch writes tens of them per chunk.
@dataclass(frozen=True, slots=True)
class ScopeEntry:
    """An entity that contains the chunk."""

    name: str
    type: str
    signature: str
    _wire: dict[str, Any] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_wire", {"name": self.name, "type": self.type, "signature": self.signature})

    def to_dict(self) -> dict[str, Any]:
        return self._wire.copy()


@dataclass(frozen=True, slots=True)
class EntityEntry:
    """An entity the chunk holds (``is_partial``: only part of it); lines are 0-based, inclusive."""

    name: str
    type: str
    signature: str
    docstring: str | None
    line_range: Range
    is_partial: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name, "type": self.type, "signature": self.signature, "docstring": self.docstring,
            "lineRange": self.line_range.to_dict(), "isPartial": self.is_partial,
        }


@dataclass(frozen=True, slots=True)
class SiblingEntry:
    """A sibling of the chunk's innermost scope entirely before or after it (``distance`` 1:
    adjacent); ``signature`` None when siblings are shown by name only."""

    name: str
    type: str
    position: SiblingPosition
    distance: int
    signature: str | None = None
    _wire: dict[str, Any] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        out: dict[str, Any] = {"name": self.name, "type": self.type, "position": self.position, "distance": self.distance}
        if self.signature is not None:
            out["signature"] = self.signature
        object.__setattr__(self, "_wire", out)

    def to_dict(self) -> dict[str, Any]:
        return self._wire.copy()


@dataclass(frozen=True, slots=True)
class ImportEntry:
    """One imported name and where it comes from."""

    name: str
    source: str
    is_default: bool = False
    is_namespace: bool = False
    _wire: dict[str, Any] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        out: dict[str, Any] = {"name": self.name, "source": self.source}
        if self.is_default:
            out["isDefault"] = True
        if self.is_namespace:
            out["isNamespace"] = True
        object.__setattr__(self, "_wire", out)

    def to_dict(self) -> dict[str, Any]:
        return self._wire.copy()


@dataclass(frozen=True, slots=True)
class ParseErrorEntry:
    """The syntax errors of the tree the chunk was cut from."""

    message: str
    recoverable: bool = True

    def to_dict(self) -> dict[str, Any]:
        return {"message": self.message, "recoverable": self.recoverable}


@dataclass(frozen=True, slots=True)
class RegionEntry:
    """A region of a container file the chunk holds text of (lines of the file)."""

    label: str
    language: str | None
    embedded: bool
    line_range: Range
    note: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "label": self.label, "language": self.language, "embedded": self.embedded,
            "lineRange": self.line_range.to_dict(),
        }
        if self.note:
            out["note"] = self.note
        return out


@dataclass(frozen=True, slots=True)
class CellEntry:
    """A notebook cell the chunk holds source of: the lines (inclusive) and code points
    (end-exclusive) of the cell's source it holds, 0-based."""

    index: int
    kind: str
    line_range: Range
    char_range: Range

    def to_dict(self) -> dict[str, Any]:
        return {"index": self.index, "kind": self.kind, "lineRange": self.line_range.to_dict(),
                "charRange": self.char_range.to_dict()}


def _entries(items: tuple[Any, ...]) -> list[dict[str, Any]]:
    return [item.to_dict() for item in items]


#: The wire keys, in their order: each with its value, and whether a context has it.
_WIRE: tuple[tuple[str, Any, Any], ...] = (
    ("filepath", lambda c: c.filepath, lambda c: c.has_file),
    ("language", lambda c: c.language, lambda c: c.has_file),
    ("scope", lambda c: _entries(c.scope), None),
    ("entities", lambda c: _entries(c.entities), None),
    ("siblings", lambda c: _entries(c.siblings), None),
    ("imports", lambda c: _entries(c.imports), None),
    ("parseError", lambda c: c.parse_error.to_dict(), lambda c: c.parse_error is not None),
    ("regions", lambda c: _entries(c.regions), lambda c: c.regions is not None),
    ("cells", lambda c: _entries(c.cells), lambda c: c.cells is not None),
)
_WIRE_VALUES = {key: (value, present) for key, value, present in _WIRE}


@dataclass(slots=True, eq=False)
class ChunkContext(Mapping[str, Any]):
    """What surrounds a chunk in its file (see engine/context.py for what each part means).

    A typed value: read ``context.scope``, ``context.entities``... ``to_dict()`` is the
    camelCase wire form (``filepath``, ``language``, ``scope``, ``entities``, ``siblings``,
    ``imports``, ``parseError``, ``regions``, ``cells``: keys absent where they do not
    apply). It also reads as that mapping (``context["scope"]``, ``"parseError" in
    context``, equality with a dict), as the context was a dict before. Not frozen (a
    batch builds thousands); treat it as a value all the same.

    ``has_file``: ``filepath`` and ``language`` are part of the context (every context
    mode but ``none``); ``regions`` (a container's chunks) and ``cells`` (a notebook's) are
    None for other files."""

    filepath: str | None = None
    language: str | None = None
    has_file: bool = False
    scope: tuple[ScopeEntry, ...] = ()
    entities: tuple[EntityEntry, ...] = ()
    siblings: tuple[SiblingEntry, ...] = ()
    imports: tuple[ImportEntry, ...] = ()
    parse_error: ParseErrorEntry | None = None
    regions: tuple[RegionEntry, ...] | None = None
    cells: tuple[CellEntry, ...] | None = None

    def to_dict(self) -> dict[str, Any]:
        # Written out, not looped over _WIRE: a batch writes one per chunk.
        out: dict[str, Any] = {"filepath": self.filepath, "language": self.language} if self.has_file else {}
        out["scope"] = [e._wire.copy() for e in self.scope]
        out["entities"] = [
            {"name": e.name, "type": e.type, "signature": e.signature, "docstring": e.docstring,
             "lineRange": {"start": e.line_range.start, "end": e.line_range.end}, "isPartial": e.is_partial}
            for e in self.entities
        ]
        out["siblings"] = [s._wire.copy() for s in self.siblings]
        out["imports"] = [i._wire.copy() for i in self.imports]
        if self.parse_error is not None:
            out["parseError"] = self.parse_error.to_dict()
        if self.regions is not None:
            out["regions"] = [r.to_dict() for r in self.regions]
        if self.cells is not None:
            out["cells"] = [c.to_dict() for c in self.cells]
        return out

    # -- read as the wire mapping ----------------------------------------------------------
    def __getitem__(self, key: str) -> Any:
        found = _WIRE_VALUES.get(key)
        if found is None or (found[1] is not None and not found[1](self)):
            raise KeyError(key)
        return found[0](self)

    def __iter__(self) -> Iterator[str]:
        return (key for key, _, present in _WIRE if present is None or present(self))

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def __repr__(self) -> str:
        return f"ChunkContext({self.to_dict()!r})"


@dataclass(slots=True)
class Chunk:
    """One chunk of a file (not frozen: building a frozen one costs twice as much,
    and a batch builds thousands; treat it as a value all the same).

    ``byte_range`` holds true UTF-8 byte offsets and ``char_range`` code-point
    offsets, both end-exclusive; ``line_range`` is 0-based and inclusive, as in
    code-chunk. ``split_start``/``split_end`` say whether the cut at that edge
    had to fall inside a token: ``None`` (between syntax nodes or at a file
    edge), ``"line"`` (inside a token, at a line boundary) or ``"char"``
    (inside a single over-long line).
    """

    text: str
    contextualized_text: str
    byte_range: Range
    char_range: Range
    line_range: Range
    size: int
    size_unit: SizeUnit
    nws: int
    index: int
    total_chunks: int
    context: ChunkContext = field(default_factory=ChunkContext)
    split_start: ForcedCut | None = None
    split_end: ForcedCut | None = None
    strategy: Strategy = "ast"
    fallback_reason: str | None = None
    overlap_text: str = ""
    #: The size of ``contextualized_text`` (what a pipeline embeds) in ``size_unit``.
    embedded_size: int = -1
    #: With a tokenizer: its name and the token counts of ``text`` and ``contextualized_text``.
    tokenizer: str | None = None
    tokens: int | None = None
    embedded_tokens: int | None = None

    @property
    def forced_split(self) -> bool:
        return self.split_start is not None or self.split_end is not None

    def to_dict(self) -> dict[str, Any]:
        # code-chunk's keys, in its order, then ours.
        return {
            "text": self.text,
            "contextualizedText": self.contextualized_text,
            "byteRange": self.byte_range.to_dict(),
            "lineRange": self.line_range.to_dict(),
            "context": self.context.to_dict(),
            "index": self.index,
            "totalChunks": self.total_chunks,
            "charRange": self.char_range.to_dict(),
            "size": self.size,
            "sizeUnit": self.size_unit,
            "nws": self.nws,
            "forcedSplit": {"start": self.split_start, "end": self.split_end},
            "strategy": self.strategy,
            "fallbackReason": self.fallback_reason,
            "overlapText": self.overlap_text,
            "embeddedSize": self.embedded_size,
            **(
                {"tokenizer": self.tokenizer, "tokens": self.tokens, "embeddedTokens": self.embedded_tokens}
                if self.tokenizer is not None
                else {}
            ),
        }
