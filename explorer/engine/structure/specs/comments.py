"""Comment syntax per language: for context headers and for finding doc comments.

Each language has a line comment (``#``, ``//``, ``--``...) and/or a block comment
(``/* */``, ``<!-- -->``...). Languages not listed use ``#``.
"""

from __future__ import annotations

from typing import NamedTuple


class CommentSyntax(NamedTuple):
    line: str | None
    block: tuple[str, str] | None


_C_LIKE = CommentSyntax("//", ("/*", "*/"))
_HASH = CommentSyntax("#", None)

_GROUPS: dict[CommentSyntax, tuple[str, ...]] = {
    _HASH: (
        "python", "bash", "fish", "perl", "r", "yaml", "toml", "make", "cmake", "dockerfile",
        "elixir", "nim", "powershell", "tcl", "starlark", "gdscript", "nix", "hcl", "terraform",
        "gitignore", "gitattributes", "requirements", "properties", "gn", "meson", "ninja", "puppet",
        "graphql", "bitbake", "kconfig", "udev", "pymanifest", "readline", "hyprlang", "sparql", "po",
        "janet", "magik", "smali", "capnp", "gitcommit", "qmldir", "mojo", "crystal", "awk",
        "heex", "psv", "tsv", "csv", "pem", "pgn", "chatito", "rego",
    ),
    CommentSyntax("#", ("=begin", "=end")): ("ruby",),
    CommentSyntax("#", ("#=", "=#")): ("julia",),
    _C_LIKE: (
        "c", "cpp", "java", "javascript", "typescript", "tsx", "go", "rust", "csharp", "kotlin", "swift",
        "scala", "php", "dart", "zig", "groovy", "objc", "cuda", "glsl", "hlsl", "wgsl", "solidity", "proto",
        "d", "v", "odin", "hare", "gleam", "json", "jsonnet", "kdl", "qmljs", "thrift", "prisma", "bicep",
        "ispc", "arduino", "apex", "actionscript", "haxe", "fsharp", "fsharp_signature", "pascal",
        "squirrel", "nqc", "verilog", "netlinx", "typst", "ron", "smithy", "tablegen", "gomod", "hack",
        "firrtl", "pony", "re2c", "slang", "ungrammar", "mermaid", "bsl", "func", "move", "cairo", "vhdl",
    ),
    CommentSyntax("--", ("--[[", "]]")): ("lua", "luau"),
    CommentSyntax("--", ("{-", "-}")): ("haskell", "elm", "purescript", "agda", "idris"),
    CommentSyntax("--", ("/*", "*/")): ("sql", "plsql"),
    CommentSyntax("--", None): ("ada",),
    CommentSyntax(";", None): (
        "commonlisp", "elisp", "scheme", "racket", "clojure", "fennel", "asm", "llvm", "ini", "wast",
        "wat", "beancount", "yuck", "smt2",
    ),
    CommentSyntax("%", None): ("latex", "erlang", "matlab", "bibtex", "prolog", "tex"),
    CommentSyntax(None, ("<!--", "-->")): (
        "html", "xml", "markdown", "markdown_inline", "vue", "svelte", "astro", "dtd", "svg",
    ),
    CommentSyntax(None, ("/*", "*/")): ("css", "scss", "less", "linkerscript"),
    CommentSyntax(None, ("(*", "*)")): ("ocaml", "ocaml_interface", "sml"),
    CommentSyntax('"', None): ("vim",),
    CommentSyntax(None, ("{#", "#}")): ("twig", "jinja"),
    CommentSyntax(None, ("<%#", "%>")): ("embeddedtemplate",),
    CommentSyntax("//", None): ("uxntal",),
}

COMMENT_SYNTAX: dict[str, CommentSyntax] = {
    language: syntax for syntax, languages in _GROUPS.items() for language in languages
}


def comment_syntax(language: str | None) -> CommentSyntax:
    return COMMENT_SYNTAX.get(language or "", _HASH)


def header_comment(language: str | None) -> tuple[str, str]:
    """``(open, close)`` for one comment line of a header (``close`` may be empty)."""
    syntax = comment_syntax(language)
    if syntax.line:
        return syntax.line, ""
    assert syntax.block is not None
    return syntax.block
