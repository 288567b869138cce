"""Code structure: entities, the scope tree, imports, signatures and docstrings.

``extract_structure(parsed)`` runs the language's tree-sitter query once and
gives a :class:`FileStructure`: every entity sorted by start (with ``parent``,
``children``, ``signature``, ``docstring``, ranges), the imports (one entity per
imported name, with its ``source``), re-exports, the top-level ``roots``, and a
``scope`` index (:class:`ScopeIndex`: ``scope_at``, ``enclosing``,
``entities_in_range``, ``siblings``) whose look-ups are binary searches plus
a walk up parent pointers.

``structure_level(language)`` is ``"full"`` for the languages with hand-written
queries (:data:`FULL_LANGUAGES`) and ``"generic"`` for every other grammar.
"""

from .entities import ENTITY_TYPES, Entity, FileStructure
from .extract import extract_structure
from .scope import ScopeIndex, build_scope_tree
from .specs import FULL_LANGUAGES, structure_level

__all__ = [
    "ENTITY_TYPES",
    "Entity",
    "FileStructure",
    "FULL_LANGUAGES",
    "ScopeIndex",
    "build_scope_tree",
    "extract_structure",
    "structure_level",
]
