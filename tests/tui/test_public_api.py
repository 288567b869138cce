"""The TUI uses public Textual API only: no private attribute of a Textual class is read,
set or overridden (by accident or on purpose), and no private Textual module is imported.

A name like ``self._updates`` in a Tree subclass is Textual's own private counter; a
method of ours named ``_render`` silently replaces Widget._render. Both break on any
Textual upgrade, so both are caught here.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import re
from pathlib import Path

import textual

import explorer.tui

TUI = Path(explorer.tui.__file__).parent
#: Private Textual names still used in files another change reworks (remove each when fixed).
PENDING: dict[tuple[str, str], set[str]] = {}


def textual_private_names(cls: type) -> set[str]:
    """Private names that Textual classes in ``cls``'s ancestry define or set on instances."""
    names: set[str] = set()
    for base in cls.__mro__:
        if not base.__module__.startswith("textual"):
            continue
        names |= {name for name in vars(base) if name.startswith("_") and not name.startswith("__")}
        try:
            source = inspect.getsource(base)
        except (OSError, TypeError):
            continue
        names |= set(re.findall(r"self\.(_[a-zA-Z]\w*)", source))
    return names


def classes_in(path: Path) -> list[tuple[str, ast.ClassDef]]:
    module = ".".join(path.relative_to(TUI.parent.parent).with_suffix("").parts)
    tree = ast.parse(path.read_text())
    return [(module, node) for node in tree.body if isinstance(node, ast.ClassDef)]


def own_private_uses(node: ast.ClassDef) -> set[str]:
    """``self._x`` and ``super()._x`` in the class body, and private methods it defines."""
    used = {item.name for item in node.body
            if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and item.name.startswith("_")
            and not item.name.startswith("__")}
    for sub in ast.walk(node):
        if isinstance(sub, ast.Attribute) and sub.attr.startswith("_") and not sub.attr.startswith("__"):
            target = sub.value
            if (isinstance(target, ast.Name) and target.id in ("self", "cls")) or (
                isinstance(target, ast.Call) and isinstance(target.func, ast.Name) and target.func.id == "super"
            ):
                used.add(sub.attr)
    return used


def test_no_private_textual_attribute_is_used_or_overridden():
    found = {}
    for path in sorted(TUI.rglob("*.py")):
        for module, node in classes_in(path):
            cls = getattr(importlib.import_module(module), node.name)
            if not any(base.__module__.startswith("textual") for base in cls.__mro__):
                continue
            clash = own_private_uses(node) & textual_private_names(cls)
            clash -= PENDING.get((module, node.name), set())
            if clash:
                found[f"{module}.{node.name}"] = sorted(clash)
    assert found == {}


def test_no_private_textual_module_is_imported():
    private = re.compile(r"^\s*(from|import)\s+textual(\.\w+)*\._\w+", re.M)
    offenders = [str(path.relative_to(TUI)) for path in TUI.rglob("*.py") if private.search(path.read_text())]
    assert offenders == []
    assert textual.__version__  # (the check above ran against the installed Textual)


def test_no_private_textual_attribute_is_reached_on_other_objects():
    """``app._notifications``, ``Footer._bindings_ready`` and the like, in the TUI and its tests."""
    from textual.app import App
    from textual.screen import Screen
    from textual.widgets import DataTable, DirectoryTree, Footer, Input, Tree

    textual_names: set[str] = set()
    for cls in (App, Screen, Tree, DirectoryTree, Input, Footer, DataTable):
        textual_names |= textual_private_names(cls)
    found = []
    tests = Path(__file__).parent
    for path in [*TUI.rglob("*.py"), *tests.rglob("*.py")]:
        for node in ast.walk(ast.parse(path.read_text())):
            if not (isinstance(node, ast.Attribute) and node.attr in textual_names):
                continue
            receiver = node.value
            if isinstance(receiver, ast.Name) and receiver.id in ("self", "cls"):
                continue  # a class's own attribute (the test above checks it against Textual's)
            if isinstance(receiver, ast.Call) and isinstance(receiver.func, ast.Name) and receiver.func.id == "super":
                continue
            found.append(f"{path.name}:{node.lineno} .{node.attr}")
    assert found == []
