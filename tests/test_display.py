"""Plain-text figures shared by the CLI and the explorer."""

from __future__ import annotations

import pytest

from explorer.display import bar, format_num, format_pct, human_bytes


@pytest.mark.parametrize("value, text", [
    (None, "-"), (0, "0.0"), (0.0, "0.0"), (0.254, "0.25"), (10, "10.0"), (12.345, "12.3"),
    (100.0, "100.0"),
])
def test_percentages_keep_small_values_visible(value, text):
    assert format_pct(value) == text


@pytest.mark.parametrize("value, text", [
    (None, "-"), (0, "0"), (1500, "1,500"), (1500.0, "1,500"), (1361.5, "1,361.5"), (12345678, "12,345,678"),
])
def test_numbers_show_a_decimal_only_when_not_whole(value, text):
    assert format_num(value) == text


def test_bar_and_bytes():
    assert bar(1, 1, 4) == "████"
    assert bar(0, 1, 4) == "    "
    assert human_bytes(1_500_000) == "1.5 MB"
