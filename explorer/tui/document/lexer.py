"""Which pygments lexer highlights a file: picked when the file is loaded (the first look-up
imports a lot, so it happens in the loading worker, not while drawing)."""

from __future__ import annotations

from pygments.lexer import Lexer
from pygments.lexers import get_lexer_by_name, get_lexer_for_filename
from pygments.lexers.special import TextLexer
from pygments.util import ClassNotFound

#: Our grammar names whose pygments lexer has another name.
PYGMENTS_NAMES = {
    "commonlisp": "common-lisp",
    "dockerfile": "docker",
    "objc": "objective-c",
    "embeddedtemplate": "erb",
    "ocaml_interface": "ocaml",
    "fsharp_signature": "fsharp",
    "qmljs": "qml",
    "make": "make",
    "gomod": "text",
    "gosum": "text",
    "requirements": "text",
    "csv": "text",
    "tsv": "text",
    "psv": "text",
}

_LEXER_OPTIONS = {"stripnl": False, "stripall": False, "ensurenl": True, "tabsize": 0}


def lexer_for(path: str | None, language: str | None) -> Lexer:
    """The pygments lexer for a language (our grammar name), else for the file name, else plain text."""
    if language:
        try:
            return get_lexer_by_name(PYGMENTS_NAMES.get(language, language), **_LEXER_OPTIONS)
        except ClassNotFound:
            pass
    if path:
        try:
            return get_lexer_for_filename(path, **_LEXER_OPTIONS)
        except ClassNotFound:
            pass
    return TextLexer(**_LEXER_OPTIONS)
