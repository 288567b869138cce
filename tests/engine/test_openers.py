"""No cut right after an opening `{` or right before a closing `}` where the pieces on
either side could stay together (the unclean cuts once left in Java, JavaScript and
TypeScript fell there)."""

from __future__ import annotations

import pytest

import explorer


def _words(n: int) -> str:
    return " ".join(f"word{i}" for i in range(n))


def _doc(indent: str, lines: int) -> str:
    return f"{indent}/**\n" + "".join(f"{indent} * {_words(8)}\n" for _ in range(lines)) + f"{indent} */\n"


# A class body opening with a comment set apart by a blank line, after a long class doc.
JAVA = (
    _doc("", 5) + "public class Big {\n\n    /*\n     * Implementation notes, set apart by a blank line.\n     */\n\n"
    + "".join(f"    /** Doc of m{i}. */\n    int m{i}(int a) {{ return a * {i} + {i}; }}\n\n" for i in range(12))
    + "}\n"
)
# An object type of documented call signatures (effect's style), the first too big with its doc.
TYPESCRIPT = (
    _doc("", 4) + "export const f: {\n"
    + "".join(_doc("  ", 3) + f"  <A{i}>(self: Array<A{i}>, n: number): Array<A{i}>\n" for i in range(6))
    + "} = g\n"
)
# A function body that is one switch statement.
JAVASCRIPT = (
    _doc("", 5) + "export function describe(issue) {\n  switch (issue.code) {\n"
    + "".join(f"    case 'c{i}':\n      return `message number {i} for ${{issue.path}} and ${{issue.value}}`;\n"
              for i in range(14))
    + "  }\n}\n"
)


@pytest.mark.parametrize("path, code", [("Big.java", JAVA), ("f.ts", TYPESCRIPT), ("describe.js", JAVASCRIPT)],
                         ids=["java", "typescript", "javascript"])
@pytest.mark.parametrize("max_size", [200, 250, 300, 350])
def test_no_cut_after_an_opener_or_before_a_closer(path, code, max_size, check):
    chunks = explorer.chunk(path, code, max_size=max_size, context_mode="none")
    check(code, chunks, max_size=max_size, context_mode="none")
    for left, right in zip(chunks, chunks[1:]):
        assert not left.text.rstrip().endswith("{"), f"cut after an opener: ...{left.text[-30:]!r} | {right.text[:30]!r}"
        assert not right.text.lstrip().startswith("}"), f"cut before a closer: {right.text[:30]!r}"
