"""Pickling of the frozen dataclasses the engine's build compiles with mypyc (setup.py)."""

from __future__ import annotations

from dataclasses import fields
from typing import Any


def rebuilt(value: Any) -> tuple[Any, ...]:
    """`__reduce__` of a frozen dataclass: made again from its fields on arrival. A
    dataclass's own pickling sets each field on an empty instance, which a frozen class
    compiled with mypyc refuses (FrozenInstanceError), so `--jobs` and `--cluster` need this."""
    return type(value), tuple(getattr(value, f.name) for f in fields(value) if f.init)
