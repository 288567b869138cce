"""The HTML report opened in headless Chromium with the network off: it opens without a
request, every chunk of a file is drawn and they tile it exactly (both sides of the
compare), file content stays text, the evaluation's intervals are drawn to scale, and the
teach walkthrough steps with the keyboard."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import explorer
from explorer.engine.trace import trace
from explorer.report.render import FIGURE_METRICS

from .browser import Browser, needs_chromium
from .conftest import ROOT

pytestmark = needs_chromium

TOPICS = {
    "parsing": [("read_header", "Read the header block and return every field it names in order"),
                ("split_fields", "Split one record into its fields at each separator character found"),
                ("strip_quotes", "Remove the quotes around a value and undo every escaped quote")],
    "storage": [("open_journal", "Open the journal file for appending records durably on disk"),
                ("compact", "Merge the older segments into one and drop the tombstones left"),
                ("checksum", "Compute the checksum of a block to detect silent corruption early")],
}
TRICKY = ('"""Text that looks like markup: </script><script>window.pwned = 1</script> <b>bold</b> &amp;."""\r\n'
          "\r\n"
          "def clef():\r\n"
          '    """A treble clef 𝄞 and an emoji 🙂 outside the basic plane."""\r\n'
          '    return "𝄞🙂"\r\n')


@pytest.fixture
def report_repo(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / ".chunk-explorer.toml").write_text("[chunk]\nmax_size = 80\n")
    for module, functions in TOPICS.items():
        body = [f'"""The {module} helpers."""\n']
        for name, doc in functions:
            body.append(f'\n\ndef {name}(value, limit=10):\n    """{doc}."""\n    total = 0\n'
                        f"    for item in value[:limit]:\n        total += len(str(item))\n    return total\n")
        (repo / f"{module}.py").write_text("".join(body))
    (repo / "tricky.py").write_bytes(TRICKY.encode("utf-8"))
    return repo


def run_cli(*args: str) -> subprocess.CompletedProcess:
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "explorer", *args], capture_output=True, text=True,
                          env=environment, timeout=300)


def open_offline(path: Path, width: int = 1400, height: int = 1000) -> Browser:
    browser = Browser(width, height)
    browser.offline()
    browser.driver.get(path.as_uri())
    return browser


def test_the_report_opens_offline_and_its_chunks_tile_every_file(report_repo, tmp_path, browsers):
    out = tmp_path / "report.html"
    done = run_cli("report", str(report_repo), "-o", str(out), "--max-size", "60,120", "-q")
    assert done.returncode == 0, done.stderr
    assert f"Wrote {out}" in done.stderr
    browser = open_offline(out)
    browsers.append(browser)
    browser.pump()
    assert all(url.startswith(("file://", "data:")) for url in browser.requests), browser.requests
    errors = [entry for entry in browser.driver.get_log("browser") if entry["level"] == "SEVERE"]
    assert errors == []
    assert browser.driver.execute_script("return window.pwned") is None  # file content is text, never markup

    files = browser.driver.execute_script("""
        return Array.from(document.querySelectorAll('article.file'), (file) => ({
          path: file.dataset.path,
          blocks: Array.from(file.querySelectorAll('.first-side .chunk'),
                             (c) => [c.querySelector('pre.code').textContent, +c.dataset.start, +c.dataset.end]),
        }));""")
    assert sorted(f["path"] for f in files) == ["parsing.py", "storage.py", "tricky.py"]
    for file in files:
        source = (report_repo / file["path"]).read_bytes().decode("utf-8")
        chunks = list(explorer.chunk_file(str(report_repo / file["path"]), max_size=80))
        assert len(file["blocks"]) == len(chunks) > 1 or file["path"] == "tricky.py"
        assert "".join(text for text, _, _ in file["blocks"]) == source  # exactly, CR LF and all
        edges = [(start, end) for _, start, end in file["blocks"]]
        assert edges[0][0] == 0 and edges[-1][1] == len(source)
        assert all(a[1] == b[0] for a, b in zip(edges, edges[1:]))
        assert edges == [(c.char_range.start, c.char_range.end) for c in chunks]

    # The compare's second side (lines) tiles the file too, drawn in the page from its offsets.
    for file in ("parsing.py", "tricky.py"):
        texts = browser.driver.execute_script(f"""
            const file = document.querySelector('article.file[data-path="{file}"]');
            file.querySelector('button.toggle').click();
            return Array.from(file.querySelectorAll('.second-side pre.code'), (pre) => pre.textContent);""")
        lines = list(explorer.chunk_file(str(report_repo / file), max_size=80, strategy="lines"))
        assert len(texts) == len(lines)
        assert "".join(texts) == (report_repo / file).read_bytes().decode("utf-8")


def test_the_evaluations_intervals_are_drawn_to_scale(report_repo, tmp_path, browsers):
    out = tmp_path / "report.html"
    done = run_cli("report", str(report_repo), "-o", str(out), "--max-size", "60,120,400", "-q")
    assert done.returncode == 0, done.stderr
    browser = open_offline(out)
    browsers.append(browser)
    for name in FIGURE_METRICS:
        key = name.replace("@", "-")
        drawn = browser.driver.execute_script(f"""
            return Array.from(document.querySelectorAll('#intervals-{key} path'), (p) => p.getBBox().width);""")
        cells = browser.driver.execute_script(f"""
            return Array.from(document.querySelectorAll('td.metric[data-metric="{name}"]'),
                              (td) => [+td.dataset.low, +td.dataset.high]);""")
        assert len(drawn) == len(cells) == 3, name
        spans = [high - low for low, high in cells]
        widest = max(range(3), key=lambda k: spans[k])
        assert spans[widest] > 0
        for width, span in zip(drawn, spans):
            # Every interval's line is as long as its interval, on one scale per measure.
            assert width / drawn[widest] == pytest.approx(span / spans[widest], abs=0.02), name
    fronts = browser.driver.execute_script("return document.querySelectorAll('[id^=\"front-\"]').length")
    assert fronts == 3  # the front of recall@5 against each cost


def test_the_walkthrough_steps_with_the_keyboard(report_repo, tmp_path, browsers):
    from selenium.webdriver.common.keys import Keys

    target = report_repo / "parsing.py"
    out = tmp_path / "teach.html"
    done = run_cli("report", "--teach", str(target), "-o", str(out), "--max-size", "60")
    assert done.returncode == 0, done.stderr
    steps = list(trace(str(target), target.read_bytes(), max_size=60))
    browser = open_offline(out, 1000, 500)  # a window shorter than the file: its box scrolls
    browsers.append(browser)
    body = browser.driver.find_element("css selector", "body")
    for _ in range(5):
        body.send_keys(Keys.ARROW_RIGHT)
    shown = browser.driver.execute_script("""
        return [document.getElementById('teach-where').textContent,
                document.getElementById('teach-sentence').textContent,
                Array.from(document.querySelectorAll('#teach-code span.now'), (s) => s.textContent).join(''),
                document.getElementById('teach-code').textContent];""")
    where, sentence, piece, code = shown
    step = steps[5]
    assert where.startswith(f"step 6 of {len(steps)}")
    assert sentence == step.sentence.replace("`", "")
    source = target.read_bytes()
    assert piece == source[step.piece.start:step.piece.end].decode()
    assert code == target.read_text()
    page_at = browser.driver.execute_script("return window.scrollY")
    body.send_keys(Keys.END)
    where = browser.driver.execute_script("return document.getElementById('teach-where').textContent")
    assert where.startswith(f"step {len(steps)} of {len(steps)}")
    # Back to the last step with a piece: the source box scrolled to it; the page did not move
    # (the step's bar and sentence stay in view).
    last_piece = max(k for k, s in enumerate(steps) if s.piece is not None and s.piece.end > s.piece.start)
    for _ in range(len(steps) - 1 - last_piece):
        body.send_keys(Keys.ARROW_LEFT)
    assert browser.driver.execute_script("return window.scrollY") == page_at
    seen = browser.driver.execute_script("""
        const box = document.querySelector('.teach-source').getBoundingClientRect();
        const now = document.querySelector('#teach-code span.now');
        const at = now.getBoundingClientRect();
        return [document.querySelector('.teach-source').scrollTop, at.top >= box.top && at.top < box.bottom];""")
    assert seen[0] > 0 and seen[1]
    closed = sum(1 for s in steps if s.chunk is not None)
    coloured = browser.driver.execute_script(
        "return new Set(Array.from(document.querySelectorAll('#teach-code span[class^=\"c\"]'), s => s.className)).size")
    assert coloured == min(closed, 8)  # every chunk done in a colour of its own (eight in turn)

