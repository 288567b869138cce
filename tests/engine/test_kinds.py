"""One vocabulary of node kinds: the chunker, the quality measures and the generic structure
read the same answers, in every grammar."""

from __future__ import annotations

import pytest

from explorer.engine.chunker import _ATTACHED, _COMMENT, kind_flags
from explorer.engine.kinds import (
    ATTACH_FORWARD,
    comment_kinds,
    definition_kinds,
    entity_kinds,
    entity_type,
    holds_body,
    is_statement_container,
    named_kinds,
)
from explorer.engine.languages import GRAMMARS, UNSAFE_GRAMMARS, get_language

GRAMMARS_CHECKED = [name for name in GRAMMARS if name not in UNSAFE_GRAMMARS]


@pytest.mark.parametrize("language", GRAMMARS_CHECKED)
def test_a_comment_is_one_to_the_chunker_the_measures_and_the_structure(language: str) -> None:
    lang = get_language(language)
    flags = kind_flags(lang)
    comments = comment_kinds(language)
    entities = entity_kinds(language)
    for kind in named_kinds(language):
        kind_id = lang.id_for_node_kind(kind, True)
        assert kind_id is not None
        chunker_comment = flags[kind_id] == _COMMENT
        assert chunker_comment == (kind in comments), kind
        # a comment is never taken for a definition, by the measures or the structure
        if chunker_comment:
            assert kind not in definition_kinds(language), kind
            assert all(kind not in found for what, found in entities.items() if what != "comment"), kind
        if kind in ATTACH_FORWARD:
            assert flags[kind_id] == _ATTACHED


def test_entity_types_of_the_generic_structure() -> None:
    assert entity_type("function_definition") == "function"
    assert entity_type("line_comment") == "comment"
    assert entity_type("decorator") is None
    assert "function_definition" in entity_kinds("python")["function"]


def test_bodies_and_statement_containers() -> None:
    assert holds_body("class_body") and holds_body("statement_block") and holds_body("argument_list")
    assert not holds_body("identifier")
    assert is_statement_container("class_body") and is_statement_container("switch_case")
    assert is_statement_container("lua_chunk_body")  # by the words of its name
    assert not is_statement_container("argument_list")
