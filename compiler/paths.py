"""Names of files as the user gives and reads them. Free of the parser packages, so that what
only names files (the write plan, a run's rule source, a cache hit) loads none of them."""

from __future__ import annotations

import os
from pathlib import Path

INDEX = "editions.yaml"  # the registry of the built-in editions, in actionlists/


def is_path(name: str) -> bool:
    """A name of an edition or local rule that is a file's path rather than an id."""
    return "/" in name or os.sep in name or name.endswith((".yaml", ".yml"))


def display(path: Path) -> str:
    """A path as the user would type it: relative to the working folder when inside it."""
    try:
        relative = os.path.relpath(path)
    except ValueError:
        return str(path)
    return str(path) if relative.startswith("..") else relative
