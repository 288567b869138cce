"""The scope tree: entities nested by byte-range containment, and range look-ups on it.

Entity ranges are tree-node ranges, so any two of them are either nested or
disjoint (or equal: two declarators of one declaration). That lets the tree be
built in one pass over the entities sorted by start, with a stack of the open
scopes (linear time), and every look-up start from a binary search over the
sorted starts and walk up parent pointers (O(log n + depth + output)).

Equal ranges are siblings, not parent and child. Imports and exports get a
``parent`` (an import inside a function knows its function) but are never
scopes, never children and never siblings.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right

from .entities import METHOD_PARENT_TYPES, NON_SCOPE_TYPES, Entity


def sort_key(entity: Entity) -> tuple[int, int]:
    return (entity.start, -entity.end)


def build_scope_tree(entities: list[Entity]) -> list[Entity]:
    """Sort ``entities`` in place, set ``parent``/``children``/``depth``, and return the roots.

    A ``function`` whose parent is a class, interface, enum or type becomes a
    ``method`` (so languages need not tell the two apart in their queries).
    """
    entities.sort(key=sort_key)
    roots: list[Entity] = []
    open_scopes: list[Entity] = []
    for entity in entities:
        while open_scopes and not _strictly_contains(open_scopes[-1], entity):
            open_scopes.pop()
        parent = open_scopes[-1] if open_scopes else None
        entity.parent = parent
        entity.depth = len(open_scopes)
        if entity.type in NON_SCOPE_TYPES:
            continue
        if entity.type == "function" and parent is not None and parent.type in METHOD_PARENT_TYPES:
            entity.type = "method"
        (parent.children if parent is not None else roots).append(entity)
        open_scopes.append(entity)
    return roots


def _strictly_contains(outer: Entity, inner: Entity) -> bool:
    return (
        outer.start <= inner.start
        and inner.end <= outer.end
        and (outer.start != inner.start or outer.end != inner.end)
    )


#: Most entities sharing one range that a chunk's context lists (names of one declaration).
MAX_TWINS = 64


class ScopeIndex:
    """Range queries over a built scope tree."""

    __slots__ = ("entities", "roots", "starts", "_members")

    def __init__(self, entities: list[Entity], roots: list[Entity]):
        self.entities = entities  # sorted by (start, -end)
        self.roots = roots
        self.starts = [e.start for e in entities]
        for i, entity in enumerate(entities):
            entity.index = i
        self._members: dict[int, tuple[list[int], list[int], list[Entity]]] = {}

    # -- building blocks -----------------------------------------------------------
    def _last_starting_at(self, offset: int) -> Entity | None:
        """The innermost entity among those with the greatest start <= offset."""
        k = bisect_right(self.starts, offset) - 1
        return self.entities[k] if k >= 0 else None

    def covering(self, offset: int) -> list[Entity]:
        """Entities that start before ``offset`` and end after it, innermost first.

        Each is an ancestor of (or is) the last entity starting before ``offset``:
        its start lies inside them and ranges nest. So walking up from it finds all.
        """
        k = bisect_left(self.starts, offset) - 1
        node = self.entities[k] if k >= 0 else None
        found: list[Entity] = []
        while node is not None:
            if node.end > offset:
                found.extend(reversed(self._twins(node)))
            node = node.parent
        return found

    def _twins(self, node: Entity) -> list[Entity]:
        """``node`` and the entities with exactly its range, in source order (they
        sort just before it: several names of one import, two declarators of one
        declaration), which the parent walk would otherwise skip."""
        i = node.index
        entities = self.entities
        stop = max(0, i - MAX_TWINS)  # `var a, b, ...` with thousands of names: list the nearest
        while i > stop and entities[i - 1].start == node.start and entities[i - 1].end == node.end:
            i -= 1
        return entities[i : node.index + 1] if i < node.index else [node]

    # -- public look-ups -------------------------------------------------------------
    def scope_at(self, offset: int) -> Entity | None:
        """The innermost scope entity containing ``offset`` (``start <= offset < end``)."""
        node = self._last_starting_at(offset)
        while node is not None and not (node.type not in NON_SCOPE_TYPES and node.start <= offset < node.end):
            node = node.parent
        return node

    def enclosing(self, start: int, end: int, limit: int | None = None) -> list[Entity]:
        """Scope entities that contain the whole range ``[start, end)`` and are not
        exactly that range, innermost first (at most ``limit``). A chunk's scope."""
        return self.around(start, end, limit)[0]

    def around(
        self, start: int, end: int, limit: int | None = None
    ) -> tuple[list[Entity], list[Entity]]:
        """``(scope, partial_before)`` of the range ``[start, end)`` in one walk.

        ``scope``: as :meth:`enclosing`. ``partial_before``: entities that start
        before the range and end inside it, in source order (an import containing
        the whole range counts here too, since imports are never scopes).

        The walk starts at the innermost entity with the greatest start ``<= start``
        and goes up through parents: everything overlapping ``start`` from before
        is on that path, and ends only grow along it, so it stops once ``limit``
        scopes are found (a 10,000-deep nest costs ``limit`` steps per chunk).
        """
        node = self._last_starting_at(start)
        scope: list[Entity] = []
        partial_groups: list[list[Entity]] = []  # innermost first, each in source order
        while node is not None:
            if node.end > start:
                group = []
                for twin in self._twins(node):
                    if twin.end < end or twin.type in NON_SCOPE_TYPES:
                        if twin.start < start:  # those starting at `start` are the caller's
                            group.append(twin)
                    elif twin.start != start or twin.end != end:
                        scope.append(twin)
                if group:
                    partial_groups.append(group)
                if limit is not None and len(scope) >= limit:
                    del scope[limit:]
                    break
            node = node.parent
        partial = [e for group in reversed(partial_groups) for e in group]
        return scope, partial

    def entities_in_range(self, start: int, end: int) -> list[tuple[Entity, bool]]:
        """Every entity overlapping ``[start, end)`` in source order, with
        ``is_partial`` (the range holds only part of it). Containing entities are
        included (partial), like code-chunk's ``getEntitiesInRange``."""
        before = [(e, True) for e in reversed(self.covering(start))]
        return before + self.starting_in(start, end)

    def starting_in(self, start: int, end: int) -> list[tuple[Entity, bool]]:
        """Entities that start inside ``[start, end)``, with ``is_partial``."""
        lo = bisect_left(self.starts, start)
        hi = bisect_left(self.starts, end) if end > start else lo
        return [(e, e.end > end) for e in self.entities[lo:hi] if e.end > e.start or start == end]

    def members(self, parent: Entity | None) -> tuple[list[int], list[int], list[Entity]]:
        """Scope children of ``parent`` (or the roots) with their starts and ends, cached."""
        key = id(parent)
        cached = self._members.get(key)
        if cached is None:
            kids = parent.children if parent is not None else self.roots
            cached = ([k.start for k in kids], [k.end for k in kids], kids)
            self._members[key] = cached
        return cached

    def siblings(
        self, parent: Entity | None, start: int, end: int, limit: int
    ) -> list[tuple[Entity, str, int]]:
        """Up to ``limit`` children of ``parent`` entirely before ``[start, end)`` and
        up to ``limit`` entirely after it, as ``(entity, position, distance)`` with
        ``distance`` 1 for the nearest; sorted by distance, ``before`` first on ties."""
        if limit <= 0:
            return []
        starts, ends, kids = self.members(parent)
        i = bisect_right(ends, start)  # kids[:i] end at or before the range
        j = bisect_left(starts, end, lo=i)  # kids[j:] start at or after it
        j = max(j, i)
        n_before, n_after = min(limit, i), min(limit, len(kids) - j)
        merged = []
        for d in range(1, max(n_before, n_after) + 1):
            if d <= n_before:
                merged.append((kids[i - d], "before", d))
            if d <= n_after:
                merged.append((kids[j + d - 1], "after", d))
        return merged
