"""The same value is valid or invalid in every face, with the same message: a chunking
flag of the CLI, the settings file and the explorer's parameter fields all check it by
the options' one rule (explorer.engine.options.check_option)."""

from __future__ import annotations

from pathlib import Path

import pytest

from explorer.__main__ import main
from explorer.tui.widgets.params.panel import ParamsPanel
from explorer.workspace.settings import SETTINGS_FILE, SettingsError, load_settings

from .helpers import SIZE, edit_field, make_app, notified, wait_for
from .test_explorer import open_app

CASES = [
    ("max-size", "max_size", "0", "max_size must be a whole number of at least 1, got 0"),
    ("max-size", "max_size", "-3", "max_size must be a whole number of at least 1, got -3"),
    ("overlap", "overlap_lines", "-1", "overlap_lines must be a whole number of at least 0, got -1"),
]


def cli_error(capsys, *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    return code, capsys.readouterr().err


@pytest.mark.parametrize(("field", "name", "typed", "message"), CASES)
async def test_a_refused_value_reads_the_same_in_every_face(project: Path, tmp_path: Path, capsys, field, name,
                                                             typed, message):
    flag = "--max-size" if name == "max_size" else "--overlap-lines"
    code, err = cli_error(capsys, "chunk", str(project), f"{flag}={typed}")
    assert code == 2 and f"argument {flag}: {message}" in err

    (tmp_path / SETTINGS_FILE).write_text(f"[chunk]\n{name} = {typed}\n")
    with pytest.raises(SettingsError, match=f"\\[chunk\\] {message}"):
        load_settings(tmp_path)

    messages: list = []
    app = make_app(project / "inventory.py")
    async with app.run_test(size=SIZE, notifications=True, message_hook=messages.append) as pilot:
        await open_app(app, pilot)
        before = app.options
        await edit_field(pilot, app.explore.query_one(ParamsPanel), field)  # as enter on the field under the cursor
        await pilot.press("ctrl+a", "ctrl+k", *typed, "enter")
        await wait_for(pilot, lambda: any(n.message == message for n in notified(messages)), what="the refusal")
        assert app.options == before  # nothing applied


async def test_a_small_value_every_face_takes_is_taken_by_the_explorer(project: Path, tmp_path: Path, capsys):
    assert cli_error(capsys, "stats", str(project / "inventory.py"), "--max-size", "2", "-q")[0] == 0
    (tmp_path / SETTINGS_FILE).write_text("[chunk]\nmax_size = 2\n")
    assert load_settings(tmp_path).options.max_size == 2
    app = make_app(project / "inventory.py")
    async with app.run_test(size=SIZE) as pilot:
        await open_app(app, pilot)
        await edit_field(pilot, app.explore.query_one(ParamsPanel), "max-size")
        await pilot.press("ctrl+a", "ctrl+k", "2", "enter")
        await wait_for(pilot, lambda: app.options.max_size == 2, what="max size 2")
