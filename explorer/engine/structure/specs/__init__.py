"""Per-language structure knowledge, as data.

Each fully supported language has a query (one or more ``.scm`` files in this
directory, concatenated) and a :class:`LanguageSpec` row in :data:`SPECS`. Every
other grammar gets a generic query built from its node kinds (see
:mod:`.generic`).

Capture names used by the queries (the extractor knows nothing else):

``@item.<type>``
    an entity node; ``<type>`` is one of :data:`~..entities.ENTITY_TYPES`.
``@name``
    its name (else the node's ``name`` field).
``@body``
    where its signature ends (a body, or the value of a constant or type alias).
``@sig.end``
    overrides ``@body`` as the signature's end (Python's ``:``, so a comment
    between the colon and the block stays out).
``@outer.export`` / ``@outer.decorated`` / ``@outer.decl`` + ``@wrapped``
    a wrapper node around ``@wrapped`` whose range the entity takes: ``export``
    marks it exported, ``decorated`` (decorators, templates) keeps the signature
    at the inner node, ``decl`` starts the signature at the wrapper (Go's
    ``type``/``const`` keyword).
``@import`` with ``@import.name``, ``@import.alias``, ``@import.source``,
``@import.wildcard``, ``@import.default``, ``@import.namespace``
    one match per imported name (see :mod:`..imports`); or ``@import.tree``, a
    node the spec's ``import_tree`` expander turns into names (Rust use trees,
    Scala selectors).
``@export`` with ``@export.name``, ``@export.alias``, ``@export.source``, ``@export.all``
    re-exports and ``export default <expression>``.
``@call``
    a called function's name that must be one of the spec's ``calls``
    (``require``, ``attr_reader``), else the match is ignored.

Queries use no text predicates (``#eq?``, ``#match?``): the binding evaluates
them slowly; anonymous tokens (``(modifiers "static" "final")``), ``@call`` and
the spec's ``constant_names`` do that work. When several patterns capture the
same node with the same name, the earliest pattern wins, so files list specific
patterns (a ``static final`` field) before general ones (any field).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from functools import cache
from importlib import resources

from tree_sitter import Query

from ...languages import get_language
from ..walk import WalkPlan, make_plan, pattern_root_kinds
from .generic import generic_query

#: Comment prefixes shared by the C family's doc conventions.
_JSDOC = ("/**",)
_REQUIRE = frozenset({"require"})

# Statement lists: node kinds whose named children can be statements the query
# matches without a "{" of their own (see ..walk): blocks and bodies, Python's
# compound statements and clauses, wrappers, case clauses, #if groups.
_PYTHON_LISTS = (
    "block", "if_statement", "elif_clause", "else_clause", "for_statement", "while_statement",
    "try_statement", "except_clause", "except_group_clause", "finally_clause", "with_statement",
    "match_statement", "case_clause", "function_definition", "class_definition", "decorated_definition",
)
_ECMASCRIPT_LISTS = (
    "statement_block", "class_body", "export_statement", "switch_body", "switch_case", "switch_default",
    # bodies without braces: `if (a) var f = function () {...}`
    "if_statement", "else_clause", "for_statement", "for_in_statement", "while_statement", "do_statement",
    "labeled_statement", "with_statement",
)
_TYPESCRIPT_LISTS = _ECMASCRIPT_LISTS + ("ambient_declaration", "interface_body")
_GO_LISTS = (
    "block", "statement_list", "interface_type", "type_declaration", "const_declaration",
    "var_declaration", "var_spec_list", "import_declaration", "import_spec_list",
    "expression_switch_statement", "type_switch_statement", "select_statement",
    "expression_case", "type_case", "communication_case", "default_case",
)
_RUST_LISTS = ("declaration_list", "block")
_JAVA_LISTS = ("class_body", "interface_body", "enum_body", "enum_body_declarations", "annotation_type_body")
_C_LISTS = (
    "compound_statement", "declaration_list", "field_declaration_list", "preproc_if", "preproc_ifdef",
    "preproc_else", "preproc_elif", "preproc_elifdef", "case_statement",
)


@dataclass(frozen=True, slots=True)
class LanguageSpec:
    """What the extractor needs to know about a language besides its query.

    ``doc``: ``"python"`` (first string of the body) or ``"comments"`` (comments
    directly above). ``doc_prefixes``: comments starting with one of these are
    doc comments (empty: any comment). ``doc_skip``: lines starting with these may
    sit between a doc comment and its item. ``import_bare``: what an import that
    names no symbol means: ``"binds"`` (it binds its last path segment: Go, Java),
    ``"side_effect"`` (``import './x'``) or ``"wildcard"`` (``#include``,
    ``require``). ``path_separators``: how import paths split into segments.
    """

    name: str
    files: tuple[str, ...]
    doc: str = "comments"
    doc_prefixes: tuple[str, ...] = ()
    import_bare: str = "wildcard"
    path_separators: tuple[str, ...] = (".",)
    #: Names are the last path segment of ``@import.name`` (Java, Kotlin) rather than all of it (Python).
    import_last_segment: bool = True
    #: How an ``@import.tree`` capture is expanded (a function in ``imports.TREE_EXPANDERS``).
    import_tree: str = ""
    doc_skip: tuple[str, ...] = ()
    #: Accepted ``@call`` names.
    calls: frozenset[str] = frozenset()
    #: Constants whose names do not match this regular expression are dropped.
    constant_names: str | None = None
    level: str = "full"
    #: Where the query's matches can start, besides the tree's root (see :mod:`..walk`):
    #: node kinds whose named children are statements, and the token opening a
    #: nested block (``{``), searched for in the text. Neither: the query runs over
    #: the whole tree.
    statement_lists: tuple[str, ...] = ()
    block_opener: str = ""


SPECS: dict[str, LanguageSpec] = {
    spec.name: spec
    for spec in (
        LanguageSpec(
            "python", ("python.scm",), doc="python", import_last_segment=False,
            constant_names=r"_*[A-Z][A-Z0-9_]*", statement_lists=_PYTHON_LISTS,
        ),
        LanguageSpec(
            "typescript", ("ecmascript.scm", "typescript.scm"), doc_prefixes=_JSDOC,
            import_bare="side_effect", path_separators=("/",), calls=_REQUIRE,
            statement_lists=_TYPESCRIPT_LISTS, block_opener="{",
        ),
        LanguageSpec(
            "tsx", ("ecmascript.scm", "typescript.scm"), doc_prefixes=_JSDOC,
            import_bare="side_effect", path_separators=("/",), calls=_REQUIRE,
            statement_lists=_TYPESCRIPT_LISTS, block_opener="{",
        ),
        LanguageSpec(
            "javascript", ("ecmascript.scm", "javascript.scm"), doc_prefixes=_JSDOC,
            import_bare="side_effect", path_separators=("/",), calls=_REQUIRE,
            statement_lists=_ECMASCRIPT_LISTS, block_opener="{",
        ),
        LanguageSpec(
            "rust", ("rust.scm",), doc_prefixes=("///", "/**"), path_separators=("::",),
            import_tree="rust", doc_skip=("#[",), statement_lists=_RUST_LISTS, block_opener="{",
        ),
        LanguageSpec(
            "go", ("go.scm",), import_bare="binds", path_separators=("/",),
            statement_lists=_GO_LISTS, block_opener="{",
        ),
        LanguageSpec("java", ("java.scm",), doc_prefixes=_JSDOC, statement_lists=_JAVA_LISTS, block_opener="{"),
        LanguageSpec("c", ("c.scm",), path_separators=("/",), statement_lists=_C_LISTS, block_opener="{"),
        LanguageSpec(
            "cpp", ("c.scm", "cpp.scm"), path_separators=("/", "::"),
            statement_lists=_C_LISTS + ("template_declaration",), block_opener="{",
        ),
        LanguageSpec("csharp", ("csharp.scm",), doc_prefixes=("///", "/**")),
        LanguageSpec("kotlin", ("kotlin.scm",), doc_prefixes=_JSDOC),
        LanguageSpec("swift", ("swift.scm",), doc_prefixes=("///", "/**"), import_bare="binds"),
        LanguageSpec(
            "ruby", ("ruby.scm",), path_separators=("/",),
            calls=frozenset({"require", "require_relative", "load", "autoload",
                             "attr_reader", "attr_writer", "attr_accessor"}),
        ),
        LanguageSpec("php", ("php.scm",), doc_prefixes=_JSDOC, path_separators=("\\",)),
        LanguageSpec("scala", ("scala.scm",), doc_prefixes=_JSDOC, import_tree="scala"),
    )
}

FULL_LANGUAGES: frozenset[str] = frozenset(SPECS)

_GENERIC = LanguageSpec("generic", (), level="generic")


def structure_level(language: str | None) -> str:
    """``"full"`` for the languages with hand-written queries, ``"generic"`` otherwise."""
    return "full" if language in SPECS else "generic"


def spec_for(language: str) -> LanguageSpec:
    return SPECS.get(language, _GENERIC)


_lock = threading.Lock()


@cache
def query_source(language: str) -> str:
    spec = SPECS[language]
    folder = resources.files(__package__)
    return "\n".join(folder.joinpath(name).read_text(encoding="utf-8") for name in spec.files)


@cache
def compiled_query(language: str) -> Query | None:
    """The language's compiled query (hand-written or generic), cached; ``None`` if
    the grammar offers nothing to query. Compiling is not thread-safe in every
    binding version, so it is serialised."""
    with _lock:
        if language in SPECS:
            return Query(get_language(language), query_source(language))
        return generic_query(language)


@cache
def walk_plan(language: str) -> WalkPlan | None:
    """Where the language's query can match (see :mod:`..walk`), or ``None``: run it
    over the whole tree (no walk data, or a pattern that can start anywhere)."""
    spec = SPECS.get(language)
    query = compiled_query(language)
    if spec is None or query is None or not (spec.statement_lists or spec.block_opener):
        return None
    roots = pattern_root_kinds(query, query_source(language).encode())
    if roots is None:
        return None
    return make_plan(get_language(language), roots, spec.statement_lists, spec.block_opener)
