"""The build's one optional step: `BLACKPOKER_COMPILED=1 pip install .` compiles the engine's
hot modules to C with mypyc (docs/engine.md, "The compiled engine"). Without it the package
is pure Python. The Python sources ship either way, and Python prefers a compiled module
beside its source, so removing the compiled files falls back to the pure engine.

This file is also the build backend (pyproject.toml: `build-backend = "setup"`): setuptools'
own, which asks for mypy as well when the build is compiled, so that the one command works
in a fresh virtual environment (pip installs mypy in the build's isolated environment).
Imported as the backend it only names the hooks; setuptools runs it as a script to build.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.build_meta import *  # noqa: F403  (the backend's hooks; two are replaced below)

# What a compiled build needs besides setuptools: mypyc ships with mypy. The modules it compiles
# import the standard library and the package only, so no other types are needed.
COMPILED_NEEDS = ["mypy>=1.10"]

HERE = Path(__file__).resolve().parent
# The modules every decision runs through: the engine, less its exceptions (mypyc cannot
# compile a subclass of a built-in exception), the key-card matching it calls, the rule
# set's classes it reads (model.py, and the effects' nodes, program.py; compiled, their
# attributes are read as C fields),
# self-play's loop with the agents' protocol and the random agent (loop.py, agents.py), and
# the search agent's (search.py, the greedy agent it plays ahead with, the value of what it reaches).
COMPILED = sorted(
    [
        *(f"runtime/engine/{p.name}" for p in (HERE / "runtime" / "engine").glob("*.py")),
        "runtime/play/agents.py",
        "runtime/play/features.py",
        "runtime/play/greedy.py",
        "runtime/play/loop.py",
        "runtime/play/search.py",
        "runtime/rules/cards.py",
        "runtime/rules/frozen.py",
        "runtime/rules/keyspec.py",
        "runtime/rules/matcher.py",
        "runtime/rules/model.py",
        "runtime/rules/program.py",
    ]
)
PURE = {"runtime/engine/__init__.py", "runtime/engine/errors.py"}


def compiled_extensions() -> list[object]:
    """mypyc's extensions for the COMPILED modules, named as installed (`blackpoker.…`): the
    top-level folders are the package's subpackages, so mypyc reads them through a
    `blackpoker` link to this folder inside its build folder."""
    try:
        from mypyc.build import mypycify
    except ImportError:
        raise SystemExit(
            "BLACKPOKER_COMPILED=1 needs mypy (mypyc ships with it): `pip install .` installs it in "
            "the build's own environment; with --no-build-isolation, pip install mypy first"
        ) from None

    base = HERE / "build" / "mypyc-src"
    base.mkdir(parents=True, exist_ok=True)
    link = base / "blackpoker"
    if not link.is_symlink():
        link.symlink_to(HERE, target_is_directory=True)
    os.environ["MYPYPATH"] = str(base.relative_to(HERE))
    paths = [str((link / module).relative_to(HERE)) for module in COMPILED if module not in PURE]
    return list(mypycify(["--explicit-package-bases", *paths], opt_level="3"))


def _compiled() -> bool:
    return os.environ.get("BLACKPOKER_COMPILED") == "1"


# What a build needs beyond pyproject.toml's `requires` (this file has no setup_requires, so
# setuptools' hooks, which run it to find them, would add nothing).
def get_requires_for_build_wheel(config_settings: dict[str, Any] | None = None) -> list[str]:
    return COMPILED_NEEDS if _compiled() else []


def get_requires_for_build_editable(config_settings: dict[str, Any] | None = None) -> list[str]:
    return COMPILED_NEEDS if _compiled() else []


if __name__ == "__main__":  # run by setuptools to build; not when imported as the backend
    setup(ext_modules=compiled_extensions() if _compiled() else [])
