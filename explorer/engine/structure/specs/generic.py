"""Best-effort structure for every grammar without a hand-written query.

A grammar's node kinds are read from the grammar itself; a kind whose words
(split at ``_``) end in a definition suffix and contain a definition word
becomes an entity pattern of that word's type (``function_definition``,
``class_declaration``, ``struct_item``, ``module_definition``...). Names come
from the ``name`` field or the first identifier-like child, signatures stop at
the ``body`` field or the end of the first line, and docs are adjacent comments.
"""

from __future__ import annotations

import re

from tree_sitter import Query, QueryError

from ...languages import get_language

#: Definition words and the entity type they mean, in the order they are tried.
WORDS: tuple[tuple[str, str], ...] = (
    ("method", "method"),
    ("constructor", "method"),
    ("function", "function"),
    ("func", "function"),
    ("fn", "function"),
    ("fun", "function"),
    ("procedure", "function"),
    ("subroutine", "function"),
    ("macro", "function"),
    ("rule", "function"),
    ("class", "class"),
    ("interface", "interface"),
    ("trait", "interface"),
    ("protocol", "interface"),
    ("struct", "type"),
    ("record", "type"),
    ("union", "type"),
    ("enum", "enum"),
    ("typedef", "type"),
    ("type", "type"),
    ("module", "module"),
    ("namespace", "module"),
    ("package", "module"),
    ("const", "constant"),
    ("constant", "constant"),
    ("field", "field"),
    ("property", "field"),
)
WORD_TYPES = dict(WORDS)

#: Last words that make a kind a definition (``..._definition``, ``..._item``).
SUFFIXES = frozenset(
    {"definition", "declaration", "decl", "def", "item", "statement", "spec", "specifier", "directive", "clause"}
)

#: Words that make a kind something else (a call, a parameter, a type reference...).
EXCLUDED = frozenset(
    {
        "call", "expression", "parameter", "parameters", "argument", "arguments", "reference",
        "identifier", "literal", "list", "body", "name", "modifier", "modifiers", "pattern",
        "anonymous", "lambda", "arrow", "local", "forward", "instantiation", "invocation",
        "access", "qualifier", "annotation", "attribute", "keyword", "specialization", "bound",
        "constraint", "variant", "case", "entry", "member", "selector", "label", "alias",
        "storage", "sized", "placeholder", "explicit", "base", "default", "delete", "array",
        "content", "clause_body",
    }
)

#: Words that make a kind an import when they lead it (``import_statement``, ``preproc_include``).
IMPORT_WORDS = frozenset({"import", "include", "require", "use", "using", "open"})

_KIND = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def classify(kind: str) -> str | None:
    """The entity type a node kind stands for (``"import"`` or ``"comment"`` too), or ``None``."""
    if not _KIND.match(kind):
        return None
    words = kind.lower().split("_")
    if "comment" in words:
        return "comment"
    if any(w in EXCLUDED for w in words):
        return None
    if len(words) <= 3 and (words[-1] in IMPORT_WORDS or (words[0] in IMPORT_WORDS and words[-1] in SUFFIXES)):
        return "import"
    if len(words) == 1:
        return WORD_TYPES.get(words[0]) if words[0] in ("function", "method", "class", "module", "struct", "enum", "trait", "interface") else None
    if words[-1] not in SUFFIXES:
        return None
    for word in words[:-1]:
        found = WORD_TYPES.get(word)
        if found:
            return found
    return None


def classified_kinds(language: str) -> dict[str, list[str]]:
    """Named, visible node kinds of a grammar grouped by what :func:`classify` says."""
    lang = get_language(language)
    groups: dict[str, list[str]] = {}
    seen: set[str] = set()
    for kind_id in range(lang.node_kind_count):
        if not (lang.node_kind_is_named(kind_id) and lang.node_kind_is_visible(kind_id)):
            continue
        kind = lang.node_kind_for_id(kind_id)
        if not kind or kind in seen:
            continue
        seen.add(kind)
        what = classify(kind)
        if what:
            groups.setdefault(what, []).append(kind)
    return groups


def generic_query(language: str) -> Query | None:
    """A query capturing the grammar's definition-like nodes, or ``None`` if it has none."""
    lang = get_language(language)
    patterns = [
        f"({kind}) " + ("@import" if what == "import" else f"@item.{what}")
        for what, kinds in sorted(classified_kinds(language).items())
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
