"""The rules engine: game state, the core flow, effect programs and legal options."""

from importlib.machinery import EXTENSION_SUFFIXES
from importlib.util import find_spec
from pkgutil import iter_modules


def engine_build() -> str:
    """How this engine is installed: its modules compiled with mypyc (setup.py, docs/engine.md;
    some, such as its exceptions, always stay Python) or all pure Python. Each module is looked
    up where Python would import it from, without importing it, so `blackpoker --version`
    stays quick; a module counts as compiled when that is a C extension."""
    names = [module.name for module in iter_modules(__path__)]
    origins = [getattr(find_spec(f"{__name__}.{name}"), "origin", None) or "" for name in names]
    compiled = sum(origin.endswith(tuple(EXTENSION_SUFFIXES)) for origin in origins)
    if not compiled:
        return "pure Python"
    return f"compiled with mypyc, {compiled} of {len(names)} modules"
