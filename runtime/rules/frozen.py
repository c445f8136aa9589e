"""Pickling of the frozen dataclasses the engine's build compiles with mypyc (setup.py)."""

from __future__ import annotations

from dataclasses import fields
from typing import Any


def rebuilt(value: Any) -> tuple[Any, ...]:
    """`__reduce__` of a frozen dataclass: made again from its fields on arrival. A
    dataclass's own pickling sets each field on an empty instance, which a frozen class
    compiled with mypyc refuses (FrozenInstanceError), so `--jobs` and `--cluster` need this."""
    return type(value), tuple(getattr(value, f.name) for f in fields(value) if f.init)


def rebuilt_by_name(value: Any) -> tuple[Any, ...]:
    """`rebuilt`, for a class whose fields are keyword-only (the program nodes)."""
    return made, (type(value), {f.name: getattr(value, f.name) for f in fields(value) if f.init})


def made(cls: type[Any], values: dict[str, Any]) -> Any:
    """An instance of `cls` from its fields by name: what `rebuilt_by_name` pickles."""
    return cls(**values)
