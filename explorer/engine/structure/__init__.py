"""Code structure: entities, the scope tree, imports, signatures and docstrings.

``extract_structure(parsed)`` gives a :class:`FileStructure`; ``structure_level(language)``
says whether a language has full (hand-written) or generic support.
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
