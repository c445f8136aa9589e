"""Shared fixtures: the repository layout and the seed documents beside it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

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
