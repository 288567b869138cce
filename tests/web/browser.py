"""Headless Chromium for the tests of the served explorer and of the report.

Debian's ``chromium`` and ``chromium-driver`` (``.ci/run`` installs them), driven by Selenium
with the flags that work as root in a container. The served explorer draws on a canvas
(xterm.js), so the screen is read back from what the browser itself received: the
websocket frames in Chromium's performance log, fed to a terminal emulator (pyte) of the
size the page asked for.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import tempfile
import time
from collections.abc import Callable
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
DRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage")


def chromium_missing() -> str | None:
    """Why the browser tests cannot run here, or None."""
    if not (os.access(CHROMIUM, os.X_OK) and os.access(DRIVER, os.X_OK)):
        return "headless Chromium is not installed (apt-get install chromium chromium-driver; .ci/run does)"
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -c constraints.txt -e '.[dev]')"
    return None


#: CI (``.ci/run``) sets this: there a missing browser fails the tests instead of skipping them.
REQUIRED = os.environ.get("CHUNK_EXPLORER_BROWSER_TESTS") == "required"

needs_chromium = pytest.mark.skipif(chromium_missing() is not None and not REQUIRED, reason=chromium_missing() or "")


class Browser:
    """One headless Chromium window, with its own profile folder (removed on close)."""

    def __init__(self, width: int = 1280, height: int = 800):
        missing = chromium_missing()
        if missing is not None:  # only reached where the browser is required (CI)
            raise AssertionError(f"CHUNK_EXPLORER_BROWSER_TESTS=required, but {missing}")
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service

        self.profile = tempfile.mkdtemp(prefix="chunk-explorer-chromium-")
        options = webdriver.ChromeOptions()
        for flag in FLAGS:
            options.add_argument(flag)
        options.add_argument(f"--window-size={width},{height}")
        options.add_argument(f"--user-data-dir={self.profile}")
        options.binary_location = CHROMIUM
        options.set_capability("goog:loggingPrefs", {"performance": "ALL", "browser": "ALL"})
        self.driver = webdriver.Chrome(options=options, service=Service(DRIVER))
        self.requests: list[str] = []
        self.screen: Any = None  # a pyte Screen once the page sent its size
        self._stream: Any = None

    def close(self) -> None:
        try:
            self.driver.quit()
        finally:
            shutil.rmtree(self.profile, ignore_errors=True)

    def offline(self) -> None:
        """No network from now on (the page must not need it)."""
        self.driver.execute_cdp_cmd("Network.enable", {})
        self.driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
            "offline": True, "latency": 0, "downloadThroughput": 0, "uploadThroughput": 0})

    # -- what the browser received --------------------------------------------------------------
    def pump(self) -> None:
        """Read the performance log: requests made, and the websocket's frames into the screen."""
        import pyte

        for entry in self.driver.get_log("performance"):
            message = json.loads(entry["message"])["message"]
            method, params = message["method"], message.get("params", {})
            if method == "Network.requestWillBeSent":
                url = params["request"]["url"]
                if not url.startswith(("chrome://", "chrome-untrusted://", "about:")):  # the browser's own pages
                    self.requests.append(url)
            elif method == "Network.webSocketCreated":
                self.requests.append(params["url"])
            elif method == "Network.webSocketFrameSent":
                payload = params["response"]["payloadData"]
                if payload.startswith('["resize"'):
                    size = json.loads(payload)[1]
                    if self.screen is None:
                        self.screen = pyte.Screen(size["width"], size["height"])
                        self._stream = pyte.ByteStream(self.screen)
                    else:
                        self.screen.resize(size["height"], size["width"])
            elif method == "Network.webSocketFrameReceived":
                response = params["response"]
                if response["opcode"] == 2 and self._stream is not None:
                    self._stream.feed(base64.b64decode(response["payloadData"]))

    def text(self) -> str:
        """The terminal's screen, as the browser's last frames left it."""
        self.pump()
        return "" if self.screen is None else "\n".join(self.screen.display)

    def wait_for(self, wanted: str | Callable[[str], bool], timeout: float = 60.0) -> str:
        """The screen once it shows ``wanted`` (or makes it true); fails with the screen shown."""
        check = (lambda screen: wanted in screen) if isinstance(wanted, str) else wanted
        deadline = time.monotonic() + timeout
        screen = ""
        while time.monotonic() < deadline:
            screen = self.text()
            if check(screen):
                return screen
            time.sleep(0.2)
        raise AssertionError(f"the screen never showed {wanted!r}; it shows:\n{screen}")

    # -- typing ------------------------------------------------------------------------------------
    def press(self, *keys: str, pause: float = 0.15) -> None:
        """Type into the terminal (xterm.js reads its hidden text area): text, or Selenium's Keys."""
        from selenium.webdriver.common.by import By

        area = self.driver.find_element(By.CSS_SELECTOR, "textarea.xterm-helper-textarea")
        for key in keys:
            area.send_keys(key)
            time.sleep(pause)
