"""Shared fixtures: the repository layout and the seed documents beside it."""

from __future__ import annotations

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
