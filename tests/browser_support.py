"""Debian chromium driven by the Python `playwright` package (never `playwright install`), for
the tests that load pages in a real browser. Importing this module skips the importing test
module, naming what is missing, when chromium or playwright is absent (CI installs both)."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
if CHROMIUM is None:
    pytest.skip("Debian chromium is not installed (apt-get install chromium)", allow_module_level=True)
sync_api = pytest.importorskip(
    "playwright.sync_api", reason="the playwright package is not installed (pip install playwright)"
)

FLAGS = [  # headless in a container, and nothing fetched from the network on its own
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@contextmanager
def launched() -> Iterator[Any]:
    """A headless Chromium, closed on leaving."""
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        yield browser
        browser.close()


DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}


class Watched:
    """A page in its own browser context that records console errors, uncaught exceptions and
    every response it receives."""

    def __init__(self, chromium: Any, viewport: dict[str, int] = DESKTOP) -> None:
        self.context = chromium.new_context(viewport=viewport)
        self.page = self.context.new_page()
        self.problems: list[str] = []
        self.responses: list[Any] = []
        self.page.on("console", lambda m: m.type == "error" and self.problems.append(f"console: {m.text}"))
        self.page.on("pageerror", lambda e: self.problems.append(f"exception: {e}"))
        self.context.on("response", lambda r: self.responses.append(r))

    def json_answers(self) -> list[Any]:
        found = []
        for response in self.responses:
            if (response.headers.get("content-type") or "").startswith("application/json"):
                found.append(json.loads(response.body()))
        return found

    def close(self) -> None:
        self.context.close()
