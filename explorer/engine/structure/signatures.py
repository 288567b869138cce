"""Signatures: a declaration up to its body, on one line.

``async def get_user(self, id: str) -> User``, ``class Calculator extends Base
implements ICalc``, ``type Handler<T = string>``: the source text from the
declaration's start to the start of its body (or of the value, for constants
and type aliases), whitespace runs collapsed to one space, and the delimiter
that opens the body (``{``, ``:``, ``=``, ``=>``) removed. Cut at the tree's
body node, so a ``<`` in a parameter default or an ``=`` in a type parameter
cannot end it early.
"""

from __future__ import annotations

#: Longest signature kept; beyond it the text is cut and ends with an ellipsis.
MAX_SIGNATURE = 300

# Delimiters left at the end of "everything before the body".
_TRAILING = "{:=;,"


def make_signature(data: bytes, start: int, end: int) -> str:
    """The signature from ``start`` (the declaration) to ``end`` (its body's start,
    or the declaration's end when it has no body)."""
    cut = end - start > 4 * MAX_SIGNATURE  # whitespace collapses, so read a bit more
    raw = data[start : start + 4 * MAX_SIGNATURE] if cut else data[start:end]
    text = b" ".join(raw.split()).decode("utf-8", "replace")
    while text:
        if text.endswith("=>"):
            text = text[:-2].rstrip()
        elif text[-1] in _TRAILING:
            text = text[:-1].rstrip()
        else:
            break
    if cut or len(text) > MAX_SIGNATURE:
        text = text[: MAX_SIGNATURE - 1].rstrip() + "…"
    return text
