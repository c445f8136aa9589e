"""The payment units of the cost notation: the one place their letters get meaning.

An edition declares which units it uses (`cost_units`); each letter the notation spells
(`rules.cost.UNITS`, which a test keeps equal to this registry) has one implementation
here that lists the ways a player can pay it now, pays it through the state transitions,
and says in words why a written payment cannot pay it.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from types import MappingProxyType
from typing import TYPE_CHECKING, Final

from blackpoker.runtime.engine import transitions as t
from blackpoker.runtime.engine.options import Payment, distinct_values, sort_cards
from blackpoker.runtime.engine.refusals import Said, say
from blackpoker.runtime.engine.state import Unit
from blackpoker.runtime.engine.triggers import happened
from blackpoker.runtime.engine.zones import card, order
from blackpoker.runtime.rules.cards import Card
from blackpoker.runtime.rules.cost import CAUSE
from blackpoker.runtime.rules.model import Combat
from blackpoker.runtime.rules.program import Event

if TYPE_CHECKING:
    from blackpoker.runtime.engine.table import Table

Ways = Sequence[tuple[Payment, ...]]


@dataclass
class Spent:
    """What a written payment has left to pay with, consumed part by part: the hand without
    the key cards, and the characters not yet named by an earlier part."""

    who: str  # the paying player, as messages name them
    keys: tuple[Card, ...]
    hand: list[Card]
    named: list[Unit] = field(default_factory=list)


class PaymentUnit(ABC):
    """One letter of the cost notation."""

    letter: str = ""
    uses_hand = False  # its ways depend on the cards the key cards leave in the hand

    def constant(self, n: int) -> tuple[Payment, ...] | None:
        """The only way to pay `n` of it when that never depends on the position, else None."""
        return None

    @abstractmethod
    def ways(self, g: Table, p: int, n: int, rest: tuple[int, ...]) -> Ways:
        """Each way player `p` can pay `n` of it now; `rest` is the hand left after key cards."""

    @abstractmethod
    def pay(self, g: Table, p: int, cid: int | None) -> None:
        """Pay one of it (the card a payment names, if any)."""

    @abstractmethod
    def refusal(self, g: Table, p: int, paid: Card | None, spent: Spent) -> Said | None:
        """Why `paid` cannot pay one of it, or None after taking it from `spent`."""


class Life(PaymentUnit):
    """L: take 1 damage."""

    letter = "L"

    def constant(self, n: int) -> tuple[Payment, ...]:
        return (("L", None),) * n

    def ways(self, g: Table, p: int, n: int, rest: tuple[int, ...]) -> Ways:
        return [self.constant(n)]

    def pay(self, g: Table, p: int, cid: int | None) -> None:
        t.damage(g.state, p, 1)

    def refusal(self, g: Table, p: int, paid: Card | None, spent: Spent) -> Said | None:
        return None if paid is None else say("life names no card", card=str(paid))


class Discard(PaymentUnit):
    """D: discard a card left in the hand (not a key card); equal cards (two Jokers) count once."""

    letter = "D"
    uses_hand = True

    def ways(self, g: Table, p: int, n: int, rest: tuple[int, ...]) -> Ways:
        cache = g.rules.discard_ways
        found = cache.get((n, rest))
        return cache.put((n, rest), _discards(n, rest)) if found is None else found

    def pay(self, g: Table, p: int, cid: int | None) -> None:
        assert cid is not None
        t.move_card(g.state, cid, t.GRAVEYARD)
        happened(g, Event.DISCARDED, p, [cid])

    def refusal(self, g: Table, p: int, paid: Card | None, spent: Spent) -> Said | None:
        if paid is None:
            return say("discard needs card", who=spent.who)
        if paid not in spent.hand:
            if paid in spent.keys:
                return say("discard is key", card=str(paid))
            return say("discard not in hand", card=str(paid), who=spent.who)
        spent.hand.remove(paid)
        return None


def _discards(n: int, rest: tuple[int, ...]) -> tuple[tuple[Payment, ...], ...]:
    """Each choice of `n` cards of `rest` by values, a value's first card, in canonical order."""
    if n == 1:  # the common cost: one card per value, no combinations to weed out
        return tuple((("D", c),) for c in distinct_values(rest))
    return discards_by_value(n, rest)


def discards_by_value(n: int, rest: tuple[int, ...]) -> tuple[tuple[Payment, ...], ...]:
    """`_discards` for any `n`: every combination of cards, the first of each set of values."""
    seen: set[tuple[int, ...]] = set()
    choices = []
    for combo in combinations(sort_cards(rest), n):
        values = tuple(order(c) for c in combo)
        if values not in seen:
            seen.add(values)
            choices.append(tuple(("D", c) for c in combo))
    return tuple(choices)


class Cause(PaymentUnit):
    """C: the character that causes the request (its 起因) drives. A caused request drives that
    character as it is made (flow.request), so paying C takes nothing more; the compiler allows
    C only once, on an action with `caused_by`."""

    letter = CAUSE

    def constant(self, n: int) -> tuple[Payment, ...]:
        return (("C", None),) * n

    def ways(self, g: Table, p: int, n: int, rest: tuple[int, ...]) -> Ways:
        return [self.constant(n)]

    def pay(self, g: Table, p: int, cid: int | None) -> None:
        """Nothing: the request drove its causing character already."""

    def refusal(self, g: Table, p: int, paid: Card | None, spent: Spent) -> Said | None:
        return None if paid is None else say("cause names no card", card=str(paid))


class OwnCharacter(PaymentUnit):
    """A unit paid with one of the player's characters, named by its first card."""

    needs = ""  # the character it needs: a message id (runtime/engine/refusals.py)

    @abstractmethod
    def fits(self, unit: Unit) -> bool:
        """Whether this character can pay it."""

    def ways(self, g: Table, p: int, n: int, rest: tuple[int, ...]) -> Ways:
        pool = [u for u in g.state.players[p].field if self.fits(u)]
        letter = self.letter
        if n == 1:  # the common part (B, S): one character, no combinations to walk
            return [((letter, u.cards[0]),) for u in pool]
        return [tuple([(letter, u.cards[0]) for u in combo]) for combo in combinations(pool, n)]

    def refusal(self, g: Table, p: int, paid: Card | None, spent: Spent) -> Said | None:
        if paid is None:
            return say("unit needs card", letter=self.letter, needs=say(self.needs), who=spent.who)
        unit = next(
            (
                u
                for u in g.state.players[p].field
                if self.fits(u) and u not in spent.named and card(u.cards[0]) == paid
            ),
            None,
        )
        if unit is None:
            return say(
                "unit not fit", letter=self.letter, needs=say(self.needs), who=spent.who, card=str(paid)
            )
        spent.named.append(unit)
        return None

    def unit_of(self, g: Table, p: int, cid: int | None) -> Unit:
        return next(u for u in g.state.players[p].field if cid in u.cards)


class Bulwark(OwnCharacter):
    """B: drive a charged bulwark."""

    letter = "B"
    needs = "charged bulwark"

    def fits(self, unit: Unit) -> bool:
        return unit.charged and unit.kind.combat is Combat.BULWARK

    def pay(self, g: Table, p: int, cid: int | None) -> None:
        t.drive(self.unit_of(g, p, cid))


class Sacrifice(OwnCharacter):
    """S: put one of the player's characters into the graveyard."""

    letter = "S"
    needs = "a character"

    def fits(self, unit: Unit) -> bool:
        return True

    def pay(self, g: Table, p: int, cid: int | None) -> None:
        t.remove_unit(g, self.unit_of(g, p, cid), t.GRAVEYARD)


# The registry: letter → its one implementation (read-only).
UNITS: Final[Mapping[str, PaymentUnit]] = MappingProxyType(
    {u.letter: u for u in (Bulwark(), Cause(), Discard(), Life(), Sacrifice())}
)
