"""Best-effort structure for every grammar without a hand-written query.

A grammar's node kinds are read from the grammar itself; a kind whose words
(split at ``_``) end in a definition suffix and contain a definition word
becomes an entity pattern of that word's type (``function_definition``,
``class_declaration``, ``struct_item``, ``module_definition``...: the vocabulary is
:func:`explorer.engine.kinds.entity_type`). Names come from the ``name`` field or the
first identifier-like child, signatures stop at the ``body`` field or the end of the
first line, and docs are adjacent comments.
"""

from __future__ import annotations

from tree_sitter import Query, QueryError

from ...kinds import entity_kinds
from ...languages import get_language


def generic_query(language: str) -> Query | None:
    """A query capturing the grammar's definition-like nodes, or ``None`` if it has none."""
    lang = get_language(language)
    patterns = [
        f"({kind}) " + ("@import" if what == "import" else f"@item.{what}")
        for what, kinds in sorted(entity_kinds(language).items())
        if what != "comment"
        for kind in kinds
    ]
    if not patterns:
        return None
    try:
        return Query(lang, "\n".join(patterns))
    except QueryError:  # some kinds (supertypes, aliases) cannot head a pattern: drop those
        valid = []
        for pattern in patterns:
            try:
                Query(lang, pattern)
            except QueryError:
                continue
            valid.append(pattern)
        return Query(lang, "\n".join(valid)) if valid else None
