"""The build's one optional step: `BLACKPOKER_COMPILED=1 pip install .` compiles the engine's
hot modules to C with mypyc (docs/engine.md, "The compiled engine"). Without it the package
is pure Python. The Python sources ship either way, and Python prefers a compiled module
beside its source, so removing the compiled files falls back to the pure engine.
"""

from __future__ import annotations

import os
from pathlib import Path

from setuptools import setup

HERE = Path(__file__).resolve().parent
# The modules every decision runs through: the engine, less its exceptions (mypyc cannot
# compile a subclass of a built-in exception), the key-card matching it calls, and the rule
# set's classes it reads (model.py; compiled, their attributes are read as C fields).
COMPILED = sorted(
    [
        *(f"runtime/engine/{p.name}" for p in (HERE / "runtime" / "engine").glob("*.py")),
        "runtime/rules/cards.py",
        "runtime/rules/frozen.py",
        "runtime/rules/keyspec.py",
        "runtime/rules/matcher.py",
        "runtime/rules/model.py",
    ]
)
PURE = {"runtime/engine/__init__.py", "runtime/engine/errors.py"}


def compiled_extensions() -> list[object]:
    """mypyc's extensions for the COMPILED modules, named as installed (`blackpoker.…`): the
    top-level folders are the package's subpackages, so mypyc reads them through a
    `blackpoker` link to this folder inside its build folder."""
    from mypyc.build import mypycify

    base = HERE / "build" / "mypyc-src"
    base.mkdir(parents=True, exist_ok=True)
    link = base / "blackpoker"
    if not link.is_symlink():
        link.symlink_to(HERE, target_is_directory=True)
    os.environ["MYPYPATH"] = str(base.relative_to(HERE))
    paths = [str((link / module).relative_to(HERE)) for module in COMPILED if module not in PURE]
    return list(mypycify(["--explicit-package-bases", *paths], opt_level="3"))


setup(ext_modules=compiled_extensions() if os.environ.get("BLACKPOKER_COMPILED") == "1" else [])
