"""Language detection and grammar loading (tree-sitter-language-pack 0.13.0, bundled grammars)."""

from __future__ import annotations

import os
import re
import threading
import typing
from functools import cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tree_sitter import Language, Parser

    #: Every grammar the pack ships (173 in 0.13.0).
    GRAMMARS: tuple[str, ...]


# The pack (and tree-sitter) load when a grammar is first asked for, not with this module:
# the directory walk detects languages by name in runs that parse nothing.
@cache
def _grammars() -> tuple[str, ...]:
    import tree_sitter_language_pack as pack

    return tuple(sorted(typing.get_args(pack.SupportedLanguage)))


def __getattr__(name: str) -> Any:
    if name == "GRAMMARS":
        return _grammars()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

#: Grammars that hang inside the C parser on some input (found by probing every
#: grammar with small inputs); chunked line-based so a file can never freeze us.
UNSAFE_GRAMMARS = {"cobol": "the COBOL grammar can hang on ordinary input"}

#: Jupyter notebooks: not a grammar but a container of cells (see ``engine/containers``).
NOTEBOOK = "notebook"

#: Files that hold regions of other languages, and what is understood inside each
#: (chunked by the region's own grammar, see ``engine/containers``).
CONTAINERS: dict[str, str] = {
    "markdown": "fenced code blocks with a language tag (```python, ~~~ts)",
    "vue": "<script> (lang: js, ts, tsx, jsx), <style> (lang: css, scss)",
    "svelte": "<script> (lang: js, ts), <style> (lang: css, scss)",
    "astro": "the --- frontmatter (TypeScript), <script>, <style>",
    "html": "inline <script> (by type: JavaScript, module, JSON), <style>",
    NOTEBOOK: "code cells (the kernel's language), Markdown cells (with their fenced code blocks)",
}

#: Languages of prose: a sentence's `.` or a list's `,` is no opener there, so chunk edges
#: in them are not judged token by token (``dangling``, ``closer``).
PROSE_LANGUAGES = frozenset({"markdown", "rst", "org"})

#: Grammars that describe data or prose rather than code, still AST-chunked.
_EXTENSIONS: dict[str, str] = {
    # the languages with full structure support
    "py": "python", "pyi": "python", "pyw": "python",
    "ts": "typescript", "mts": "typescript", "cts": "typescript",
    "tsx": "tsx",
    "js": "javascript", "jsx": "javascript", "mjs": "javascript", "cjs": "javascript",
    "rs": "rust", "go": "go", "java": "java",
    "c": "c", "h": "c",
    "cc": "cpp", "cpp": "cpp", "cxx": "cpp", "c++": "cpp", "hpp": "cpp", "hh": "cpp", "hxx": "cpp",
    "h++": "cpp", "ipp": "cpp", "tpp": "cpp", "inl": "cpp",
    "cs": "csharp", "kt": "kotlin", "kts": "kotlin", "swift": "swift",
    "rb": "ruby", "rake": "ruby", "gemspec": "ruby", "ru": "ruby",
    "php": "php", "phtml": "php", "scala": "scala", "sc": "scala",
    # everything else in the pack
    "as": "actionscript", "adb": "ada", "ads": "ada", "agda": "agda", "cls": "apex",
    "ino": "arduino", "asm": "asm", "s": "asm", "astro": "astro",
    "sh": "bash", "bash": "bash", "zsh": "bash", "ksh": "bash",
    "beancount": "beancount", "bib": "bibtex", "bicep": "bicep", "bb": "bitbake", "bbappend": "bitbake",
    "bbclass": "bitbake", "bsl": "bsl", "cairo": "cairo", "capnp": "capnp",
    "clj": "clojure", "cljs": "clojure", "cljc": "clojure", "edn": "clojure", "cmake": "cmake",
    "cbl": "cobol", "cob": "cobol", "lisp": "commonlisp", "lsp": "commonlisp", "cl": "commonlisp",
    "css": "css", "csv": "csv", "cu": "cuda", "cuh": "cuda", "d": "d", "dart": "dart",
    "dockerfile": "dockerfile", "dtd": "dtd", "el": "elisp", "ex": "elixir", "exs": "elixir",
    "elm": "elm", "erb": "embeddedtemplate", "ejs": "embeddedtemplate",
    "erl": "erlang", "hrl": "erlang", "fnl": "fennel", "fir": "firrtl", "fish": "fish",
    "f": "fortran", "f90": "fortran", "f95": "fortran", "f03": "fortran", "for": "fortran",
    "fs": "fsharp", "fsx": "fsharp", "fsi": "fsharp_signature", "fc": "func", "gd": "gdscript",
    "gleam": "gleam", "glsl": "glsl", "vert": "glsl", "frag": "glsl", "gn": "gn", "gni": "gn",
    "graphql": "graphql", "gql": "graphql", "groovy": "groovy", "gradle": "groovy",
    "hack": "hack", "ha": "hare", "hs": "haskell", "lhs": "haskell", "hx": "haxe",
    "hcl": "hcl", "tf": "terraform", "tfvars": "terraform", "heex": "heex", "hlsl": "hlsl",
    "html": "html", "htm": "html", "xhtml": "html", "ini": "ini", "cfg": "ini", "ispc": "ispc",
    "janet": "janet", "json": "json", "jsonc": "json", "json5": "json", "jsonnet": "jsonnet",
    "libsonnet": "jsonnet", "jl": "julia", "kdl": "kdl", "tex": "latex", "sty": "latex",
    "ld": "linkerscript", "ll": "llvm", "lua": "lua", "luau": "luau", "mk": "make", "mak": "make",
    "md": "markdown", "markdown": "markdown", "m": "objc", "mm": "objc", "mermaid": "mermaid",
    "mmd": "mermaid", "axs": "netlinx", "nim": "nim", "nims": "nim", "ninja": "ninja",
    "nix": "nix", "nqc": "nqc", "ml": "ocaml", "mli": "ocaml_interface", "odin": "odin",
    "org": "org", "pas": "pascal", "pp": "puppet", "dpr": "pascal", "pem": "pem",
    "pl": "perl", "pm": "perl", "t": "perl", "pgn": "pgn", "po": "po", "pot": "po",
    "pony": "pony", "ps1": "powershell", "psm1": "powershell", "psd1": "powershell",
    "prisma": "prisma", "properties": "properties", "proto": "proto", "psv": "psv",
    "purs": "purescript", "qml": "qmljs", "r": "r", "rkt": "racket", "re": "re2c",
    "rego": "rego", "ron": "ron", "rst": "rst", "scm": "scheme", "ss": "scheme",
    "scss": "scss", "smali": "smali", "smithy": "smithy", "sol": "solidity", "rq": "sparql",
    "sparql": "sparql", "sql": "sql", "nut": "squirrel", "star": "starlark", "bzl": "starlark",
    "svelte": "svelte", "td": "tablegen", "tcl": "tcl", "thrift": "thrift", "toml": "toml",
    "tsv": "tsv", "twig": "twig", "typ": "typst", "ungram": "ungrammar", "tal": "uxntal",
    "v": "v", "vsh": "v", "sv": "verilog", "svh": "verilog", "vh": "verilog",
    "vhd": "vhdl", "vhdl": "vhdl", "vim": "vim", "vue": "vue", "wast": "wast", "wat": "wat",
    "wgsl": "wgsl", "xml": "xml", "xsd": "xml", "xsl": "xml", "svg": "xml", "plist": "xml",
    "yaml": "yaml", "yml": "yaml", "yuck": "yuck", "zig": "zig", "magik": "magik",
    "gitattributes": "gitattributes", "gitignore": "gitignore", "mod": "gomod", "sum": "gosum",
    "rules": "udev", "kconfig": "kconfig", "meson": "meson", "hypr": "hyprlang",
    "hyprlang": "hyprlang", "dockerignore": "gitignore", "chatito": "chatito",
    "ipynb": NOTEBOOK,
}

_FILE_NAMES: dict[str, str] = {
    "makefile": "make", "gnumakefile": "make", "dockerfile": "dockerfile",
    "containerfile": "dockerfile", "cmakelists.txt": "cmake", "rakefile": "ruby",
    "gemfile": "ruby", "podfile": "ruby", "vagrantfile": "ruby", "guardfile": "ruby",
    "build": "starlark", "build.bazel": "starlark", "workspace": "starlark",
    "tiltfile": "starlark", "justfile": "make", ".bashrc": "bash", ".bash_profile": "bash",
    ".profile": "bash", ".zshrc": "bash", ".gitignore": "gitignore", ".dockerignore": "gitignore",
    ".gitattributes": "gitattributes", "go.mod": "gomod", "go.sum": "gosum",
    "requirements.txt": "requirements", "kconfig": "kconfig", "meson.build": "meson",
    "build.ninja": "ninja", "commit_editmsg": "gitcommit", ".inputrc": "readline",
    "manifest.in": "pymanifest", "qmldir": "qmldir", ".vimrc": "vim", "_vimrc": "vim",
    "pipfile": "toml", "cargo.lock": "toml", "poetry.lock": "toml",
}

_INTERPRETERS: dict[str, str] = {
    "python": "python", "python2": "python", "python3": "python", "pypy": "python",
    "pypy3": "python", "node": "javascript", "nodejs": "javascript", "deno": "typescript",
    "bun": "javascript", "ts-node": "typescript", "tsx": "typescript", "sh": "bash",
    "bash": "bash", "zsh": "bash", "ksh": "bash", "dash": "bash", "ruby": "ruby",
    "perl": "perl", "php": "php", "lua": "lua", "luajit": "lua", "fish": "fish",
    "Rscript": "r", "julia": "julia", "elixir": "elixir", "escript": "erlang",
    "tclsh": "tcl", "wish": "tcl", "make": "make", "scala": "scala", "groovy": "groovy",
    "swift": "swift", "kotlin": "kotlin", "racket": "racket", "guile": "scheme",
    "janet": "janet", "pwsh": "powershell", "nim": "nim", "runghc": "haskell",
}

_ALIASES: dict[str, str] = {
    "ts": "typescript", "js": "javascript", "jsx": "javascript", "py": "python",
    "rs": "rust", "golang": "go", "c++": "cpp", "cxx": "cpp", "c#": "csharp", "cs": "csharp",
    "c_sharp": "csharp", "kt": "kotlin", "rb": "ruby", "sh": "bash", "shell": "bash",
    "yml": "yaml", "md": "markdown", "objective-c": "objc", "objectivec": "objc",
    "hs": "haskell", "ex": "elixir", "tf": "terraform", "text": "text", "plain": "text",
    "ipynb": NOTEBOOK, "jupyter": NOTEBOOK,
}

#: Names a code block's tag or a ``lang``/``type`` attribute gives a language by, beyond the
#: aliases and extensions above (``None``: not code we can parse, such as a shell session).
_TAGS: dict[str, str | None] = {
    "python3": "python", "py3": "python", "ipython": "python", "ipython3": "python", "sage": "python",
    "node": "javascript", "javascript": "javascript", "ecmascript": "javascript", "es6": "javascript",
    "mjs": "javascript", "cjs": "javascript", "module": "javascript", "typescript": "typescript",
    "zsh": "bash", "shellscript": "bash", "console": None, "shell-session": None, "sh-session": None,
    "pycon": None, "python-repl": None, "pytb": None, "output": None, "text": None, "txt": None,
    "plain": None, "plaintext": None, "none": None, "diff": None, "patch": None,
    "text/javascript": "javascript", "application/javascript": "javascript",
    "application/ecmascript": "javascript", "text/ecmascript": "javascript",
    "text/typescript": "typescript", "application/typescript": "typescript",
    "application/json": "json", "application/ld+json": "json", "importmap": "json",
    "speculationrules": "json", "text/css": "css", "postcss": "css", "c++": "cpp", "golang": "go",
    "jsonc": "json", "json5": "json", "yml": "yaml", "dockerfile": "dockerfile", "docker": "dockerfile",
    "make": "make", "makefile": "make", "objc": "objc", "rs": "rust", "kt": "kotlin",
}

#: MyST and Sphinx directives whose argument names the language.
_DIRECTIVES = frozenset({"{code-cell}", "{code-block}", "{code}", "{sourcecode}", "{literalinclude}"})

#: The longest tag looked at (an info string is a line of free text).
_MAX_TAG = 40

def resolve_language(name: str) -> str:
    """Canonical grammar name for a user-given language name; ValueError if unknown."""
    key = str(name).strip().lower()
    key = _ALIASES.get(key, key)
    grammars = _grammars()
    if key in grammars or key in ("text", NOTEBOOK):
        return key
    close = [g for g in grammars if g.startswith(key[:2])][:6]
    hint = f" (did you mean {', '.join(close)}?)" if close else ""
    raise ValueError(f"unknown language {name!r}{hint}; `chunk-explorer languages` lists them all")


def tag_language(tag: str) -> str | None:
    """The grammar for a code block's tag (```` ```python ````, ```` ```{.rust} ````, ``ts title="x"``)
    or a ``<script lang>``/``type`` value; ``None`` when it names no grammar (or no code)."""
    words = tag.strip().split(maxsplit=2)
    if words and words[0].lower() in _DIRECTIVES:  # MyST: ```{code-cell} ipython3
        words = words[1:]
    words = " ".join(words).lstrip("{").lstrip(".").split(maxsplit=1)
    if not words:
        return None
    key = words[0].rstrip("}").split(",", 1)[0].lower()[:_MAX_TAG]
    if key in _TAGS:
        return _TAGS[key]
    key = _ALIASES.get(key, key)
    if key in _grammars() and key not in UNSAFE_GRAMMARS:
        return key
    by_extension = _EXTENSIONS.get(key)
    return by_extension if by_extension != NOTEBOOK else None


def detect_language(path: str | os.PathLike[str] | None, head: bytes | None = None) -> str | None:
    """Language of a file from its name (extension, case-insensitive, or well-known
    file name), else from a shebang in ``head``. ``None`` when unknown."""
    if path:
        language = language_from_name(os.path.basename(os.fspath(path)))
        if language is not None:
            return language
    if head and head.startswith(b"#!"):
        return _from_shebang(head.split(b"\n", 1)[0])
    return None


def language_from_name(name: str) -> str | None:
    """The name-based part of :func:`detect_language`, for a bare file name (the
    directory walk asks this for every file it takes)."""
    base = name.lower()
    language = _FILE_NAMES.get(base)
    if language is not None:
        return language
    stem, dot, ext = base.rpartition(".")
    if dot and stem:
        language = _EXTENSIONS.get(ext)
        if language is not None:
            return language
    if base.startswith("dockerfile.") or base.endswith(".dockerfile"):
        return "dockerfile"
    if base.startswith("makefile."):
        return "make"
    return None


def _from_shebang(line: bytes) -> str | None:
    words = line[2:].decode("utf-8", "replace").split()
    if not words:
        return None
    prog = os.path.basename(words[0])
    if prog == "env":  # env [-S] [NAME=value ...] program args: the first plain word
        prog = next((os.path.basename(w) for w in words[1:] if not w.startswith("-") and "=" not in w), "")
    prog = re.sub(r"[\d.]+$", "", prog) or prog
    return _INTERPRETERS.get(prog)


def extensions_for(language: str) -> list[str]:
    exts = sorted(f".{e}" for e, lang in _EXTENSIONS.items() if lang == language)
    names = sorted(n for n, lang in _FILE_NAMES.items() if lang == language)
    return exts + names


@cache
def get_language(language: str) -> Language:
    import tree_sitter_language_pack as pack

    return pack.get_language(language)  # type: ignore[arg-type]


_local = threading.local()


def get_parser(language: str) -> Parser:
    """A parser for this thread (tree-sitter parsers must not be shared across threads)."""
    parsers = getattr(_local, "parsers", None)
    if parsers is None:
        parsers = _local.parsers = {}
    parser = parsers.get(language)
    if parser is None:
        from tree_sitter import Parser

        parser = parsers[language] = Parser(get_language(language))
    return parser
