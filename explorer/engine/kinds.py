"""What a grammar's node kinds mean to the engine: one vocabulary, per language.

The chunker, the structure extraction and the quality measures each ask questions of a
node kind. They read every answer here, so two of them cannot give one kind two meanings:

* **comments** (:func:`is_comment`): kinds whose name holds ``comment``. The chunker keeps
  a comment with the node below it, the quality measures find doc comments with it, the
  generic structure never takes one for a definition.
* **attributes** (:data:`ATTACH_FORWARD`): decorators, attributes and annotations, which
  belong with the node after them. The chunker keeps them together; the measures count
  them in the definition they sit on.
* **bodies** (:func:`holds_body`): kinds that hold a body of statements or members, by
  the words in their names. The chunker opens one rather than keeping it whole when
  closing tokens (``}``, ``end``) follow it.
* **statement containers** (:func:`is_statement_container`): kinds whose named children
  are statements or declarations; a cut between two of them is a clean *stmt* cut.
* **definitions**: what the quality measures keep whole (:func:`definition_kinds`): a
  table for the languages known well (:data:`DEFINITION_KINDS`), else the generic rule
  (:func:`is_generic_definition`); their wrappers (:data:`WRAPPER_KINDS`) and the type
  specifiers that define only with a body (:data:`NEEDS_BODY`).
* **entities** of the generic structure (:func:`entity_type`, :func:`entity_kinds`): for a
  grammar without a hand-written query, which kinds stand for a function, a class, an
  import... Wider than the measured definitions: a constant or a field is an entity a
  chunk's context lists, not a definition whose cut a reader trips on.
"""

from __future__ import annotations

import re
from functools import cache

from .languages import get_language

# -- by name, in every grammar ---------------------------------------------------------------
#: Node kinds that belong with the node after them (when no blank line separates them).
ATTACH_FORWARD = frozenset(
    {"decorator", "attribute_item", "attribute_list", "annotation", "marker_annotation", "attribute"}
)

#: Words in the names of kinds that hold a body of statements or members.
BODY_WORDS = ("body", "block", "_list", "statements")


def is_comment(kind: str) -> bool:
    """Whether a named node kind is a comment (``comment``, ``line_comment``, ``doc_comment``...)."""
    return "comment" in kind


def holds_body(kind: str) -> bool:
    """Whether a node kind holds a body of statements or members (by :data:`BODY_WORDS`)."""
    return any(word in kind for word in BODY_WORDS)


#: Nodes whose named children are statements or declarations (the root of every tree is
#: one too, whatever its kind).
STATEMENT_CONTAINERS = frozenset(
    {
        # whole files
        "module", "program", "source_file", "translation_unit", "compilation_unit", "chunk",
        # blocks of statements
        "block", "statement_block", "compound_statement", "statement_list", "body_statement",
        "constructor_body", "match_block", "do_block",
        # bodies of declarations
        "class_body", "declaration_list", "field_declaration_list", "interface_body",
        "enum_body", "enum_variant_list", "object_type",
        # case arms hold statements directly
        "switch_body", "switch_block", "switch_block_statement_group", "switch_case",
        "switch_default", "case_statement", "expression_case", "default_case", "type_case",
        "communication_case", "select_statement",
        # preprocessor conditionals wrap top-level declarations in C headers
        "preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif", "preproc_elifdef",
    }
)
#: The rule for the kinds the table does not list.
_CONTAINER_WORDS = re.compile(
    r"(^|_)(block|body|program|module|suite|statements|declarations|declaration_list|"
    r"source_file|translation_unit|compilation_unit)$"
)


def is_statement_container(kind: str) -> bool:
    """Whether a node of this kind holds statements or declarations as its named children."""
    return kind in STATEMENT_CONTAINERS or bool(_CONTAINER_WORDS.search(kind))


# -- definitions: what the quality measures keep whole -----------------------------------------
_JS = ("function_declaration", "generator_function_declaration", "class_declaration", "method_definition")
_TS = _JS + ("abstract_class_declaration", "interface_declaration", "enum_declaration", "internal_module", "module")
_C = ("function_definition", "struct_specifier", "union_specifier", "enum_specifier")
#: Definition node kinds of the languages we know well.
DEFINITION_KINDS: dict[str, tuple[str, ...]] = {
    "python": ("function_definition", "class_definition"),
    "javascript": _JS,
    "typescript": _TS,
    "tsx": _TS,
    "go": ("function_declaration", "method_declaration", "type_declaration"),
    "rust": (
        "function_item", "impl_item", "trait_item", "struct_item", "enum_item", "union_item",
        "mod_item", "macro_definition",
    ),
    "java": (
        "class_declaration", "interface_declaration", "enum_declaration", "record_declaration",
        "annotation_type_declaration", "method_declaration", "constructor_declaration",
    ),
    "c": _C,
    "cpp": _C + ("class_specifier", "namespace_definition"),
}
#: Type specifiers are definitions only with a body (``struct s {...}``, not ``struct s *p``).
NEEDS_BODY = frozenset({"struct_specifier", "union_specifier", "enum_specifier", "class_specifier"})
#: Parents that wrap a definition and belong to it (``export``, decorators, templates).
WRAPPER_KINDS = frozenset(
    {"decorated_definition", "export_statement", "template_declaration", "ambient_declaration", "type_definition"}
)
#: The generic rule: a named kind that names a function/class-like thing. Words that
#: also name other things (a Haskell data ``constructor``, a ``record`` pattern)
#: need a definition suffix; prefixes that mean an expression (anonymous, arrow) are out.
_DEFINITION_WORDS = re.compile(
    r"^(abstract_|singleton_|protocol_|file_scoped_|package_|companion_|secondary_|generator_)?"
    r"(?:(function|method|class|struct|enum|interface|trait|impl|module|protocol|subroutine|procedure)"
    r"(_(definition|declaration|item|specifier|def|decl))?"
    r"|(constructor|record|union|object|namespace)_(definition|declaration|item|specifier|def|decl))$"
)


def is_generic_definition(kind: str) -> bool:
    """Whether a kind of a language outside :data:`DEFINITION_KINDS` is a definition."""
    return kind != "ERROR" and bool(_DEFINITION_WORDS.match(kind))


# -- entities of the generic structure --------------------------------------------------------
#: Definition words and the entity type they mean, in the order they are tried.
ENTITY_WORDS: tuple[tuple[str, str], ...] = (
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
_WORD_TYPES = dict(ENTITY_WORDS)
#: A kind named by one of these words alone is an entity of its type (``function``, ``class``).
_SINGLE_WORDS = frozenset({"function", "method", "class", "module", "struct", "enum", "trait", "interface"})

#: Last words that make a kind a definition (``..._definition``, ``..._item``).
ENTITY_SUFFIXES = frozenset(
    {"definition", "declaration", "decl", "def", "item", "statement", "spec", "specifier", "directive", "clause"}
)

#: Words that make a kind something else (a call, a parameter, a type reference...).
NOT_ENTITY_WORDS = frozenset(
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


def entity_type(kind: str) -> str | None:
    """The entity type a node kind stands for in the generic structure (``"import"`` too),
    ``"comment"`` for a comment, else ``None``."""
    if not _KIND.match(kind):
        return None
    if is_comment(kind):
        return "comment"
    words = kind.lower().split("_")
    if any(w in NOT_ENTITY_WORDS for w in words):
        return None
    if len(words) <= 3 and (words[-1] in IMPORT_WORDS or (words[0] in IMPORT_WORDS and words[-1] in ENTITY_SUFFIXES)):
        return "import"
    if len(words) == 1:
        return _WORD_TYPES.get(words[0]) if words[0] in _SINGLE_WORDS else None
    if words[-1] not in ENTITY_SUFFIXES:
        return None
    for word in words[:-1]:
        found = _WORD_TYPES.get(word)
        if found:
            return found
    return None


# -- per language ------------------------------------------------------------------------------
@cache
def named_kinds(language: str) -> tuple[str, ...]:
    """The named, visible node kinds of a grammar, each once, in id order."""
    lang = get_language(language)
    found: dict[str, None] = {}
    for kind_id in range(lang.node_kind_count):
        if lang.node_kind_is_named(kind_id) and lang.node_kind_is_visible(kind_id):
            kind = lang.node_kind_for_id(kind_id)
            if kind:
                found.setdefault(kind, None)
    return tuple(found)


@cache
def definition_kinds(language: str) -> frozenset[str]:
    """The node kinds counted as definitions for a language (its table, or the generic rule)."""
    if language in DEFINITION_KINDS:
        lang = get_language(language)
        return frozenset(k for k in DEFINITION_KINDS[language] if lang.id_for_node_kind(k, True) is not None)
    return frozenset(k for k in named_kinds(language) if is_generic_definition(k))


@cache
def comment_kinds(language: str) -> frozenset[str]:
    """The comment kinds of a grammar."""
    return frozenset(k for k in named_kinds(language) if is_comment(k))


@cache
def entity_kinds(language: str) -> dict[str, tuple[str, ...]]:
    """A grammar's node kinds grouped by their :func:`entity_type` (comments included)."""
    groups: dict[str, list[str]] = {}
    for kind in named_kinds(language):
        what = entity_type(kind)
        if what:
            groups.setdefault(what, []).append(kind)
    return {what: tuple(kinds) for what, kinds in groups.items()}
