"""The rules engine: game state, the core flow, effect programs and legal options."""

from importlib.util import find_spec


def engine_build() -> str:
    """How this engine was installed: compiled with mypyc (setup.py, docs/engine.md) or pure
    Python. Looked up without importing the engine, so `blackpoker --version` stays quick."""
    spec = find_spec(f"{__name__}.game")
    compiled = spec is not None and spec.origin is not None and not spec.origin.endswith(".py")
    return "compiled with mypyc" if compiled else "pure Python"
