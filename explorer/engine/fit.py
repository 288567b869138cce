"""Fitting what is embedded within ``max_size``.

With ``fit="embedded"`` (the default for the ``tokens`` unit), ``max_size`` binds each
chunk's ``contextualized_text``: header, overlap and code together. Two steps make it so:

1. *Room for the header, while packing.* The chunker packs code into a window whose limit
   is ``max_size`` less a reserve for the parts of the header a chunk starting there
   keeps in any case: the path line, the scope line (the entities around the window's
   first line) and the overlap (the lines before it). The reserve takes at most half of
   ``max_size``: past that, the code gets half and those parts give way like the others.
2. *Giving way, per chunk.* The full header is tried first; while the chunk's embedded
   text is over the limit, header parts are left out in the order of :data:`GIVE_WAY`:
   the siblings after the chunk (``Before:``), the siblings before it (``After:``), the
   imports (``Uses:``), the definitions (``Defines:``), the overlap, the scope, the path.
   Code is never cut to fit: when the code alone is over the limit (token counts merge
   across lines, so the chunker's estimate can be a little short), the window starting
   on that line gets a smaller limit and the file is chunked again; the cut still falls
   at a clean boundary, the same as any other cut.

Every size used for the decision is an exact measure of the final text (for tokens, the
tokenizer's own count), so no chunk is ever over the limit. Only a ``max_size`` below the
size of a single character (a few tokens) cannot be met: that raises ``ValueError``.

With ``fit="text"`` in the tokens unit, the same exact check binds the chunk's ``text``.

:class:`Room` is the one judge of whether a definition *fits*: its lines measure at most the
room the chunker gives a chunk starting on its first line (:meth:`Fitter.limit_at`, or
``max_size`` where sizes are not checked on the final text). The chunker never splits a
definition that fits; the problems, the quality measures and the sweep report one that does
not as cut too big, with that room.
"""

from __future__ import annotations

from collections.abc import Callable

from .context import MAX_SCOPE, ContextBuilder, ContextBuilding, NoContextBuilder
from .model import ChunkContext
from .options import ChunkOptions
from .parse import ParsedFile
from .tokens import starts_clean

_LINE_BREAKS = b"\r\n"

#: The order in which the header's parts give way to the code (first leaves first).
GIVE_WAY = ("siblings_after", "siblings_before", "uses", "defines", "overlap", "scope", "path")

#: The reserve for the path, scope and overlap is at most this share of ``max_size``.
MAX_RESERVE_SHARE = 0.5


def fitted(options: ChunkOptions) -> bool:
    """Whether sizes are checked on each chunk's final text (``fit="embedded"``, or any fit in
    tokens, whose counts merge across lines): the chunker then packs within
    :meth:`Fitter.limit_at`, and a chunk over the limit makes the file be chunked again."""
    return options.fit_embedded or options.size_unit == "tokens"


class Fitter:
    """The per-line limits for the chunker and the per-chunk fitting of one file."""

    def __init__(
        self, parsed: ParsedFile, options: ChunkOptions,
        builder: ContextBuilding,
    ):
        self.src = parsed.source
        self.options = options
        self.builder = builder
        self.max_size = options.max_size
        self.unit = options.size_unit
        self.embedded = options.fit_embedded
        measure = options.measure
        self.measure = measure.text
        #: Whether a header counts on its own (its text's count added): see :meth:`exact`.
        self._clean_joins = measure.clean_joins
        self._slash_joins = measure.slash_joins
        #: Tokens a Hugging Face tokenizer adds around every input; pieces are counted without.
        self.special = measure.special
        self._piece_measure = measure.piece
        self._pieces: dict[str, int] = {}
        self.overlap_lines = options.overlap_lines if options.context_mode != "none" else 0
        self._limits: dict[int, int] = {}
        self._penalty: dict[int, int] = {}

    # -- while packing ---------------------------------------------------------------
    def limit_at(self, start: int) -> int:
        """The most code a chunk starting at byte ``start`` may hold (the same for a whole line)."""
        line = self.src.line_of(start)
        limit = self._limits.get(line)
        if limit is None:
            room = self.max_size - self.special
            if self.embedded:
                room = max(room - self._reserve(line), int(self.max_size * MAX_RESERVE_SHARE))
            limit = self._limits[line] = max(1, room - self._penalty.get(line, 0))
        return limit

    def _reserve(self, line: int) -> int:
        """The path line, scope line (the entities begun before the line) and overlap of a
        chunk starting on ``line``."""
        builder = self.builder
        if not isinstance(builder, ContextBuilder):
            return 0
        src = self.src
        start = src.line_start(line)
        scope, _ = builder.structure.scope.around(start, start + 1, MAX_SCOPE)
        # Not an entity that starts on the line: a chunk holding it whole has no scope line
        # for it, and a definition that fits that room is kept whole.
        context = ChunkContext(builder.filepath, None, True,
                               tuple(builder.scope_entry(e) for e in scope if e.start < start))
        header = builder.header_lines(context)
        overlap = ""
        if self.overlap_lines and line > 0:
            overlap = src.slice(src.line_start(max(0, line - self.overlap_lines)), start)
        return self._piece(builder.compose(header, overlap, ""))

    def penalize(self, start: int, code_size: int, text: str) -> None:
        """The code of the chunk starting at ``start`` is over the limit on its own
        (``code_size``): give windows starting on that line less room. Raises ValueError
        when the room is down to a single unit already."""
        line = self.src.line_of(start)
        if self.limit_at(start) <= 1:
            raise ValueError(
                f"max_size {self.max_size} {self.unit} is too small: the text {text[:20]!r} alone "
                f"measures {code_size} {self.unit}; raise max_size"
            )
        before = self._penalty.get(line, 0)
        # Doubling beyond the excess: a few rounds at most, even when estimates keep falling short.
        self._penalty[line] = before + max(code_size - self.max_size, before, 1)
        self._limits.pop(line, None)

    # -- per chunk -------------------------------------------------------------------
    def exact(self, embedded: str, text: str, text_size: int | None) -> int:
        """The exact size of ``embedded`` (``text`` after a header and overlap). With an
        encoding whose counts add up after a line break (see engine/tokens.py), and the
        text's exact count known, only the header and overlap are counted."""
        if text_size is not None and len(embedded) == len(text):
            return text_size
        if text_size is not None and self._clean_joins and starts_clean(text, self._slash_joins):
            return self.measure(embedded[: len(embedded) - len(text)]) + text_size
        return self.measure(embedded)

    def fit(
        self, context: ChunkContext, text: str, overlap_text: str, code_size: int, code_exact: bool = False
    ) -> tuple[str, int, str] | None:
        """``(contextualized_text, its exact size, the overlap kept)`` within ``max_size``,
        header parts left out in the order of :data:`GIVE_WAY`; None when even the code
        alone is over (``code_size`` is the chunker's estimate of the code, or its exact
        size with ``code_exact``)."""
        builder, limit = self.builder, self.max_size
        exact_code = code_size if code_exact else None
        parts = builder.header_parts(context)
        overlap = overlap_text if overlap_text.rstrip("\r\n") else ""
        sizes = {kind: self._piece(line + "\n") for kind, line in parts}
        present = set(sizes)
        overlap_size = self._piece(builder.compose([], overlap, "")) if overlap else 0
        if overlap:
            present.add("overlap")
        blank = self._piece("\n")
        dropped: set[str] = set()
        order = iter([kind for kind in GIVE_WAY if kind in present])
        while True:
            header = [line for kind, line in parts if kind not in dropped]
            kept_overlap = "" if "overlap" in dropped else overlap
            estimate = self.special + code_size + sum(size for kind, size in sizes.items() if kind not in dropped)
            estimate += (blank if header else 0) + (overlap_size if kept_overlap else 0)
            last = not header and not kept_overlap
            # Estimates are close; the exact measure decides (and is what is reported).
            if estimate <= limit or last:
                embedded = builder.compose(header, kept_overlap, text)
                size = self.exact(embedded, text, exact_code)
                if size <= limit:
                    return embedded, size, kept_overlap
                if last:
                    return None
            dropped.add(next(order))

    def _piece(self, text: str) -> int:
        size = self._pieces.get(text)
        if size is None:
            size = self._pieces[text] = self._piece_measure(text)
        return size


class Room:
    """The room a chunk has for code, as the chunker has it, and whether a definition fits it.

    ``at(start)`` is the most code a chunk starting at byte ``start`` may hold: ``max_size``
    less the header reserve (:meth:`Fitter.limit_at`) where sizes are checked on the final
    text (:func:`fitted`), else ``max_size``. ``need(start, end)`` is what a chunk holding
    the definition at ``[start, end)`` holds at least: its lines, from the line start when
    only indentation comes before it, to the end of its last line when only blanks follow
    (indentation and line breaks count in the ``chars`` and ``lines`` units).
    ``builder`` makes the file's context builder, asked for only when a header reserve is
    measured (the first ``at`` under ``fit="embedded"``).

    One difference with the chunker remains: with a ``tokenizer.json`` (whose counts are
    estimates while packing), a line where a chunk's exact count came out over the limit
    gets less room in that chunking; this judge gives the room before that correction."""

    def __init__(self, parsed: ParsedFile, options: ChunkOptions, builder: Callable[[], ContextBuilding]):
        self.parsed = parsed
        self.options = options
        self.src = parsed.source
        self.max_size = options.max_size
        self.unit = options.size_unit
        self._size = options.measure.sizer(self.src)
        self._special = options.measure.special
        self._builder = builder
        self._fitter: Fitter | None = None

    def at(self, start: int) -> int:
        """The room for code of a chunk starting at byte ``start``."""
        if not fitted(self.options):
            return self.max_size
        fitter = self._fitter
        if fitter is None:
            builder = self._builder() if self.options.fit_embedded else NoContextBuilder(self.parsed)
            fitter = self._fitter = Fitter(self.parsed, self.options, builder)
        return fitter.limit_at(start)

    def need(self, start: int, end: int) -> int:
        """The size of the definition at ``[start, end)`` as a chunk holds it (see the class)."""
        data, src = self.src.data, self.src
        line_start = src.line_start_at(start) if start < len(data) else start
        if not data[line_start:start].strip():
            start = line_start
        if 0 < end < len(data) and data[end - 1] not in _LINE_BREAKS:
            line_end = src.line_end_at(end)
            if not data[end:line_end].strip():
                end = line_end
        return self._size(start, end)

    def judge(self, start: int, end: int) -> tuple[int, int]:
        """``(need, room)`` of the definition at ``[start, end)``: it fits when need <= room.
        A need over every chunk's room (``max_size``, less a tokenizer's special tokens)
        gets that bound as its room: no header needs measuring to tell it does not fit."""
        need = self.need(start, end)
        bound = self.max_size - self._special if fitted(self.options) else self.max_size
        return need, (bound if need > bound else self.at(start))

    def fits(self, start: int, end: int) -> bool:
        need, room = self.judge(start, end)
        return need <= room

    def describe(self, need: int, room: int) -> str:
        """``1,483 nws > 1,474 nws of room (max 1,500 less the header)``: why a definition is too big."""
        unit, limit = self.unit, self.max_size
        if room >= limit:
            return f"{need:,} {unit} > {limit:,}"
        less = "the header" if self.options.fit_embedded else "the special tokens"
        return f"{need:,} {unit} > {room:,} {unit} of room (max {limit:,} less {less})"
