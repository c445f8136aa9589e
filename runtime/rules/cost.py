"""Cost IR: a multiset of payment units such as B, D and L.

Which units an edition uses is edition data (cost_units); this module only knows
the letters the notation can spell.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import ClassVar

# Every unit letter any edition uses (C: a trump list's cause). cost.lark spells the same
# set, and the engine has a payment rule for each (a test checks both).
UNITS: tuple[str, ...] = ("B", "C", "D", "L", "S")
# C is paid by the drive of the character that causes the request (起因): only an action with
# `caused_by` may have it, once.
CAUSE = "C"


@dataclass(frozen=True, slots=True)
class Cost:
    """Payment units, kept sorted so that equal multisets are equal values ("BLB" is "BBL")."""

    units: tuple[str, ...] = ()

    NONE: ClassVar[Cost]

    def __post_init__(self) -> None:
        unknown = sorted(set(self.units) - set(UNITS))
        if unknown:
            raise ValueError(f"unknown payment unit(s) {unknown}; units are {', '.join(UNITS)}")
        object.__setattr__(self, "units", tuple(sorted(self.units)))

    def counts(self) -> dict[str, int]:
        """How many of each unit, e.g. {"B": 2, "L": 1} for BBL."""
        return dict(Counter(self.units))

    def __str__(self) -> str:
        return "".join(self.units)


Cost.NONE = Cost()
