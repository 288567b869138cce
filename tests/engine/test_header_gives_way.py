"""The order in which a chunk's header gives way to its code, read off the output and
checked against the order docs/tokens.md documents.

For every chunk, the parts its full header would hold follow from its own record (its
path, scope, entities, imports, siblings, and the previous chunk's last lines for the
overlap); the parts left out of its embedded text must be the first ones of the
documented order among those, and only while the limit needs it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import explorer

ROOT = Path(__file__).resolve().parents[2]
REAL = ROOT / "tests" / "fixtures" / "real"
#: How docs/tokens.md names each part in its list, and the header line's label.
DOC_NAMES = {"`Before:`": "Before", "`After:`": "After", "`Uses:`": "Uses", "`Defines:`": "Defines",
             "overlap": "overlap", "`Scope:`": "Scope", "path line": "path"}


def documented_order() -> list[str]:
    text = (ROOT / "docs" / "tokens.md").read_text(encoding="utf-8")
    block = text.split("header parts are left out, in this order:", 1)[1].split("\n\n", 1)[0]
    items = re.findall(r"^\s+\d+\.\s+(.*)$", block, re.M)
    order = [next(part for name, part in DOC_NAMES.items() if name in item) for item in items]
    assert sorted(order) == sorted(DOC_NAMES.values()), items
    return order


ORDER = documented_order()


def last_lines(text: str, count: int) -> str:
    lines = text.splitlines(keepends=True)
    return "".join(lines[-count:]) if count else ""


def parts_of(chunks: list, index: int, overlap_lines: int, comment: str, path: str) -> tuple[set[str], set[str]]:
    """(the parts the full header of chunk ``index`` holds, those its embedded text kept)."""
    chunk = chunks[index]
    context = chunk.to_dict()["context"]
    full = {"path"}
    full |= {"Scope"} if context.get("scope") else set()
    # imports and exports are never "defined" there (see engine/context.py)
    full |= {"Defines"} if any(e["type"] not in ("import", "export") for e in context.get("entities") or []) else set()
    full |= {"Uses"} if context.get("imports") else set()
    siblings = context.get("siblings") or []
    full |= {"After"} if any(s["position"] == "before" for s in siblings) else set()
    full |= {"Before"} if any(s["position"] == "after" for s in siblings) else set()
    if index and last_lines(chunks[index - 1].text, overlap_lines).rstrip("\r\n"):
        full.add("overlap")
    header = chunk.contextualized_text[: len(chunk.contextualized_text) - len(chunk.text)]
    lines = header.splitlines()
    kept = {"path"} if f"{comment} {path}" in lines else set()
    for label in ("Scope", "Defines", "Uses", "After", "Before"):
        if any(line.startswith(f"{comment} {label}: ") for line in lines):
            kept.add(label)
    if chunk.overlap_text:
        kept.add("overlap")
    return full, kept


def deep_scope_source() -> str:
    """A method two long class names deep: its scope line is longer than the reserve, so
    the scope gives way while the path stays."""
    body = "\n".join(f"            total_{i} = amount_{i} * rate_{i}" for i in range(12))
    return ("class OuterRegistryOfEveryConfiguredPaymentProviderAdapter:\n"
            "    class InnerSettlementReconciliationWorkflowCoordinator:\n"
            f"        def settle(self, amount, rate):\n{body}\n            return total_0\n")


CASES = {"textwrap.py": ("#", (REAL / "textwrap.py").read_text(encoding="utf-8")),
         "Subscriber.ts": ("//", (REAL / "Subscriber.ts").read_text(encoding="utf-8")),
         "client.go": ("//", (REAL / "client.go").read_text(encoding="utf-8")),
         "payments.py": ("#", deep_scope_source())}
SIZES = (30, 45, 60, 90, 120, 160, 220, 300, 420)


@pytest.fixture(scope="module")
def gave_way() -> dict[str, list[tuple[int, int, list[str], list[str]]]]:
    """Per case: (max_size, chunk, the parts its full header holds in the documented order,
    the parts left out of its embedded text)."""
    found: dict[str, list[tuple[int, int, list[str], list[str]]]] = {}
    for name, (comment, source) in CASES.items():
        path = f"lib/{name}"
        rows = found[name] = []
        for max_size in SIZES:
            chunks = explorer.chunk(path, source, size_unit="tokens", tokenizer="cl100k_base", max_size=max_size,
                                    context_mode="full", overlap_lines=2)
            assert "".join(c.text for c in chunks) == source
            for i, chunk in enumerate(chunks):
                assert chunk.embedded_size <= max_size
                full, kept = parts_of(chunks, i, 2, comment, path)
                assert kept <= full, (name, max_size, i, kept, full)
                wanted = [part for part in ORDER if part in full]
                rows.append((max_size, i, wanted, [part for part in wanted if part not in kept]))
    return found


@pytest.mark.parametrize("name", list(CASES))
def test_the_header_gives_way_in_the_documented_order(name: str, gave_way) -> None:
    for max_size, i, wanted, dropped in gave_way[name]:
        # what gave way is the first parts of the documented order, nothing after them
        assert dropped == wanted[: len(dropped)], (max_size, i, dropped, wanted)


def test_every_step_of_the_order_is_seen_giving_way(gave_way) -> None:
    """Each part is seen leaving while the next one in the order stays: swapping any two
    neighbours in the order would show."""
    seen = set()
    for rows in gave_way.values():
        for _, _, wanted, dropped in rows:
            if dropped and len(dropped) < len(wanted):
                seen.add((dropped[-1], wanted[len(dropped)]))
    assert set(zip(ORDER, ORDER[1:])) <= seen, sorted(set(zip(ORDER, ORDER[1:])) - seen)


def test_a_chunk_that_fits_with_its_whole_header_keeps_all_of_it() -> None:
    source = (REAL / "textwrap.py").read_text(encoding="utf-8")
    chunks = explorer.chunk("lib/textwrap.py", source, size_unit="tokens", tokenizer="cl100k_base", max_size=4000,
                            context_mode="full", overlap_lines=2)
    for i in range(len(chunks)):
        full, kept = parts_of(chunks, i, 2, "#", "lib/textwrap.py")
        assert kept == full, (i, full - kept)
