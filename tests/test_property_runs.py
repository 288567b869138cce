"""Property tests draw the same examples on every run unless asked otherwise (see tests/conftest.py)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

DRAWN: list[list[int]] = []


def test_the_default_profile_is_derandomized_without_a_database_or_time_limits(request) -> None:
    if request.config.getoption("hypothesis_profile", None) not in (None, "ci"):
        return  # a run that asked for another profile
    current = settings()
    assert current.derandomize and current.database is None and current.deadline is None


def test_two_runs_of_a_property_draw_the_same_examples() -> None:
    @given(st.lists(st.integers(), max_size=5))
    @settings(max_examples=20)  # settings given on the test keep the profile's derandomize
    def draws(values: list[int]) -> None:
        DRAWN[-1].append(hash(tuple(values)))

    runs = []
    for _ in range(2):
        DRAWN.append([])
        draws()
        runs.append(DRAWN.pop())
    assert settings().derandomize is False or runs[0] == runs[1]
