"""What the option search (option_search.py) derives once and keeps: each direct action's
entry (`Requestable`) and a hand's plan of it (`Planned`), which the rules context's caches
hold (rules.py). Plain data that names no game, so the context and the tables below it import
nothing that takes one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from blackpoker.runtime.engine.options import Payment, RequestOption
from blackpoker.runtime.engine.refs import OptionTarget
from blackpoker.runtime.rules.model import Action
from blackpoker.runtime.rules.program import Target

Cost = tuple[tuple[str, int], ...]  # (unit letter, how many), in letter order
KeyWays = list[tuple[int, ...]]


@dataclass(frozen=True, slots=True)
class Requestable:
    """What the option search reads of a direct action on every decision, derived once."""

    action: Action
    once: bool  # limited to once per turn (then `once_allows` decides)
    cost: Cost
    fixed: Cost  # the part of the cost whose ways do not depend on the key cards
    uses_hand: bool  # some unit's ways depend on the cards the key cards leave (D)
    hand_only: bool  # no unit's ways depend on the field (no B, no S): the hand decides them
    pays: Sequence[tuple[Payment, ...]] | None  # every payment when they never change (nothing, or only L)
    target: Target | None  # its `target` step
    keyed_target: bool  # the target test reads the key cards, so candidates differ per key way
    keyed_requirement: bool  # `requires` reads the key cards, so it holds per key way
    relevant: int  # the cards that can be its key cards, as bits by id (`Rules.relevant`; 0: none)
    from_hand: bool  # it takes no key cards, or takes them from the hand only: a plan the hand decides


Timed = dict[tuple[bool, bool], tuple[Requestable, ...]]
Paid = tuple[tuple[tuple[int, ...], Sequence[tuple[Payment, ...]]], ...]  # (key cards, their payments)


class Planned:
    """A direct action as one player's hand allows it: what of its options the hand alone
    decides, worked out once per hand and only when first needed (`paid`, `made`). `hand` is
    read only for a cost that reads the cards the key cards leave (D): any other plan serves
    every hand with the same key-card ways (`_planned`)."""

    __slots__ = ("_made", "entry", "hand", "paid", "player", "ways")

    def __init__(self, entry: Requestable, player: int, hand: tuple[int, ...], ways: KeyWays) -> None:
        self.entry = entry
        self.player = player
        self.hand = hand
        self.ways = ways  # its key-card ways, never empty
        # each key way that can pay the cost, with its payments, for a `hand_only` cost: found
        # once, when first needed (option_search.hand_paid)
        self.paid: Paid | None = None
        self._made: tuple[Paid, Sequence[OptionTarget | None], tuple[RequestOption, ...]] | None = None

    def made(self, paid: Paid, targets: Sequence[OptionTarget | None]) -> tuple[RequestOption, ...]:
        """Its options with these payments at these targets, when neither depends on the key
        way beyond `paid`. The last ones are kept: the hand, the field and so the payments
        and targets often stay the same from one of the player's decisions to the next."""
        last = self._made
        # most often the very same objects: `is` before a walk over their items
        if (
            last is not None
            and (last[0] is paid or last[0] == paid)
            and (last[1] is targets or last[1] == targets)
        ):
            return last[2]
        action = self.entry.action
        player, action_id, name = self.player, action.id, action.name
        # loops rather than a generator over `product`: compiled with mypyc, a loop costs less
        listed: list[RequestOption] = []
        for keys, pays in paid:
            for payment in pays:
                for target in targets:
                    listed.append(RequestOption(player, action_id, name, keys, payment, target))
        options = tuple(listed)
        self._made = (paid, targets, options)
        return options
