"""What a flag's value must be: the argparse ``type=`` functions of every verb, in one
place, so the same kind of value is checked and refused in the same words."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any, TypeVar

from ..engine.options import option_values, parse_option
from ..workspace.walk import parse_size

Number = TypeVar("Number", int, float)


def _number(convert: Callable[[str], Number], expected: str, fits: Callable[[Number], bool],
            must: str) -> Callable[[str], Number]:
    """A number ``convert`` reads, refused unless it ``fits``: "expected ..., got 'x'",
    "must be ..., got 0"."""
    def parse(text: str) -> Number:
        try:
            value = convert(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {expected}, got {text!r}") from None
        if not fits(value):
            shown = f"{value:g}" if isinstance(value, float) else str(value)
            raise argparse.ArgumentTypeError(f"must be {must}, got {shown}")
        return value

    return parse


def _whole(minimum: int) -> Callable[[str], int]:
    must = "0 or more" if minimum == 0 else f"at least {minimum}"
    return _number(int, "a whole number", lambda v: v >= minimum, must)


#: ``--max-size``, ``--jobs``...: 1 or more.
positive_int = _whole(1)
#: ``--overlap-lines``, ``--indent``, ``--seed``...: 0 or more.
non_negative_int = _whole(0)
#: ``--rrf-k``: any number above 0.
positive_float = _number(float, "a number", lambda v: v > 0, "above 0")
#: ``--timeout``: seconds, above 0.
seconds = _number(float, "a number of seconds", lambda v: v > 0, "more than 0")
#: ``--hit-threshold``: a share, above 0 and at most 1.
fraction = _number(float, "a number between 0 and 1", lambda v: 0 < v <= 1, "above 0 and at most 1")


def option(name: str) -> Callable[[str], object]:
    """A chunking option's flag (``--max-size``, ``--fit``...): read and checked by the
    options' own rule (:func:`explorer.engine.options.parse_option`), so a value is refused
    with the message the settings file and the explorer give for it."""
    def parse(text: str) -> object:
        try:
            return parse_option(name, text)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    parse.__name__ = name  # argparse names the type in some messages
    return parse


def size(text: str) -> int:
    """``--max-file-size``: bytes, or ``500K``, ``2M``..."""
    try:
        return parse_size(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def url(text: str) -> str:
    """``--embed-url``: an http:// or https:// URL."""
    if not text.startswith(("http://", "https://")):
        raise argparse.ArgumentTypeError(f"expected an http:// or https:// URL, got {text!r}")
    return text


def option_list(name: str) -> Callable[[str], list[Any]]:
    """A comma-separated list of values of a chunking option (a grid axis), each checked
    as the option's own flag checks it."""
    def parse(text: str) -> list[Any]:
        try:
            return option_values(name, text)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    return parse
