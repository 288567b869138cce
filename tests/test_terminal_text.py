"""Text from data reads the same in both faces: one line, control characters visible."""

from __future__ import annotations

from explorer.cli.report import warn_about_walk
from explorer.terminal_text import visible
from explorer.tui.literal import literal
from explorer.workspace.walk import WalkPlan


def test_control_characters_become_visible_one_for_one():
    assert visible("two\nlines.py") == "two␊lines.py"
    assert visible("\x1b[31mred") == "␛[31mred"  # no escape sequence reaches the terminal
    assert visible("a\tb") == "a b"  # a tab is one cell: offsets into the text still hold
    text = "caf\u00e9 \x07bell\r.py"
    assert len(visible(text)) == len(text)


def test_the_cli_and_the_explorer_show_a_name_alike(capsys):
    name = "ignore\nme\x1b]0;title\x07"
    warn_about_walk(WalkPlan(root="/r", warnings=[name]))
    err = capsys.readouterr().err
    assert "\x1b" not in err and "\x07" not in err
    assert err.strip().endswith(literal(name).plain)
