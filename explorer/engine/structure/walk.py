"""Finding the nodes the language's query can match, without visiting the whole tree.

A query run over the whole tree visits every node in C, which costs about a
third of the parse however few patterns it has. But every pattern of a
hand-written query starts at a node of a few kinds (its *root kinds*), and those
nodes sit at statement level: children of the tree's root and of the language's
``statement_lists`` (blocks and bodies, Python's compound statements, C ``#if``
groups, ``export`` wrappers...), or a block that opens with the language's
block opener (``{``) and the block's owner (the function, class or struct whose
body it is, wherever it sits: an IIFE, a callback, ``struct s {...} x;``). So
the walk enumerates the children of statement lists only, finds nested blocks
by searching the text for the opener (one look-up in C per block and one for
its owner; expressions are never walked), and returns the nodes of root kinds;
the query then runs on each of them alone (``set_max_start_depth(0)``), in C
again.

Each container's range is searched once, skipping the lists found in it, and
look-ups start at the container, so nesting depth costs nothing extra. The
walk keeps an explicit stack: no recursion.

What it cannot see: a root-kind node that is neither a statement of a list nor a
block's owner, such as the declaration in ``if (a) var v = function () {}``
(a body without braces; the function's block is owned by the function
expression). None occurs in the engine benchmark's corpus.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import cast

from tree_sitter import Language, Node, Query

#: Every grammar has error nodes (kind id 65535, outside the kind table); their
#: children are statements like any others.
_ERROR_ID = 0xFFFF
_ROOT_KIND = re.compile(rb"\(\s*([A-Za-z_][A-Za-z0-9_.]*)")
_COMMENT_OR_STRING = re.compile(rb';[^\n]*|"(?:\\.|[^"\\])*"')


@dataclass(frozen=True, slots=True)
class WalkPlan:
    """Node kind ids for one language (a kind name can have several ids)."""

    roots: frozenset[int]
    lists: frozenset[int]
    opener: bytes


def pattern_root_kinds(query: Query, source: bytes) -> set[str] | None:
    """The node kinds the query's patterns start at, read from each pattern's text
    (``(kind ...)``, or each ``(kind ...)`` of a top-level ``[...]``); ``None`` when
    a pattern can start anywhere (``(_)``, a bare string)."""
    kinds: set[str] = set()
    # tree-sitter 0.25's stub declares pattern_count a method; it is a property.
    for i in range(cast(int, query.pattern_count)):
        text = _COMMENT_OR_STRING.sub(b" ", source[query.start_byte_for_pattern(i) : query.end_byte_for_pattern(i)])
        text = text.strip()
        if text.startswith(b"["):
            starts = _alternatives(text)
        else:
            found = _ROOT_KIND.match(text)
            starts = [found.group(1)] if found else []
        if not starts or b"_" in starts:
            return None
        kinds.update(kind.decode() for kind in starts)
    return kinds


def _alternatives(text: bytes) -> list[bytes]:
    """The kinds of the parenthesized alternatives directly inside a ``[...]``."""
    out = []
    depth = 0
    for at, char in enumerate(text):
        if char in b"([":
            depth += 1
            if char == ord("(") and depth == 2:
                found = _ROOT_KIND.match(text, at)
                if found is None:
                    return []
                out.append(found.group(1))
        elif char in b")]":
            depth -= 1
            if depth == 0:
                break
    return out


def kind_ids(language: Language, names: set[str]) -> frozenset[int]:
    return frozenset(
        i
        for i in range(language.node_kind_count)
        if language.node_kind_is_named(i) and language.node_kind_for_id(i) in names
    )


def make_plan(language: Language, roots: set[str], lists: tuple[str, ...], opener: str) -> WalkPlan | None:
    """The plan, or ``None`` when a pattern starts at a supertype (``(expression)``):
    no node has that kind, so only the whole-tree query would match it."""
    if any(language.node_kind_for_id(i) in roots for i in language.supertypes):
        return None
    return WalkPlan(kind_ids(language, roots), kind_ids(language, set(lists)) | {_ERROR_ID}, opener.encode())


def root_kind_nodes(root: Node, data: bytes, plan: WalkPlan) -> list[Node]:
    """The nodes of the plan's root kinds that the query can match, in source order."""
    roots, lists, opener = plan.roots, plan.lists, plan.opener
    found: list[Node] = [root] if root.kind_id in roots else []
    seen: set[int] = {root.id}  # ids of the found nodes
    # (container, where its search for blocks starts, whether its children are statements)
    stack: list[tuple[Node, int, bool]] = [(root, root.start_byte, True)]
    while stack:
        container, pos, is_list = stack.pop()
        skipped: list[Node] = []  # lists inside this container: they search their own range
        if is_list:
            for child in container.named_children:
                kind = child.kind_id
                if kind in roots:
                    seen.add(child.id)
                    found.append(child)
                if kind in lists:
                    stack.append((child, child.start_byte, True))
                    skipped.append(child)
        if not opener:
            continue
        end = container.end_byte
        skip_at = 0
        while True:
            at = data.find(opener, pos, end)
            if at < 0:
                break
            while skip_at < len(skipped) and skipped[skip_at].end_byte <= at:
                skip_at += 1
            if skip_at < len(skipped) and skipped[skip_at].start_byte <= at:
                pos = skipped[skip_at].end_byte
                continue
            pos = at + 1
            block = container.named_descendant_for_byte_range(at, at + 1)
            if block is None or not block.child_count:
                continue  # an opener inside a string or a comment
            if block.id == container.id:
                continue  # the container's own opener (a block listed as a statement): searched already
            stack.append((block, at + 1, block.kind_id in lists))
            pos = block.end_byte
            # the block's owner (a function, a class, a struct...): the smallest node
            # that also holds the byte before the block
            start = block.start_byte
            owner = container.named_descendant_for_byte_range(start - 1, block.end_byte) if start else None
            for node in (owner, block):
                if node is not None and node.kind_id in roots and node.id not in seen:
                    seen.add(node.id)
                    found.append(node)
    found.sort(key=_start)
    return found


def _start(node: Node) -> int:
    return node.start_byte
