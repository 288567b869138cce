"""Per-chunk context and contextualized text, at the builder level (exact ranges)."""

from __future__ import annotations

import json

import pytest
from structure_helpers import parse, span_of

from explorer.engine import context as context_module
from explorer.engine.context import MAX_DEFINES, make_context_builder, short_path
from explorer.engine.options import ChunkOptions
from explorer.engine.structure import extract_structure

SERVICE = """import { Database } from './db'
import { Logger } from './log'
import { unused } from './unused'
import * as helpers from './helpers'
import './polyfill'

export class UserService {
  constructor(private db: Database) {}

  /** Fetch a user. */
  async getUser(id: string): Promise<User> {
    const row = await this.db.query('SELECT 1', [id])
    return row
  }

  deleteUser(id: string): void {
    Logger.warn(`deleting ${id}`)
  }
}

export function standalone(): number {
  return 42
}
"""


def builder(code=SERVICE, path="src/services/deep/user.ts", language=None, structure=None, **options):
    parsed = parse(code, path, language)
    return make_context_builder(parsed, ChunkOptions.build(None, **options), path, structure)


def context_of(code, snippet, path="src/services/deep/user.ts", **options):
    b = builder(code, path, **options)
    start, end = span_of(code, snippet)
    return b, b.context_for(start, end), code.encode()[start:end].decode()


GET_USER = SERVICE[SERVICE.index("async getUser") : SERVICE.index("  deleteUser") - 2]


# -- modes ---------------------------------------------------------------------------------------
def test_full_context_keys_and_content():
    _, ctx, _ = context_of(SERVICE, GET_USER, filter_imports=False)
    assert list(ctx) == ["filepath", "language", "scope", "entities", "siblings", "imports"]
    assert (ctx["filepath"], ctx["language"]) == ("src/services/deep/user.ts", "typescript")
    assert ctx["scope"] == [{"name": "UserService", "type": "class", "signature": "class UserService"}]
    assert ctx["entities"] == [
        {"name": "getUser", "type": "method", "signature": "async getUser(id: string): Promise<User>",
         "docstring": "Fetch a user.", "lineRange": {"start": 10, "end": 13}, "isPartial": False}]
    assert ctx["siblings"] == [
        {"name": "constructor", "type": "method", "position": "before", "distance": 1,
         "signature": "constructor(private db: Database)"},
        {"name": "deleteUser", "type": "method", "position": "after", "distance": 1,
         "signature": "deleteUser(id: string): void"}]
    assert [i["name"] for i in ctx["imports"]] == ["Database", "Logger", "unused", "helpers", "./polyfill"]
    assert ctx["imports"][3] == {"name": "helpers", "source": "./helpers", "isNamespace": True}
    assert json.loads(json.dumps(ctx.to_dict())) == dict(ctx)  # the wire form is the mapping read


def test_none_mode_is_empty_and_adds_nothing():
    b, ctx, text = context_of(SERVICE, GET_USER, context_mode="none")
    assert ctx == {"scope": [], "entities": [], "siblings": [], "imports": []}
    assert b.contextualize(ctx, text, "previous line\n") == text


def test_minimal_mode_has_path_and_scope_only():
    b, ctx, text = context_of(SERVICE, GET_USER, context_mode="minimal")
    assert list(ctx) == ["filepath", "language", "scope", "entities", "siblings", "imports"]
    assert ctx["scope"][0]["name"] == "UserService"
    assert ctx["entities"] == ctx["siblings"] == ctx["imports"] == []
    assert b.contextualize(ctx, text, "") == "// services/deep/user.ts\n// Scope: UserService\n\n" + text


def test_parse_error_is_noted_in_every_mode():
    code = "function ok() { return 1 }\nfunction broken( {\n"
    for mode in ("none", "minimal", "full"):
        ctx = builder(code, "b.ts", context_mode=mode).context_for(0, 10)
        assert ctx["parseError"]["recoverable"] is True and "line" in ctx["parseError"]["message"]
        assert list(ctx)[-1] == "parseError"


# -- scope and entities ------------------------------------------------------------------------------
def test_scope_contains_the_whole_chunk_not_just_its_start():
    code = SERVICE
    b = builder(code)
    start = code.encode().index(b"return row")
    end = code.encode().index(b"Logger.warn") + len("Logger.warn(`deleting ${id}`)")
    ctx = b.context_for(start, end)
    assert [s["name"] for s in ctx["scope"]] == ["UserService"]  # code-chunk: getUser > UserService
    assert [(e["name"], e["isPartial"]) for e in ctx["entities"]] == [("getUser", True), ("deleteUser", True)]


def test_chunk_inside_a_method_and_chunk_spanning_the_class():
    b, ctx, _ = context_of(SERVICE, "const row = await this.db.query('SELECT 1', [id])")
    assert [s["name"] for s in ctx["scope"]] == ["getUser", "UserService"]
    assert ctx["entities"] == []
    code = SERVICE.encode()
    class_start, class_end = code.index(b"export class"), code.index(b"export function")
    # from the class's first byte to inside it: the class contains the chunk, so it is the scope
    ctx = b.context_for(class_start, code.index(b"deleteUser") + 5)
    assert [s["name"] for s in ctx["scope"]] == ["UserService"]
    assert [(e["name"], e["isPartial"]) for e in ctx["entities"]] == [
        ("constructor", False), ("getUser", False), ("deleteUser", True)]
    # one byte less at the start and the class is no longer inside: it is defined (partly) here
    ctx = b.context_for(class_start - 1, code.index(b"deleteUser") + 5)
    assert ctx["scope"] == []
    assert [(e["name"], e["isPartial"]) for e in ctx["entities"]][0] == ("UserService", True)
    # the exact class: defined here, not partial, and not its own scope
    ctx = b.context_for(class_start, code.rindex(b"}", 0, class_end) + 1)
    assert ctx["scope"] == [] and (ctx["entities"][0]["name"], ctx["entities"][0]["isPartial"]) == (
        "UserService", False)


def test_imports_appear_as_entities_where_they_are():
    _, ctx, _ = context_of(SERVICE, "import { Logger } from './log'")
    assert [(e["name"], e["type"]) for e in ctx["entities"]] == [("Logger", "import")]


# -- siblings -------------------------------------------------------------------------------------------
def test_sibling_detail_really_changes_the_output():
    outputs = {}
    for detail in ("none", "names", "signatures"):
        b, ctx, text = context_of(SERVICE, GET_USER, sibling_detail=detail)
        outputs[detail] = (ctx["siblings"], b.contextualize(ctx, text, ""))
    assert outputs["none"][0] == []
    assert [set(s) for s in outputs["names"][0]] == [{"name", "type", "position", "distance"}] * 2
    assert all("signature" in s for s in outputs["signatures"][0])
    assert "// After: constructor\n// Before: deleteUser\n" in outputs["names"][1]
    assert "// After: constructor(private db: Database)\n// Before: deleteUser(id: string): void\n" in (
        outputs["signatures"][1])
    assert "After:" not in outputs["none"][1] and "Before:" not in outputs["none"][1]


def test_max_siblings_per_side():
    code = "".join(f"function f{i}() {{}}\n" for i in range(12))
    for limit in (0, 1, 3, 5):
        b, ctx, _ = context_of(code, "function f6() {}", "f.ts", max_siblings=limit)
        before = [s for s in ctx["siblings"] if s["position"] == "before"]
        after = [s for s in ctx["siblings"] if s["position"] == "after"]
        assert [s["distance"] for s in before] == list(range(1, limit + 1))
        assert [s["name"] for s in after] == [f"f{7 + i}" for i in range(limit)]


# -- imports ------------------------------------------------------------------------------------------------
def test_filter_imports_sees_bodies_and_skips_import_statements():
    _, ctx, _ = context_of(SERVICE, SERVICE[SERVICE.index("  deleteUser") :], filter_imports=True)
    assert [i["name"] for i in ctx["imports"]] == ["Logger"]  # used in the body only: code-chunk missed it
    _, ctx, _ = context_of(SERVICE, SERVICE[: SERVICE.index("export class")], filter_imports=True)
    assert ctx["imports"] == []  # naming an import in its own statement is not using it
    _, ctx, _ = context_of(SERVICE, GET_USER, filter_imports=False)
    assert len(ctx["imports"]) == 5


def test_filter_imports_keeps_globs_and_drops_side_effects():
    code = "from os.path import *\nimport json\nimport os.path\n\n\ndef f():\n    return os.path.join('a')\n"
    _, ctx, _ = context_of(code, "def f():\n    return os.path.join('a')", "m.py", filter_imports=True)
    assert [(i["name"], i["source"]) for i in ctx["imports"]] == [("*", "os.path"), ("os.path", "os.path")]
    code = "import './polyfill'\nimport x from 'x'\nexport const y = x + 1\n"
    _, ctx, _ = context_of(code, "export const y = x + 1", "m.js", filter_imports=True)
    assert [i["name"] for i in ctx["imports"]] == ["x"]


def test_duplicate_imports_are_listed_once():
    code = "import os\nif True:\n    import os\n\ndef f():\n    return os.sep\n"
    _, ctx, _ = context_of(code, "def f():\n    return os.sep", "m.py")
    assert ctx["imports"] == [{"name": "os", "source": "os"}]


# -- contextualized text -----------------------------------------------------------------------------------
def test_contextualized_text_format():
    b, ctx, text = context_of(SERVICE, GET_USER, filter_imports=False)
    out = b.contextualize(ctx, text, "  constructor(private db: Database) {}\n\n")
    assert out == (
        "// services/deep/user.ts\n"
        "// Scope: UserService\n"
        "// Defines: async getUser(id: string): Promise<User>\n"
        "// Uses: Database, Logger, unused, helpers, ./polyfill\n"
        "// After: constructor(private db: Database)\n"
        "// Before: deleteUser(id: string): void\n"
        "\n"
        "// ...\n"
        "  constructor(private db: Database) {}\n"
        "// ---\n" + text
    )
    assert b.contextualize(ctx, text, "").endswith("// Before: deleteUser(id: string): void\n\n" + text)


def test_scope_line_is_outermost_first():
    b, ctx, text = context_of(SERVICE, "return row")
    assert "// Scope: UserService > getUser\n" in b.contextualize(ctx, text, "")


def test_no_header_means_no_blank_line():
    b = builder("x = 1\n", None, language="python", context_mode="minimal")
    ctx = b.context_for(0, 5)
    assert b.contextualize(ctx, "x = 1", "") == "x = 1"
    assert b.contextualize(ctx, "x = 1", "y = 0\n") == "# ...\ny = 0\n# ---\nx = 1"


@pytest.mark.parametrize(
    ("path", "code", "opener", "closer"),
    [
        ("a.py", "def f():\n    pass\n", "# ", ""),
        ("a.rb", "def f\nend\n", "# ", ""),
        ("a.go", "package a\n\nfunc f() {}\n", "// ", ""),
        ("a.rs", "fn f() {}\n", "// ", ""),
        ("a.sql", "SELECT 1;\n", "-- ", ""),
        ("a.lua", "local function f() end\n", "-- ", ""),
        ("a.el", "(defun f () nil)\n", "; ", ""),
        ("a.tex", "\\section{A}\n", "% ", ""),
        ("a.html", "<p>hi</p>\n", "<!-- ", " -->"),
        ("a.css", "a { color: red; }\n", "/* ", " */"),
        ("a.ml", "let f x = x\n", "(* ", " *)"),
    ],
)
def test_header_is_written_as_comments_of_the_language(path, code, opener, closer):
    b = builder(code, f"dir/{path}")
    ctx = b.context_for(0, len(code.encode()))
    first = b.contextualize(ctx, code, "").split("\n")[0]
    assert first == f"{opener}dir/{path}{closer}"


def test_header_values_cannot_break_out_of_their_line_or_comment():
    b = builder("<p>hi</p>\n", "we-->ird\nname.html")
    ctx = b.context_for(0, 9)
    header = b.contextualize(ctx, "<p>hi</p>", "").split("\n")[0]
    assert header == "<!-- we- ->ird name.html -->"


def test_short_path():
    assert short_path("src/services/deep/user.ts") == "services/deep/user.ts"
    assert short_path("C:\\repo\\src\\deep\\x.ts") == "src/deep/x.ts"
    assert short_path("user.ts") == "user.ts"


def test_defines_are_capped():
    code = "".join(f"const C{i} = {i}\n" for i in range(MAX_DEFINES + 4))
    b = builder(code, "c.ts")
    ctx = b.context_for(0, len(code))
    defines = next(line for line in b.header_lines(ctx) if "Defines:" in line)
    assert defines.endswith(f"const C{MAX_DEFINES - 1}, … (+4 more)")


def test_uses_lists_at_most_ten_names():
    code = "".join(f"import m{i}\n" for i in range(15)) + "x = 1\n"
    b = builder(code, "m.py", filter_imports=False)
    ctx = b.context_for(len(code) - 6, len(code))
    uses = next(line for line in b.header_lines(ctx) if "Uses:" in line)
    assert uses == "# Uses: " + ", ".join(f"m{i}" for i in range(10)) + ", … (+5 more)"


# -- builder inputs ------------------------------------------------------------------------------------------
def test_a_precomputed_structure_is_used_as_is(monkeypatch):
    parsed = parse(SERVICE, "u.ts")
    structure = extract_structure(parsed)
    expected = make_context_builder(parsed, ChunkOptions(), "u.ts").context_for(0, 100)

    def fail(_parsed):
        raise AssertionError("re-extracted")

    monkeypatch.setattr(context_module, "extract_structure", fail)
    b = make_context_builder(parsed, ChunkOptions(), "u.ts", structure)
    assert b.structure is structure and b.context_for(0, 100) == expected
    make_context_builder(parsed, ChunkOptions(context_mode="none"), "u.ts")  # none never extracts


def test_files_without_a_tree_get_path_only():
    b = builder("just some words\nand more\n", "notes.txt")
    ctx = b.context_for(0, 10)
    assert ctx["language"] is None and ctx["scope"] == [] and ctx["entities"] == []
    assert b.contextualize(ctx, "just some ", "") == "# notes.txt\n\njust some "


def test_generic_languages_get_context_too():
    code = "local function add(a, b)\n  return a + b\nend\n\nlocal function sub(a, b)\n  return a - b\nend\n"
    b, ctx, text = context_of(code, "return a - b", "m.lua")
    assert [s["name"] for s in ctx["scope"]] == ["sub"] and ctx["siblings"] == []
    assert b.contextualize(ctx, text, "").startswith("-- m.lua\n-- Scope: sub\n")
    b, ctx, text = context_of(code, code[code.index("local function sub") :].rstrip(), "m.lua")
    assert ctx["scope"] == [] and [s["name"] for s in ctx["siblings"]] == ["add"]
    assert [e["name"] for e in ctx["entities"]] == ["sub"]


def test_uses_follows_the_names_the_chunk_uses_by_default():
    code = ("import os\nfrom x import y as z\nfrom m import café\nimport json\n\n\n"
            "def a():\n    return os.path.join('a')\n\n\n"
            "def b():\n    return z(1) + y\n\n\n"
            "def c():\n    return café\n")
    _, ctx, _ = context_of(code, "def a():\n    return os.path.join('a')", "m.py")
    assert [i["name"] for i in ctx["imports"]] == ["os"]  # a dotted use counts for `import os`
    _, ctx, _ = context_of(code, "def b():\n    return z(1) + y", "m.py")
    assert [(i["name"], i["source"]) for i in ctx["imports"]] == [("z", "x")]  # the alias, not the imported name
    _, ctx, _ = context_of(code, "def c():\n    return café", "m.py")
    assert [i["name"] for i in ctx["imports"]] == ["café"]  # identifiers beyond ASCII
    _, ctx, _ = context_of(code, "def c():\n    return café", "m.py", filter_imports=False)
    assert [i["name"] for i in ctx["imports"]] == ["os", "z", "café", "json"]  # asked for: the file's list


# -- which identifiers a chunk uses: searched for by name, as the identifier pattern finds them --
from hypothesis import example, given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from explorer.engine.context import _IDENTIFIER, uses_identifier  # noqa: E402

_CODE_CHARS = st.sampled_from(list("ab$_2 .\n(9") + ["é", "٣", "²", "x"])


@given(code=st.text(_CODE_CHARS, max_size=30), name=st.sampled_from(["a", "ab", "b2", "$a", "_", "é", "x", "ba"]))
@example(code="2ab", name="ab")  # after leading digits, a run of word characters is an identifier
@example(code="٣ab", name="ab")  # so after a digit of another script
@example(code="²ab", name="ab")  # a superscript is a word character, not a digit: no identifier starts after it
@example(code="xab", name="ab")
@example(code="ab$", name="ab")  # `$` goes on with an identifier
@example(code="$ab", name="ab")
@example(code="a.ab", name="ab")
@example(code="aab ab", name="ab")  # found at its second occurrence
@example(code="ab", name="ab")
@example(code="", name="a")
def test_uses_identifier_answers_as_the_set_of_identifiers_does(code: str, name: str) -> None:
    assert uses_identifier(code, name) == (name in set(_IDENTIFIER.findall(code)))


def test_an_import_is_kept_for_its_name_not_for_words_holding_it() -> None:
    source = "import os\nimport re\n\n\ndef f():\n    return os.sep + more_re + re2\n"
    _, ctx, _ = context_of(source, "def f():\n    return os.sep + more_re + re2\n", path="m.py", filter_imports=True)
    assert [i["name"] for i in ctx["imports"]] == ["os"]
