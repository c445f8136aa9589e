"""Shared fixtures: the repository layout and the seed documents beside it; a `blackpoker
serve` server per test module (serve_support.py) and the browser tests' headless Chromium
(browser_support.py), whose modules are imported only by the tests that ask for them."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from browser_support import Watched
    from serve_support import Running

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"


@pytest.fixture(scope="session")
def seeds() -> Path:
    folder = SHARED / "seeds"
    if not folder.is_dir():
        pytest.skip("the shared seed documents (../shared/seeds) are not beside this checkout")
    return folder


@pytest.fixture(scope="session", autouse=True)
def _own_ruleset_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The commands the tests run (in this process and in subprocesses) keep compiled rule sets
    in a folder of the test run, never in the user's cache."""
    from blackpoker.compiler.cache import CACHE_DIR

    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(CACHE_DIR, str(tmp_path_factory.mktemp("ruleset-cache")))
        yield


@pytest.fixture(scope="module")
def server() -> Iterator[Running]:
    """`blackpoker serve` with its defaults, one per test module."""
    from serve_support import running

    with running() as found:
        yield found


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    from browser_support import launched

    with launched() as browser:
        yield browser


@pytest.fixture
def watched(chromium: Any) -> Iterator[Watched]:
    """A page of its own (desktop size) in the module's Chromium."""
    from browser_support import Watched

    page = Watched(chromium)
    yield page
    page.close()


@pytest.fixture
def phone(chromium: Any) -> Iterator[Watched]:
    """A page of its own at a phone's size in the module's Chromium."""
    from browser_support import PHONE, Watched

    page = Watched(chromium, PHONE)
    yield page
    page.close()


@pytest.fixture
def seat(chromium: Any, viewport: dict[str, int]) -> Iterator[Watched]:
    """A page of its own at the size the test is parametrised with (`viewport`)."""
    from browser_support import Watched

    page = Watched(chromium, viewport)
    yield page
    page.close()


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A Chromium context of the module, whose pages open the built files (site_support.Watched)."""
    from browser_support import CHROMIUM, FLAGS, sync_api

    profile = tmp_path_factory.mktemp("chromium-profile")  # a fresh --user-data-dir
    with sync_api.sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(profile),
            executable_path=CHROMIUM,
            headless=True,  # Playwright passes --headless
            args=FLAGS,
            viewport={"width": 1280, "height": 900},
        )
        yield context
        context.close()
