"""The report's pieces without a browser: escaping, offsets, the parts each command
writes, the refusals, and the size of the standard library's json package's report."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

from explorer.report.files import utf16_offsets
from explorer.report.render import pre_text, script_json

ROOT = Path(__file__).resolve().parents[2]
HOSTILE = '"""</pre></script><script>alert(1)</script><img src=x onerror=alert(2)> & {{ x }} {% y %}"""\n'


def run_cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "explorer", *args], capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, cwd=cwd)


class Elements(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))


@pytest.fixture
def small_repo(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "hostile.py").write_text(HOSTILE + "\n\ndef f():\n    return '<b>'\n")
    (repo / "plain.py").write_text(
        "def area(width, height):\n    \"\"\"Compute the area of a rectangle from its two sides given.\"\"\"\n"
        "    return width * height\n")
    return repo


def test_file_content_never_becomes_markup(small_repo, tmp_path):
    out = tmp_path / "r.html"
    done = run_cli("report", str(small_repo), "-o", str(out), "--no-eval", "--no-sweep", "-q")
    assert done.returncode == 0, done.stderr
    page = out.read_text()
    parser = Elements()
    parser.feed(page)
    scripts = [attrs for tag, attrs in parser.tags if tag == "script"]
    assert scripts == [{}]  # our one inline script; nothing from the files
    assert not [tag for tag, _ in parser.tags if tag == "img"]
    assert "&lt;/script&gt;&lt;script&gt;alert(1)" in page
    assert "{{ x }}" in page  # template syntax in a file is text, not evaluated


def test_pre_text_keeps_every_character():
    assert pre_text("\nline\r\n<&>") == "\n\nline&#13;\n&lt;&amp;&gt;"


def test_script_json_cannot_close_its_block():
    text = script_json({"s": "</script><!-- \u2028 &"})
    assert "</" not in text and "<!--" not in text and "\u2028" not in text
    assert json.loads(str(text)) == {"s": "</script><!-- \u2028 &"}


def test_offsets_count_utf16_units_beyond_the_basic_plane():
    text = "a𝄞b🙂c"
    assert utf16_offsets(text, [(0, 2), (2, 5)]) == ((0, 3), (3, 7))
    assert utf16_offsets("abc", [(0, 3)]) == ((0, 3),)


def test_eval_and_sweep_write_the_same_report_for_their_run(small_repo, tmp_path):
    evaluated, swept = tmp_path / "eval.html", tmp_path / "sweep.html"
    done = run_cli("eval", str(small_repo), "--max-size", "40,80", "--html", str(evaluated), "-q")
    assert done.returncode == 0, done.stderr
    done = run_cli("sweep", str(small_repo), "--max-size", "40,80", "--html", str(swept), "-q", "--no-chart")
    assert done.returncode == 0, done.stderr
    eval_page, sweep_page = evaluated.read_text(), swept.read_text()
    assert 'id="evaluation"' in eval_page and 'id="intervals-recall-5"' in eval_page
    assert 'id="sweep"' not in eval_page
    assert 'id="sweep"' in sweep_page and 'id="evaluation"' not in sweep_page
    for page in (eval_page, sweep_page):  # one renderer: the same files, settings and record in both
        assert 'id="files"' in page and 'id="settings"' in page and "chunk-explorer 0." in page


def test_an_unwritable_output_fails_before_any_work(small_repo, tmp_path):
    done = run_cli("report", str(small_repo), "-o", str(tmp_path / "missing" / "r.html"))
    assert done.returncode == 1
    assert "does not exist" in done.stderr
    done = run_cli("eval", str(small_repo), "--html", str(tmp_path / "missing" / "r.html"))
    assert done.returncode == 1 and "does not exist" in done.stderr


def test_the_walkthrough_refuses_what_teach_cannot_read(tmp_path):
    (tmp_path / "blob.bin").write_bytes(b"\x00\x01\x02" * 100)
    done = run_cli("report", "--teach", str(tmp_path / "blob.bin"), "-o", str(tmp_path / "t.html"))
    assert done.returncode == 2 and "--teach" in done.stderr
    assert not (tmp_path / "t.html").exists()


def test_a_missing_extra_is_named_with_its_install_command(monkeypatch, capsys, tmp_path):
    import importlib.util

    from explorer.cli import main as cli

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "matplotlib" else real(name, *a))
    assert cli.main(["report", str(tmp_path), "-o", str(tmp_path / "r.html")]) == 1
    assert "pip install 'chunk-explorer[report]'" in capsys.readouterr().err
    assert not (tmp_path / "r.html").exists()


def test_the_report_of_the_standard_librarys_json_package_is_small(tmp_path):
    out = tmp_path / "json.html"
    done = run_cli("report", os.path.dirname(json.__file__), "-o", str(out), "-q")
    assert done.returncode == 0, done.stderr
    size = out.stat().st_size
    assert size < 300_000, f"{size:,} bytes"  # the bound docs/reports.md states
    text = out.read_text()
    assert "<script src" not in text and "<link" not in text and "http://" not in text.split("<main>")[0]


class Text(HTMLParser):
    """A page's text as a reader sees it (no tags, entities resolved, spaces collapsed)."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []

    def handle_data(self, data):
        self.parts.append(data)

    @classmethod
    def of(cls, page: str) -> str:
        parser = cls()
        parser.feed(page)
        return " ".join(" ".join(parser.parts).split())


def test_the_report_says_what_the_cli_says_with_the_same_units(small_repo, tmp_path):
    """The evaluation's, the trade-off's and the sweep's headings are the CLI's lines, budget
    and cost units included; the marks of the settings in effect are the CLI's."""
    (small_repo / ".chunk-explorer.toml").write_text(
        '[chunk]\nmax_size = 80\nsize_unit = "tokens"\ntokenizer = "cl100k_base"\n')
    evaluated, swept = tmp_path / "eval.html", tmp_path / "sweep.html"
    done = run_cli("eval", str(small_repo), "--max-size", "40,80", "--html", str(evaluated), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    said = [" ".join(line.split()) for line in done.stdout.splitlines()]
    page = Text.of(evaluated.read_text())
    heading = next(line for line in said if line.startswith("Retrieval on"))
    assert "budget" in heading and "tokens" in heading.split("budget", 1)[1]  # the budget with its unit
    assert heading in page
    tradeoff = next(line for line in said if line.startswith("Trade-off:"))
    assert tradeoff in page
    legend = next(line for line in said if line.startswith("r the reference"))
    assert "* the settings in effect now" in legend and legend in page

    done = run_cli("sweep", str(small_repo), "--max-size", "40,80", "--html", str(swept), "--no-chart", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    said = [" ".join(line.split()) for line in done.stdout.splitlines()]
    page = Text.of(swept.read_text())
    heading = next(line for line in said if line.startswith("Sweep of"))
    assert "sizes in tokens" in heading and heading in page
    row = next(line for line in said if line.startswith("2*"))  # the settings in effect, marked alike
    assert " ".join(row.split()[:4]) in page
    notes = [line for line in said if line.startswith(("cut too big:", "split (fit):"))]
    assert len(notes) == 2 and all(note in page for note in notes)  # what the shares are of, as the CLI says


def test_the_report_names_what_it_skipped_by_the_one_exit_rule(small_repo, tmp_path):
    (small_repo / "blob.py").write_bytes(b"\x00\x01binary\x02" * 50)
    out = tmp_path / "r.html"
    done = run_cli("report", str(small_repo), "-o", str(out), "--no-eval", "--no-sweep")
    assert done.returncode == 0, done.stderr  # a file the walk found not to be text is no failure
    assert "1 binary: blob.py" in done.stderr
    assert "Skipped 1 file or directory: 1 binary: blob.py" in Text.of(out.read_text())
    done = run_cli("report", str(small_repo / "blob.py"), "-o", str(out), "--no-eval", "--no-sweep")
    assert done.returncode == 1
    assert "blob.py was named on the command line but skipped: binary" in done.stderr
