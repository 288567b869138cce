"""The one step size of every key that changes a max size (``+``/``-`` in the explorer, teach
and compare, ``]``/``[`` on compare's right side, left/right on the size field).

A step goes to the next multiple of the unit's step, so sizes stay round: 1,450 + a step
is 1,500, not 1,550. Going down never reaches 0: below one step the size halves.
"""

from __future__ import annotations

#: The step per size unit.
SIZE_STEPS = {"nws": 100, "chars": 250, "tokens": 100, "lines": 10}


def size_step(unit: str) -> int:
    """The step of ``unit`` (100 for a unit without one of its own)."""
    return SIZE_STEPS.get(unit, 100)


def stepped_size(size: int, unit: str, direction: int) -> int:
    """``size`` one step up (``direction`` > 0) or down, to a multiple of the unit's step."""
    step = size_step(unit)
    if direction > 0:
        return (size // step + 1) * step
    return ((size - 1) // step) * step or max(1, size // 2)
