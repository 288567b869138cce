"""The cAST chunking algorithm, over byte offsets, without recursion.

The file is seen as a sequence of *pieces* that tile it exactly. A piece is a
run of sibling syntax nodes (or, inside an over-long token, a line or a run of
characters) together with the whitespace around it, so cuts between pieces
fall at line starts whenever the source allows. A greedy window walks the
pieces in order:

* a piece that fits in the open window joins it;
* a piece that fits on its own closes the window and opens the next one;
* an oversized piece is *expanded* in place (the window stays open, so its
  first parts fill the window): a run of nodes into single nodes, a node into
  groups of its children, a token into lines, a line into characters.

Children are grouped before they become pieces: leading punctuation and
keywords join the first named child, trailing ones the last, and comments,
decorators and attributes directly above a node join it. A group that fits is
never split, so a definition that fits in one chunk stays whole and keeps its
doc comment. Pieces live on an explicit stack: nesting depth costs nothing.

A definition too big for one chunk is cut inside, but its header (its first lines up to
the body, decorators included) never ends a chunk alone: when the window would close
right after a header, the header moves to the next chunk, and when the window holds
only the header, the body is opened so that its first part joins it.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import islice, repeat
from typing import NamedTuple

from tree_sitter import Language, Node

from .kinds import ATTACH_FORWARD, WRAPPER_KINDS, definition_kinds, holds_body, is_comment, is_statement_container
from .model import ForcedCut
from .options import ChunkOptions
from .parse import ParsedFile
from .text import WHITESPACE, SourceText

_LINE_ENDS = frozenset(b"\r\n")
_WS_BYTES = frozenset(WHITESPACE)

#: How the cut at a piece's start was made: between nodes (None), or inside a token.
CLEAN: ForcedCut | None = None
LINE: ForcedCut = "line"
CHAR: ForcedCut = "char"


class Piece(NamedTuple):
    """A stretch of the file the window considers. The hot loop passes plain
    ``(start, end, nodes, cut)`` tuples; the trace hook gets them as ``Piece``."""

    start: int
    end: int
    nodes: tuple[Node, ...] | None  # None: a stretch of text inside a token (or a whole unparsed file)
    cut: ForcedCut | None = CLEAN  # how the cut at ``start`` was made


@dataclass(frozen=True, slots=True)
class Span:
    """One chunk's byte range and how its two edges were cut."""

    start: int
    end: int
    split_start: ForcedCut | None
    split_end: ForcedCut | None


#: Called as ``trace(step, piece, window_start, parts)`` for every decision; the
#: steps are ``add``, ``close`` (the window ends where ``piece`` starts),
#: ``open``, ``emit_chars`` (a part of an over-long line becomes a chunk),
#: ``separate``/``descend``/``split_lines``/``split_chars`` (an oversized piece
#: is expanded into ``parts``) and ``finish``.
TraceHook = Callable[[str, Piece, "int | None", "list[Piece] | None"], None]


def iter_spans(
    parsed: ParsedFile,
    options: ChunkOptions,
    trace: TraceHook | None = None,
    limits: Callable[[int], int] | None = None,
    *,
    bounds: tuple[int, int] | None = None,
) -> Iterator[Span]:
    """Yield the chunk spans of a parsed file in order. They tile the file exactly;
    none is larger than ``options.max_size`` in ``options.size_unit``, or with ``limits``,
    than ``limits(start)`` for the chunk starting at byte ``start`` (the room the header
    of a chunk starting there leaves: see engine/fit.py; it must depend on the line only).
    ``bounds``: chunk only that byte range (an embedded region, whose tree lies inside it),
    tiling it exactly."""
    src = parsed.source
    low, high = bounds if bounds is not None else (0, len(src.data))
    if src.nws(low, high) == 0:
        return
    measure = options.measure
    size, limit = measure.sizer(src), options.max_size
    max_size = limit
    limit_at: Callable[[int], int] = limits if limits is not None else (lambda _start: max_size)
    root = parsed.root
    data = src.data
    line_ends = _LINE_ENDS
    flags = kind_flags(parsed.tree.language) if parsed.tree is not None else b""
    roles = header_roles(parsed.tree.language, parsed.language) if parsed.tree is not None and parsed.language else b""
    stack: list[tuple] = [(low, high, (root,) if root is not None else None, CLEAN)]
    pop, push = stack.pop, stack.extend
    win_start: int | None = None
    win_cut: ForcedCut | None = CLEAN
    # The window's last piece that starts a line (only one can share the closing
    # piece's line start, and it is the last one): its start and cut.
    line_piece_start, line_piece_cut = -1, CLEAN
    additive = measure.additive
    win_size = 0  # the window's size, kept up to date in additive units
    while stack:
        piece = pop()
        start, end, nodes, cut = piece
        piece_size = size(start, end)
        if win_start is not None:
            grown = win_size + piece_size if additive else size(win_start, end)
            if grown <= limit:
                win_size = grown
                if trace:
                    trace("add", Piece._make(piece), win_start, None)
                elif len(stack) > 2:
                    # The pieces below on the stack follow in file order, with growing
                    # ends: every one the window can still hold would be added one at a
                    # time, so take them all at once, found by a galloping search.
                    taken = _fitting_run(stack, win_start, size, limit)
                    if taken:
                        piece = _last_line_piece(data, stack, taken) or piece
                        win_size = size(win_start, stack[-taken][1])
                        del stack[-taken:]
                        start, cut = piece[0], piece[3]
                if data[start - 1] in line_ends:  # the piece starts a line
                    line_piece_start, line_piece_cut = start, cut
                continue
        if piece_size <= (limit_at(start) if limits is not None else max_size):
            if win_start is not None:
                piece = _back_to_line_start(
                    src, piece, win_start, size, limit, limit_at, (line_piece_start, line_piece_cut)
                )
                if piece[0] != start:
                    start, end, nodes, cut = piece
                    piece_size = size(start, end)
                else:
                    cut = piece[3]
                move = _header_move(src, flags, roles, root, piece, win_start, size, limits, max_size) if roles else None
                if move is not None:
                    head, parts = move
                    if parts is not None:
                        # The window holds a definition's header alone: the piece is opened
                        # so that its first part joins the header.
                        if trace:
                            trace("open_body", Piece._make(piece), win_start, [Piece._make(p) for p in parts])
                        win_size = size(win_start, start)
                        push(reversed(parts))
                        continue
                    # The window ends with the header of the definition this piece continues:
                    # the header opens the next chunk, which this piece (or its first part) joins.
                    if trace:
                        trace("keep_header", Piece(head, start, None, CLEAN), win_start, None)
                    yield Span(win_start, head, win_cut, CLEAN)
                    win_start, win_cut, win_size = head, CLEAN, size(head, start)
                    if limits is not None:
                        limit = limits(head)
                    line_piece_start, line_piece_cut = (head, CLEAN) if data[head - 1] in line_ends else (-1, CLEAN)
                    stack.append(piece)
                    continue
                if trace:
                    trace("close", Piece._make(piece), win_start, None)
                yield Span(win_start, start, win_cut, cut)
            win_start, win_cut, win_size = start, cut, piece_size
            if limits is not None:
                limit = limits(start)
            line_piece_start = -1
            if trace:
                trace("open", Piece._make(piece), win_start, None)
            continue
        trimmed = _trim_blank_tail(src, piece)
        parts = trimmed or _expand(src, flags, piece)
        if parts is not None:
            if trace:
                trace("separate" if trimmed else _expand_step(piece), Piece._make(piece), win_start,
                      [Piece._make(p) for p in parts])
            push(reversed(parts))
            continue
        # A single over-long line is cut at characters. It starts its own chunks when
        # it starts a line (a clean cut); mid-line, the open window takes its first part,
        # and so does a window of blank lines (alone it would be a chunk of whitespace).
        # Cuts then fall inside the line only: the window's earlier lines close as a chunk.
        line_start = src.line_start_at(start) if win_start is not None else 0
        if win_start is not None and line_start > win_start and src.nws(win_start, line_start):
            piece = Piece(line_start, end, None, cut if line_start == start else CLEAN)
            if trace:
                trace("close", piece, win_start, None)
            yield Span(win_start, line_start, win_cut, piece.cut)
        elif win_start is not None:
            piece = Piece(win_start, end, None, win_cut)
        else:
            piece = Piece._make(piece)
        cuts = list(_char_cuts(src, piece, size, limit_at(piece.start) if limits is not None else max_size))
        if trace:
            trace("split_chars", piece, None, [Piece(a, b, None, c) for a, b, c in cuts])
        for (start, end, cut), (_, _, next_cut) in zip(cuts, cuts[1:]):
            if trace:
                trace("emit_chars", Piece(start, end, None, cut), None, None)
            yield Span(start, end, cut, next_cut)
        last = Piece(cuts[-1][0], cuts[-1][1], None, cuts[-1][2])
        win_start, win_cut, win_size = last.start, last.cut, size(last.start, last.end)
        if limits is not None:
            limit = limits(win_start)
        line_piece_start = -1
        if trace:
            trace("open", last, None, None)
    if win_start is not None:
        if trace:
            trace("finish", Piece(high, high, None), win_start, None)
        yield Span(win_start, high, win_cut, CLEAN)


#: Node kind roles for :func:`header_start`.
_OTHER, _BODY, _DEFINITION, _WRAPPER = 0, 1, 2, 3
_ROLES: dict[tuple[Language, str], bytes] = {}


def header_roles(language: Language, name: str) -> bytes:
    """For each node kind id of a language: a definition (the kinds the quality measures keep
    whole), a wrapper of one (decorators, ``export``), a body of statements or members, or
    another kind."""
    key = (language, name)
    roles = _ROLES.get(key)
    if roles is None:
        table = bytearray(_ERROR_KIND + 1)
        definitions = definition_kinds(name)
        for kind in range(language.node_kind_count):
            if not language.node_kind_is_named(kind):
                continue
            kind_name = language.node_kind_for_id(kind) or ""
            if kind_name in definitions:
                table[kind] = _DEFINITION
            elif kind_name in WRAPPER_KINDS:
                table[kind] = _WRAPPER
            elif holds_body(kind_name) or is_statement_container(kind_name):
                table[kind] = _BODY
        roles = _ROLES[key] = bytes(table)
    return roles


#: How many levels :func:`header_start` climbs from a piece's first node. Definitions nest a
#: few levels (the same chunks with no bound on Werkzeug, TanStack and two stdlib packages);
#: nesting thousands deep (generated data) would make every piece's climb, and each
#: ``parent`` step (tree-sitter walks down from the root to find it), cost its depth.
_MAX_HEADER_LEVELS = 32


def header_start(data: bytes, roles: bytes, node: Node, start: int, win_start: int) -> int | None:
    """Where the header of the definition that a piece starting at ``start`` continues
    begins, when only that header lies between there and ``start``: nothing of the body
    (``node``, the piece's first node, or an ancestor the piece begins, comes first in it).
    The header takes in the decorators, attributes and comments directly above. An outer
    definition whose header starts in the window (``win_start`` on), and whose body this
    one opens, is taken in too. None when no definition's header ends the window."""
    head: int | None = None
    bound = start  # nothing of a body may start before this (then: before the header)
    x = node
    parent = x.parent
    levels = _MAX_HEADER_LEVELS
    while parent is not None and parent.start_byte >= start:  # nodes the piece begins
        levels -= 1
        if not levels:
            return None
        x, parent = parent, parent.parent
    while parent is not None:
        levels -= 1
        if not levels:
            break
        role = roles[parent.kind_id]
        count = parent.named_child_count
        if not count:
            break
        if role == _BODY:
            first = parent.named_child(0)
            if first is None or first.start_byte < bound:
                break  # a statement or member of the body comes first
        elif role == _DEFINITION:
            body = _body_of(parent)
            if body is None or (body.start_byte < bound and body != x):
                break  # the body lies before the piece
        else:
            last = parent.named_child(count - 1)
            if last is None or (last.start_byte < bound and last != x):
                break  # the piece is not the rest of this node
        if role in (_DEFINITION, _WRAPPER):
            if head is not None and parent.start_byte < win_start:
                break  # an outer header that an earlier chunk holds
            head = bound = _above(data, parent)
        elif head is not None and parent.start_byte < win_start:
            break
        x, parent = parent, parent.parent
    return head


def _header_move(
    src: SourceText, flags: bytes, roles: bytes, root: Node | None, piece: tuple, win_start: int,
    size: Callable[[int, int], int], limits: Callable[[int], int] | None, max_size: int,
) -> tuple[int, list[tuple] | None] | None:
    """What to do when ``piece``, which fits alone, is to close the window, when the window
    ends with the header of a definition that the piece continues (see the module doc):
    ``(header start, None)`` to close the window before the header and open the next one
    with it, ``(header start, parts)`` to open the piece instead when the window holds the
    header alone; None to close the window as usual (no header, a piece holding a
    definition, or neither the piece nor its first part fits after the header)."""
    start, end, nodes, _cut = piece
    first = nodes[0] if nodes is not None else _node_at(src, root, start, end)
    if first is None:
        return None
    head = header_start(src.data, roles, first, start, win_start)
    if head is None:
        return None
    if head <= win_start or not src.nws(win_start, head):
        if nodes is not None and _holds_definition(roles, nodes):
            return None  # a definition that fits is kept whole
        parts = _expand(src, flags, piece)
        return (head, parts) if parts is not None and not _splits_definition(roles, piece, parts) else None
    # From the line start when that fits too (the indentation goes with the header).
    line_start = src.line_start_at(head)
    indented = line_start > win_start and src.data[line_start:head].isspace()
    if indented and _joins(src, flags, roles, piece, line_start, size, limits, max_size):
        return line_start, None
    if _joins(src, flags, roles, piece, head, size, limits, max_size):
        return head, None
    return None


def _node_at(src: SourceText, root: Node | None, start: int, end: int) -> Node | None:
    """The smallest node at the first non-blank byte of a stretch of a token (None: blank)."""
    data = src.data
    at = start
    while at < end and data[at] in _WS_BYTES:
        at += 1
    if root is None or at >= end:
        return None
    return root.descendant_for_byte_range(at, at + 1)


def _holds_definition(roles: bytes, nodes: Sequence[Node]) -> bool:
    """Whether a piece's nodes hold a definition (or its wrapper): a piece that fits is then
    kept whole, never opened for a header's sake."""
    return any(roles[n.kind_id] in (_DEFINITION, _WRAPPER) for n in nodes)


def _splits_definition(roles: bytes, piece: tuple, parts: list[tuple]) -> bool:
    """Whether opening ``piece`` into ``parts`` cuts through a definition inside it (one
    group of a single node is opened a few levels down at once: see :func:`_opened_pieces`)."""
    nodes = piece[2]
    if nodes is None:
        return False
    top = {n.id for n in nodes}
    start = piece[0]
    for part in parts:
        for node in part[2] or ():
            above = node.parent
            while above is not None and above.id not in top and above.start_byte >= start:
                if roles[above.kind_id] in (_DEFINITION, _WRAPPER):
                    return True
                above = above.parent
    return False


def _joins(
    src: SourceText, flags: bytes, roles: bytes, piece: tuple, head: int, size: Callable[[int, int], int],
    limit_at: Callable[[int], int] | None, max_size: int,
) -> bool:
    """Whether a window opened at ``head`` (a definition's header, up to ``piece``) takes
    ``piece``, or the first part it is opened into as the chunker opens it: an oversized
    part is expanded, one that fits alone is opened unless it holds a definition."""
    room = limit_at(head) if limit_at is not None else max_size
    while True:
        start, end, nodes, _cut = piece
        if size(head, end) <= room:
            return True
        if size(start, end) <= (limit_at(start) if limit_at is not None else max_size):
            if nodes is not None and _holds_definition(roles, nodes):
                return False
            parts = _expand(src, flags, piece)
            if parts and _splits_definition(roles, piece, parts):
                return False
        else:
            parts = _trim_blank_tail(src, piece) or _expand(src, flags, piece)
        if not parts:
            return False
        piece = parts[0]


def _body_of(definition: Node) -> Node | None:
    """A definition's body: its ``body`` field, else its last named child but comments."""
    body = definition.child_by_field_name("body")
    if body is not None:
        return body
    for i in range(definition.named_child_count - 1, -1, -1):
        child = definition.named_child(i)
        if child is not None and not is_comment(child.type):
            return child
    return None


def _above(data: bytes, node: Node) -> int:
    """Where ``node`` starts with the decorators, attributes and comments directly above it
    (no blank line between)."""
    top = node.start_byte
    before = node.prev_named_sibling
    while before is not None and (before.type in ATTACH_FORWARD or is_comment(before.type)):
        gap = data[before.end_byte : top]
        if (gap and not gap.isspace()) or _has_blank_line(gap):
            break
        top = before.start_byte
        before = before.prev_named_sibling
    return top


def _fitting_run(stack: list[tuple], win_start: int, size: Callable[[int, int], int], limit: int) -> int:
    """How many pieces from the top of ``stack`` fit in the window after it (0 if none)."""
    count = len(stack)
    if size(win_start, stack[-1][1]) > limit:
        return 0
    low, high = 1, 2  # low fits; find a high that does not, doubling
    while high <= count and size(win_start, stack[-high][1]) <= limit:
        low, high = high, high * 2
    high = min(high, count + 1)
    while high - low > 1:
        mid = (low + high) // 2
        if size(win_start, stack[-mid][1]) <= limit:
            low = mid
        else:
            high = mid
    return low


def _last_line_piece(data: bytes, stack: list[tuple], taken: int) -> tuple | None:
    """The last (in file order) of the top ``taken`` pieces that starts a line."""
    for i in range(len(stack) - taken, len(stack)):
        start = stack[i][0]
        if data[start - 1] in _LINE_ENDS:
            return stack[i]
    return None


def _back_to_line_start(
    src: SourceText,
    piece: tuple,
    win_start: int,
    size: Callable[[int, int], int],
    limit: int,
    limit_at: Callable[[int], int],
    line_piece: tuple[int, ForcedCut | None],
) -> tuple:
    """A piece about to start a chunk, moved to a line start when the sizes still
    fit (``limit``: the open window's; ``limit_at(start)``: a chunk's starting there):
    back over indentation, back over whole pieces of the window that share its
    line (``line_piece`` is the start and cut of the window's last piece that starts
    a line), or forward over a line's blank rest."""
    start, end, nodes, cut = piece
    line_start = src.line_start_at(start)
    if line_start == start:
        return piece
    data = src.data
    if line_start > win_start and data[line_start:start].isspace():
        if size(line_start, end) <= limit_at(line_start):
            return (line_start, end, nodes, cut)
        return piece
    if line_piece[0] == line_start and line_start > win_start and size(line_start, end) <= limit_at(line_start):
        # The window holds the start of this line as whole pieces (a header such as
        # `def name`): they move to the next chunk, so the cut falls at the line start.
        return (line_start, end, nodes, line_piece[1])
    # Or forward, when the rest of the line is blank (a string or comment opening with a newline).
    next_start = src.line_end_at(start)
    if (
        start < next_start < end
        and data[start:next_start].isspace()
        and size(win_start, next_start) <= limit
        and size(next_start, end) <= limit_at(next_start)
    ):
        return (next_start, end, nodes, cut)
    return piece


def _trim_blank_tail(src: SourceText, piece: tuple) -> list[tuple] | None:
    """Set apart the blank lines at the end of an oversized run of nodes, so a
    definition that fits on its own lines is not split for the sake of the blank
    lines after it (they count in the ``lines`` and ``chars`` units)."""
    start, end, nodes, cut = piece
    if nodes is None:
        return None
    data = src.data
    last = end
    while last > start and data[last - 1] in _WS_BYTES:
        last -= 1
    if last in (end, start):
        return None
    content_end = src.line_end_at(last - 1)
    if content_end >= end:
        return None
    return [(start, content_end, nodes, cut), (content_end, end, None, CLEAN)]


def _expand_step(piece: tuple) -> str:
    nodes = piece[2]
    if nodes is None:
        return "split_lines"
    if len(nodes) > 1:
        named = [n for n in nodes if n.is_named]
        # One node with its tokens (`{ body }`) is opened: a descent (see _separate).
        one = len(named) == 1 and named[0].child_count and not named[0].is_error
        return "descend" if one else "separate"
    return "descend" if nodes[0].child_count else "split_lines"


def _expand(src: SourceText, flags: bytes, piece: tuple) -> list[tuple] | None:
    """The parts of an oversized piece, or None when it is a single line."""
    start, end, nodes, cut = piece
    if nodes is not None and len(nodes) > 1:
        return _opened_pieces(src.data, flags, nodes, start, end, cut) or _pieces_for_runs(
            src.data, start, end, cut, _separate(src.data, flags, nodes)
        )
    if nodes is not None and nodes[0].child_count:
        if nodes[0].is_error:
            return _error_pieces(src.data, flags, nodes[0], start, end, cut)
        pieces = _child_pieces(src.data, flags, nodes[0].children, start, end, cut)
        if len(pieces) > 1:
            return pieces
        # The children are one group (`{ body }`): separated as a group of nodes is.
        group = pieces[0][2]
        return _opened_pieces(src.data, flags, group, start, end, cut) or _pieces_for_runs(
            src.data, start, end, cut, _separate(src.data, flags, group)
        )
    return _line_pieces(src, start, end, cut)


def _opened_pieces(
    data: bytes, flags: bytes, group: Sequence[Node], start: int, end: int, cut: ForcedCut | None
) -> list[tuple] | None:
    """For a group of one named node and its tokens (`{ body }`, `export function ...`,
    `( tuple )`), the pieces of that node's children, the tokens before it joining the
    first and the ones after it the last; when those children are again one such group
    (`{ x = {...}; }`), the same one level down. None for any other group. (In one pass
    over the children: this is also how large data literals are opened.)"""
    lead: list[Node] = []
    trails: list[Sequence[Node]] = []  # innermost last
    # A few levels only: where the descent fails, the next level down tries again, so an
    # unbounded one would make deep nesting (`((((...))))`) quadratic.
    for _ in range(_MAX_OPEN_LEVELS):
        only = _only_named(flags, group)
        if only < 0:
            return None
        node = group[only]
        if not node.child_count or node.is_error:
            return None
        lead.extend(group[:only])
        trails.append(group[only + 1 :])
        pieces = _child_pieces(data, flags, node.children, start, end, cut)
        if len(pieces) > 1:
            break
        group = pieces[0][2]
    else:
        return None
    if lead:
        first = pieces[0]
        pieces[0] = (first[0], first[1], (*lead, *first[2]), first[3])
    trail = [n for part in reversed(trails) for n in part]
    if trail:
        last = pieces[-1]
        pieces[-1] = (last[0], last[1], (*last[2], *trail), last[3])
    return pieces


#: How many single-group levels :func:`_opened_pieces` looks through.
_MAX_OPEN_LEVELS = 4


def _only_named(flags: bytes, group: Sequence[Node]) -> int:
    """The index of the one named node of a group, or -1 (none, or several)."""
    only = -1
    for i, node in enumerate(group):
        if flags[node.kind_id] != _ANONYMOUS:
            if only >= 0:
                return -1
            only = i
    return only


def _error_pieces(data: bytes, flags: bytes, error: Node, start: int, end: int, cut: ForcedCut | None) -> list[tuple]:
    """The pieces of an ERROR node: its children grouped as usual, then joined wherever
    a cut would fall inside a line.

    An ERROR node holds what the parser could not fit anywhere: whole statements it
    recovered (cut between as usual) and loose tokens, often in nested ERROR nodes that
    run across line ends. Nested ERRORs are opened in place, and between two loose
    tokens of one line no cut is made (it would cut a statement the grammar did not
    recognise): inside an error region without structure, cuts fall between lines."""
    children: list[Node] = []
    stack = list(reversed(error.children))
    while stack:
        child = stack.pop()
        if child.is_error and child.child_count:
            stack.extend(reversed(child.children))
        else:
            children.append(child)
    pieces = _child_pieces(data, flags, children, start, end, cut)
    joined = [pieces[0]]
    for piece in islice(pieces, 1, None):
        start = piece[0]
        if data[start - 1] in _LINE_ENDS:
            joined.append(piece)
        else:
            before = joined[-1]
            joined[-1] = (before[0], piece[1], (*before[2], *piece[2]), before[3])
    return joined


def _is_body(node: Node) -> bool:
    """A node holding a body of statements or members: opened rather than kept whole when
    closing tokens follow it."""
    return node.child_count > 0 and holds_body(node.type)


def _separate(data: bytes, flags: bytes, nodes: Sequence[Node]) -> list[Sequence[Node]]:
    """Runs for a group of nodes too big together: the comments above an item apart from
    its attributes and the item; else each named node with its tokens, and a single
    named node opened, so no cut falls right after an opening `{` or before a closing `}`."""
    core = next((i for i, n in enumerate(nodes) if flags[n.kind_id] == _CORE), None)
    if core is not None and core > 0:
        # Attributes and decorators stay with their item; the comments above go first.
        attached = core
        while attached > 0 and flags[nodes[attached - 1].kind_id] == _ATTACHED:
            attached -= 1
        if 0 < attached < core:
            return [nodes[:attached], nodes[attached:]]
    runs = _bound_tokens(flags, nodes)
    if len(runs) == 1:  # one named node with its tokens (`{ body }`, `{ switch ... }`), or one token
        only = next((i for i, n in enumerate(nodes) if flags[n.kind_id] != _ANONYMOUS), None)
        return _opened(data, flags, nodes, only) if only is not None else [(n,) for n in nodes]
    last = runs[-1]
    named = [i for i, n in enumerate(last) if flags[n.kind_id] != _ANONYMOUS]
    if named and named[-1] < len(last) - 1 and _is_body(last[named[-1]]):
        # Closers after a body (`}`, `end`): open the body too, so its last
        # part takes them along instead of leaving them alone.
        runs[-1:] = _opened(data, flags, last, named[-1])
    return runs


def _bound_tokens(flags: bytes, nodes: Sequence[Node]) -> list[Sequence[Node]]:
    """Single named nodes, each with the anonymous tokens around it: the ones before the
    first named node join it (`{` or `export` with what follows), the others the named
    node before them (`;`, `,`, `}`). No cut falls right after an opener or before a closer."""
    runs: list[list[Node]] = []
    leading: list[Node] = []
    for node in nodes:
        if flags[node.kind_id] != _ANONYMOUS:
            runs.append([*leading, node])
            leading = []
        elif runs:
            runs[-1].append(node)
        else:
            leading.append(node)
    if leading:  # only tokens
        return [(n,) for n in leading]
    return runs  # type: ignore[return-value]


def _opened(data: bytes, flags: bytes, group: Sequence[Node], i: int) -> list[Sequence[Node]]:
    """The groups of ``group[i]``'s children, the tokens before it joining the first and
    the ones after it the last (a single group when the node cannot be opened so)."""
    node = group[i]
    # (An ERROR node is opened on its own, by lines: see _error_pieces.)
    inner: list[Sequence[Node]] = (
        list(_group_children(data, flags, node.children)) if node.child_count and not node.is_error else []
    )
    if len(inner) > 1:
        inner[0] = (*group[:i], *inner[0])
        inner[-1] = (*inner[-1], *group[i + 1 :])
        return inner
    return [(c,) for c in group]


def _pieces_for_runs(data: bytes, start: int, end: int, cut: ForcedCut | None, runs: list[Sequence[Node]]) -> list[tuple]:
    """Pieces for runs of nodes that tile ``[start, end)``, cut between runs (see :func:`_cut_between`)."""
    pieces: list[tuple] = []
    append = pieces.append
    prev = runs[0]
    for nxt in islice(runs, 1, None):
        boundary = _cut_between(data, prev[-1].end_byte, nxt[0].start_byte)
        append((start, boundary, prev, cut))
        start, cut, prev = boundary, CLEAN, nxt
    append((start, end, prev, cut))
    return pieces


def _cut_between(data: bytes, left_end: int, right_start: int) -> int:
    """Where to cut between two nodes: after the last line break between them
    (so the next chunk starts at a line start, indentation included), else
    right before the second node."""
    if right_start <= left_end:
        return left_end
    gap = data[left_end:right_start]
    if not gap.isspace():
        return right_start  # text no node covers stays with the left piece
    nl = gap.rfind(b"\n")
    if b"\r" in gap:
        nl = max(nl, gap.rfind(b"\r"))
    if nl >= 0:
        return left_end + nl + 1
    if data[left_end - 1] in (10, 13):  # the left node took its line break (a `//` comment)
        return left_end
    return right_start


def _child_pieces(
    data: bytes, flags: bytes, children: list[Node], start: int, end: int, cut: ForcedCut | None
) -> list[tuple]:
    """The pieces for a node's children tiling ``[start, end)``: one per group of
    children, cut as :func:`_pieces_for_runs` cuts.

    A group is: comments/decorators directly above + leading anonymous tokens +
    one named node + trailing anonymous tokens and same-line trailing comments.
    Grouping and cutting happen in one pass: this is the chunker's hottest loop,
    run once for every child of every node it opens."""
    pieces: list[tuple] = []
    group: list[Node] = []
    has_core = False
    last: Node | None = None  # the last node of ``group``
    for child in children:
        flag = flags[child.kind_id]
        if flag == _ANONYMOUS:
            group.append(child)
            last = child
            continue
        if has_core:
            if flag == _COMMENT and _same_line(data[last.end_byte : child.start_byte]):  # type: ignore[union-attr]
                group.append(child)  # a trailing comment stays with its line
                last = child
                continue
            split = True
        else:  # a comment block set apart by a blank line stands alone (openers stay with it)
            split = (
                bool(group)
                and _has_blank_line(data[last.end_byte : child.start_byte])  # type: ignore[union-attr]
                and any(flags[n.kind_id] != _ANONYMOUS for n in group)
            )
        if split:
            left_end, right_start = last.end_byte, child.start_byte  # type: ignore[union-attr]
            gap = data[left_end:right_start]
            nl = gap.rfind(b"\n")
            if nl >= 0 and gap.isspace() and b"\r" not in gap:  # _cut_between's usual case, inlined
                boundary = left_end + nl + 1
            else:
                boundary = _cut_between(data, left_end, right_start)
            pieces.append((start, boundary, group, cut))
            start, cut = boundary, CLEAN
            group = [child]
        else:
            group.append(child)
        has_core = flag == _CORE
        last = child
    if group:
        if not has_core and pieces and not any(flags[n.kind_id] for n in group):
            before = pieces[-1]  # a tail of tokens joins the group before it
            pieces[-1] = (before[0], end, before[2] + group, before[3])
        else:
            pieces.append((start, end, group, cut))
    return pieces


#: Node kind classes for grouping (see :func:`kind_flags`).
_ANONYMOUS, _CORE, _COMMENT, _ATTACHED = 0, 1, 2, 3
_ERROR_KIND = 0xFFFF  # ERROR nodes: outside every grammar's kind table
_KIND_FLAGS: dict[Language, bytes] = {}


def kind_flags(language: Language) -> bytes:
    """For each node kind id of a language: anonymous, a comment, an attribute that
    attaches forward, or a core node (the rest, ERROR included). A look-up by kind
    id costs less than asking a node its type and whether it is named."""
    flags = _KIND_FLAGS.get(language)
    if flags is None:
        table = bytearray(_ERROR_KIND + 1)
        for kind in range(language.node_kind_count):
            name = language.node_kind_for_id(kind) or ""
            if not language.node_kind_is_named(kind):
                table[kind] = _ANONYMOUS
            elif is_comment(name):
                table[kind] = _COMMENT
            elif name in ATTACH_FORWARD:
                table[kind] = _ATTACHED
            else:
                table[kind] = _CORE
        table[_ERROR_KIND] = _CORE
        flags = _KIND_FLAGS[language] = bytes(table)
    return flags


def _group_children(data: bytes, flags: bytes, children: list[Node]) -> list[list[Node]]:
    """A node's children in the groups a cut may fall between (see :func:`_child_pieces`)."""
    return [piece[2] for piece in _child_pieces(data, flags, children, children[0].start_byte, children[-1].end_byte, CLEAN)]


def _same_line(gap: bytes) -> bool:
    return b"\n" not in gap and b"\r" not in gap


def _has_blank_line(gap: bytes) -> bool:
    if b"\r" in gap:
        gap = gap.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    return gap.count(b"\n") >= 2


def _line_pieces(src: SourceText, start: int, end: int, cut: ForcedCut | None) -> list[tuple] | None:
    starts = src.line_starts
    lo = bisect_right(starts, start)
    hi = bisect_right(starts, end - 1)
    if lo >= hi:
        return None
    bounds = starts[lo:hi]
    bounds.append(end)
    pieces = [(start, bounds[0], None, cut)]
    pieces += zip(bounds, islice(bounds, 1, None), repeat(None), repeat(LINE))
    return pieces


def _char_cuts(src: SourceText, piece: Piece, size: Callable[[int, int], int], limit: int) -> Iterator[tuple[int, int, ForcedCut | None]]:
    """Greedy cuts of one line at character boundaries, each part within the limit."""
    start, cut = piece.start, piece.cut
    end = piece.end
    while start < end:
        if size(start, end) <= limit:
            yield start, end, cut
            return
        lo, hi = start + 1, end  # find the largest stop with measure(start, stop) <= limit
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if size(start, mid) <= limit:
                lo = mid
            else:
                hi = mid - 1
        stop = src.floor_char_boundary(lo)
        if start < stop - 1 and stop < end and src.data[stop - 1] == 13 and src.data[stop] == 10:
            stop -= 1  # nor between the \r and \n of a CRLF
        if stop <= start:  # never inside a character, always progress
            stop = start + 1
            while not src.is_char_boundary(stop):
                stop += 1
        yield start, stop, cut
        # A window of blank lines taken along can put a stop at a line start.
        start, cut = stop, (LINE if src.is_line_start(stop) else CHAR)
