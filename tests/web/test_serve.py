"""``chunk-explorer serve`` in headless Chromium: keys pressed in the page reach the
visitor's own explorer and the screen comes back; two browsers get two apps; exports land only in the named folder; the apps die with the
server, however it is killed; the page loads nothing from elsewhere."""

from __future__ import annotations

import json
import signal
import time

import pytest

from .browser import Browser, needs_chromium
from .conftest import alive, start_server, status_of, stop_server

pytestmark = needs_chromium


def open_greeter(browser: Browser) -> str:
    """Find greeter.py with / and open it, as a visitor would."""
    from selenium.webdriver.common.keys import Keys

    browser.wait_for("Pick a file in the tree")
    browser.press("/")
    browser.press("greeter")
    browser.wait_for("greeter.py")
    browser.press(Keys.ENTER)
    return browser.wait_for(lambda screen: "def greet(name)" in screen)


def test_keys_in_the_page_drive_the_visitors_own_explorer(served, browsers):
    from selenium.webdriver.common.keys import Keys

    first = Browser()
    browsers.append(first)
    first.driver.get(served.url)
    screen = open_greeter(first)
    assert "class Greeter" in screen
    first.press("t")
    first.wait_for("step 1 of")
    first.press(Keys.ARROW_RIGHT, Keys.ARROW_RIGHT, Keys.ARROW_RIGHT)
    screen = first.wait_for("step 4 of")
    assert "greeter.py" in screen

    # A second browser, at the same time, gets an app of its own: nothing open there.
    second = Browser()
    browsers.append(second)
    second.driver.get(served.url)
    assert "Pick a file in the tree" in second.wait_for("Pick a file in the tree")
    assert len(served.children()) == 2
    # ... and the first one is where it was.
    first.press(Keys.ARROW_RIGHT)
    assert "step 5 of" in first.wait_for("step 5 of")
    assert "step" not in second.text()


def test_the_page_needs_nothing_from_elsewhere(served, browsers):
    browser = Browser()
    browsers.append(browser)
    browser.driver.get(served.url)
    browser.wait_for("Pick a file in the tree")
    origin = served.origin
    ws_origin = "ws" + origin[4:]
    assert browser.requests
    assert all(url.startswith((origin, ws_origin, "data:")) for url in browser.requests), browser.requests
    # The terminal's font is the one served from here, loaded.
    assert browser.driver.execute_script("return document.fonts.check('16px \"Roboto Mono\"')")
    assert any(url.endswith("RobotoMono-VariableFont_wght.ttf") for url in browser.requests)


def test_a_page_can_open_a_file_under_path(served, browsers):
    browser = Browser()
    browsers.append(browser)
    browser.driver.get(served.url + "&open=pkg/greeter.py")
    assert "class Greeter" in browser.wait_for("def greet(name)")


def test_export_writes_only_into_the_named_folder(served, browsers, repository):
    from selenium.webdriver.common.keys import Keys

    out = repository.parent / "out"
    browser = Browser()
    browsers.append(browser)
    browser.driver.get(served.url + "&open=pkg/greeter.py")
    browser.wait_for("def greet(name)")
    browser.press("e")
    browser.wait_for("Export chunks")
    # A path outside the folder is refused in the dialog ...
    browser.press(Keys.CONTROL + "a", Keys.CONTROL + "k")
    browser.press(str(repository / "pkg" / "mine.chunks.json"), Keys.ENTER)
    browser.wait_for("outside the folder this served")
    assert not (repository / "pkg" / "mine.chunks.json").exists()
    # ... the proposal, in it, is written.
    browser.press(Keys.CONTROL + "a", Keys.CONTROL + "k")
    browser.press("greeter.chunks.json", Keys.ENTER)
    deadline = time.monotonic() + 30
    while not (out / "greeter.chunks.json").exists() and time.monotonic() < deadline:
        time.sleep(0.2)
    record = json.loads((out / "greeter.chunks.json").read_text())
    assert record["files"][0]["path"].endswith("greeter.py")
    written = sorted(p.name for p in out.rglob("*") if p.is_file())
    assert written == ["greeter.chunks.json"]
    assert sorted(p.name for p in repository.rglob("*")) == ["greeter.py", "leak.py", "pkg", "util.py"]


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM])
def test_apps_die_with_the_server_whatever_kills_it(repository, browsers, sig):
    server = start_server(repository)
    try:
        browser = Browser()
        browsers.append(browser)
        browser.driver.get(server.url)
        browser.wait_for("Pick a file in the tree")
        children = server.children()
        assert len(children) == 1
        server.process.send_signal(sig)
        server.process.wait(15)
        deadline = time.monotonic() + 10
        while any(alive(pid) for pid in children) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not [pid for pid in children if alive(pid)]
    finally:
        stop_server(server)


def test_teach_flag_starts_every_visitor_in_teach_mode(repository, browsers):
    server = start_server(repository, "--teach", str(repository / "pkg" / "greeter.py"))
    try:
        browser = Browser()
        browsers.append(browser)
        browser.driver.get(server.url)
        screen = browser.wait_for("step 1 of")
        assert "greeter.py" in screen
        assert "Syntax tree" not in screen  # the presentation layout: the source and the step, large
    finally:
        stop_server(server)


def test_visitors_beyond_the_cap_are_told_to_wait(repository, browsers):
    server = start_server(repository, "--max-visitors", "1")
    try:
        browser = Browser()
        browsers.append(browser)
        browser.driver.get(server.url)
        browser.wait_for("Pick a file in the tree")
        code, text = status_of(server.url)
        assert code == 503 and "full" in text
    finally:
        stop_server(server)
