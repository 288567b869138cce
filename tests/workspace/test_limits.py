"""Size caps of the workspace, checked at the cap, one byte below and one above.

A file exactly at the cap is read; one byte more is refused with a reason that says so.
"""

from __future__ import annotations

import pytest

from explorer.engine.batch.skips import SkipReason
from explorer.engine.files import FileTooLargeError, human_size, read_regular_file
from explorer.workspace.gitignore import MAX_IGNORE_FILE_BYTES, IgnoreFile
from explorer.workspace.settings import SETTINGS_MAX_BYTES, SettingsError, read_settings_file
from explorer.workspace.walk import WalkedFile, WalkOptions, parse_size, plan, walk

CAP = 600


def outcome(root, options: WalkOptions) -> dict[str, str]:
    return {
        r.rel: ("taken" if isinstance(r, WalkedFile) else f"{r.reason}: {r.detail}")
        for r in walk(root, options)
    }


@pytest.mark.parametrize("size", [CAP - 1, CAP, CAP + 1])
def test_a_file_at_max_file_size_is_taken_one_byte_more_is_skipped(tmp_path, size):
    (tmp_path / "a.py").write_bytes(b"x" * (size - 1) + b"\n")
    found = outcome(tmp_path, WalkOptions(max_file_size=CAP))
    if size <= CAP:
        assert found == {"a.py": "taken"}
    else:
        assert found == {"a.py": f"{SkipReason.TOO_LARGE}: 601B > 600B"}


@pytest.mark.parametrize("size", [CAP, CAP + 1])
def test_a_file_named_on_the_command_line_is_taken_whatever_its_size(tmp_path, size):
    path = tmp_path / "a.py"
    path.write_bytes(b"x" * (size - 1) + b"\n")
    result = plan([str(path)], WalkOptions(max_file_size=CAP), root=str(tmp_path))
    assert [(f.rel, f.size) for f in result.files] == [("a.py", size)]
    assert result.skipped == []


@pytest.mark.parametrize("size", [CAP - 1, CAP, CAP + 1])
def test_read_regular_file_reads_up_to_its_cap(tmp_path, size):
    path = tmp_path / "f"
    path.write_bytes(b"y" * size)
    if size <= CAP:
        assert read_regular_file(path, CAP) == b"y" * size
    else:
        with pytest.raises(FileTooLargeError) as caught:
            read_regular_file(path, CAP)
        assert (caught.value.size, caught.value.limit) == (size, CAP)
    assert read_regular_file(path, None) == b"y" * size  # no cap: "open anyway"


@pytest.mark.parametrize("extra", [-1, 0, 1])
def test_a_settings_file_is_read_up_to_its_cap(tmp_path, extra):
    body = b"[chunk]\nmax_size = 77\n"
    padding = SETTINGS_MAX_BYTES + extra - len(body) - 2  # a comment line fills the rest
    path = tmp_path / "s.toml"
    path.write_bytes(body + b"#" + b"x" * padding + b"\n")
    assert path.stat().st_size == SETTINGS_MAX_BYTES + extra
    if extra <= 0:
        assert read_settings_file(path).options.max_size == 77
    else:
        with pytest.raises(SettingsError, match="too large"):
            read_settings_file(path)


@pytest.mark.parametrize(("size", "shown"), [(1023, "1023B"), (1024, "1.0K"), (1025, "1.0K"),
                                             (1024**2 - 1, "1024.0K"), (1024**2, "1.0M"), (1024**3, "1.0G")])
def test_human_size_changes_unit_exactly_at_each_multiple(size, shown):
    assert human_size(size) == shown


@pytest.mark.parametrize(("text", "expected"), [("1", 1), ("1K", 1024), ("2M", 2 * 1024**2), ("1023", 1023)])
def test_parse_size_at_the_smallest_sizes(text, expected):
    assert parse_size(text) == expected


@pytest.mark.parametrize("text", ["0", "-1", "0K"])
def test_a_size_of_zero_is_refused(text):
    with pytest.raises(ValueError):
        WalkOptions(max_file_size=parse_size(text))


@pytest.mark.parametrize("extra", [-1, 0, 1])
def test_an_ignore_file_is_read_up_to_its_cap_and_a_larger_one_is_reported(tmp_path, extra):
    rule = b"*.log\n"
    path = tmp_path / ".gitignore"
    path.write_bytes(rule + b"#" + b"x" * (MAX_IGNORE_FILE_BYTES + extra - len(rule) - 2) + b"\n")
    assert path.stat().st_size == MAX_IGNORE_FILE_BYTES + extra
    problems: list[str] = []
    loaded = IgnoreFile.load(path, problems=problems)
    if extra <= 0:
        assert loaded is not None and [p.text for p in loaded.patterns] == ["*.log"]
        assert problems == []
    else:
        assert loaded is None
        assert problems == [f"{path}: too large ({human_size(MAX_IGNORE_FILE_BYTES + 1)} > {human_size(MAX_IGNORE_FILE_BYTES)})"]


def test_the_cap_applies_to_a_notebooks_cells_not_to_its_outputs(tmp_path, notebook_file):
    plots = notebook_file(tmp_path / "plots.ipynb")  # 5.6 MB, nearly all plots
    notebook_file(tmp_path / "long.ipynb", plots=4, source_lines=25_000)
    with open(tmp_path / "huge.ipynb", "wb") as out:
        out.truncate(500 * 2**20)
    (tmp_path / "data.py").write_bytes(b"x = 1\n" * 500_000)
    found = outcome(tmp_path, WalkOptions())
    assert plots.stat().st_size > 5_500_000 and found["plots.ipynb"] == "taken"
    assert found["long.ipynb"].startswith(f"{SkipReason.TOO_LARGE}: cells' text 2.")
    assert found["huge.ipynb"] == f"{SkipReason.TOO_LARGE}: notebook file 500.0M > 64.0M"
    assert found["data.py"] == f"{SkipReason.TOO_LARGE}: 2.9M > 2.0M"
