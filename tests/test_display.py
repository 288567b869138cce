"""Plain-text figures shared by the CLI and the explorer."""

from __future__ import annotations

import pytest

from explorer.display import bar, format_num, format_pct, human_bytes, plural


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


@pytest.mark.parametrize("count, text", [
    (0, "0 chunks"), (1, "1 chunk"), (2, "2 chunks"), (1500, "1,500 chunks"),
])
def test_a_count_reads_with_its_noun_and_separators(count, text):
    assert plural(count, "chunk") == text


def test_an_irregular_plural_is_given():
    assert plural(2, "query", "queries") == "2 queries" and plural(1, "query", "queries") == "1 query"
