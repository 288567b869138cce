"""Screenshots of the served explorer and of the HTML report, taken in headless Chromium.

    python scripts/screenshots_web.py [--out screenshots]

Writes PNG files: the explorer served to a browser (teach mode on the engine's chunker),
the report of the standard library's ``json`` package (its evaluation and a file's chunks),
and the teach walkthrough page. Needs Debian's chromium and chromium-driver, and the dev
extras (selenium).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tests.web.browser import Browser  # noqa: E402


def served(out: Path) -> None:
    from selenium.webdriver.common.keys import Keys

    with tempfile.TemporaryDirectory() as writes:
        server = subprocess.Popen(
            [sys.executable, "-m", "explorer", "serve", "explorer", "--port", "0", "--write-to", writes,
             "--max-size", "400"],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=REPO,
            env={**os.environ, "PYTHONPATH": str(REPO)})
        try:
            url = re.search(r"http://\S+", server.stdout.readline()).group(0)  # type: ignore[union-attr]
            browser = Browser(1500, 900)
            try:
                browser.driver.get(url + "&open=engine/fit.py")
                browser.wait_for("Served: files are read only")
                browser.wait_for(lambda s: "Notification" not in s and "Served:" not in s, timeout=30)
                browser.press("t")
                browser.wait_for("step 1 of")
                browser.press(*([Keys.ARROW_RIGHT] * 14))
                browser.wait_for("step 15 of")
                time.sleep(1.0)
                browser.driver.save_screenshot(str(out / "served-teach.png"))
            finally:
                browser.close()
        finally:
            server.terminate()
            server.wait(20)


def report(out: Path) -> None:
    with tempfile.TemporaryDirectory() as folder:
        page = Path(folder) / "json.html"
        settings = Path(folder) / "settings.toml"  # smaller chunks than the default: more colours in a screen
        settings.write_text("[chunk]\nmax_size = 400\n")
        subprocess.run([sys.executable, "-m", "explorer", "report", os.path.dirname(json.__file__), "-o", str(page),
                        "--settings", str(settings), "--max-size", "200,400,1000", "-q"], check=True, cwd=REPO,
                       env={**os.environ, "PYTHONPATH": str(REPO)})
        browser = Browser(1500, 1000)
        try:
            browser.offline()
            browser.driver.get(page.as_uri())
            for name, anchor in (("report-evaluation.png", "evaluation"), ("report-tradeoff.png", "tradeoff"),
                                 ("report-files.png", "f1-c2")):
                browser.driver.execute_script(f"document.getElementById('{anchor}').scrollIntoView()")
                time.sleep(0.4)
                browser.driver.save_screenshot(str(out / name))
        finally:
            browser.close()
        teach = Path(folder) / "teach.html"
        subprocess.run([sys.executable, "-m", "explorer", "report", "--teach",
                        os.path.join(os.path.dirname(json.__file__), "scanner.py"), "--max-size", "300", "-o",
                        str(teach)], check=True, cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO)})
        browser = Browser(1300, 850)
        try:
            browser.driver.get(teach.as_uri())
            body = browser.driver.find_element("css selector", "body")
            for _ in range(12):
                body.send_keys("l")
            time.sleep(0.3)
            browser.driver.save_screenshot(str(out / "report-teach.png"))
        finally:
            browser.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default=str(REPO / "screenshots"))
    out = Path(parser.parse_args().out)
    out.mkdir(exist_ok=True)
    served(out)
    report(out)
    print(f"wrote {', '.join(sorted(p.name for p in out.glob('served-*.png')) + sorted(p.name for p in out.glob('report-*.png')))}")


if __name__ == "__main__":
    main()
