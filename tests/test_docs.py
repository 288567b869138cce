"""The documentation a reader opens: every relative link resolves to a file of the repository,
and nothing points at tracker numbers a reader of the repository cannot see."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", ROOT / "CHANGELOG.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)\s]+)\)")


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_relative_link_resolves(doc: Path) -> None:
    broken = []
    for target in LINK.findall(doc.read_text(encoding="utf-8")):
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue  # a web address or an anchor in the same page
        if not (doc.parent / target.split("#", 1)[0]).exists():
            broken.append(target)
    assert broken == []


def test_the_readme_links_every_guide() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    linked = {Path(t).name for t in LINK.findall(readme) if t.startswith("docs/")}
    guides = {p.name for p in (ROOT / "docs").glob("*.md")}
    # A guide is reached from the front page, or from another guide the front page links.
    reachable = set(linked)
    for name in linked:
        text = (ROOT / "docs" / name).read_text(encoding="utf-8")
        reachable |= {Path(t).name for t in LINK.findall(text) if t.endswith(".md")}
    assert guides - reachable == set()


def test_no_reference_to_tracker_numbers() -> None:
    """Code, tests and docs explain the reason itself, never point at a tracker entry a reader cannot open."""
    listed = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard", "*.py", "*.md", "*.toml", "*.tcss", "scripts/*"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout.split()
    pattern = re.compile(r"\bissues? #?\d+|\b(the|this) (\w+ )?issue\b|quality-metrics\.md", re.IGNORECASE)
    found = []
    for name in listed:
        path = ROOT / name
        if path.is_file() and name != "tests/test_docs.py":
            for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
                if pattern.search(line):
                    found.append(f"{name}:{number}: {line.strip()}")
    assert found == []
