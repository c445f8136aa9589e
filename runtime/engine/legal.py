"""The complete list of legal requests for the chance holder: timing, limits, key cards,
every way to pay the cost (runtime/engine/payments.py) and every target.

The search enumerates what the checks of runtime/engine/legality.py accept, with their
predicates; the two agree (tests/test_legality.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import product
from typing import TYPE_CHECKING

from blackpoker.compiler.model import Action
from blackpoker.compiler.program import Target
from blackpoker.runtime.engine.legality import once_allows, timing_allows, turn_allows, waived_types
from blackpoker.runtime.engine.options import Payment, RequestOption, sort_cards
from blackpoker.runtime.engine.payments import UNITS
from blackpoker.runtime.engine.targets import candidates
from blackpoker.runtime.engine.zones import DECK_SIZE, card

if TYPE_CHECKING:
    from blackpoker.runtime.engine.game import Game


Cost = tuple[tuple[str, int], ...]  # (unit letter, how many), in letter order
KeyWays = list[tuple[int, ...]]
NO_KEYS: list[tuple[int, ...]] = [()]
NO_TARGET: list[tuple[str, int] | None] = [None]
NO_COST: list[tuple[Payment, ...]] = [()]


@dataclass(frozen=True, slots=True)
class Requestable:
    """What the option search reads of a direct action on every decision, derived once."""

    action: Action
    once: bool  # limited to once per turn (then `once_allows` decides)
    cost: Cost
    fixed: Cost  # the part of the cost whose ways do not depend on the key cards
    uses_hand: bool  # some unit's ways depend on the cards the key cards leave (D)
    pays: list[tuple[Payment, ...]] | None  # every payment when they never change (nothing, or only L)
    target: Target | None  # its `target` step
    keyed_target: bool  # the target test reads the key cards, so candidates differ per key way


Timed = dict[tuple[bool, bool], tuple[Requestable, ...]]


def requestables(actions: tuple[Action, ...], specs: Mapping[str, Target]) -> Timed:
    """The direct actions each situation allows by timing, in rule-set order, keyed by
    (main timing possible: own turn and an empty stage, own turn)."""
    entries = []
    for a in actions:
        cost = tuple((letter, a.cost.units.count(letter)) for letter in sorted(set(a.cost.units)))
        spec = specs.get(a.id)
        constant = [UNITS[letter].constant(n) for letter, n in cost]
        entry = Requestable(
            a,
            not once_allows(a, (a.id,)),  # refused once used
            cost,
            tuple(unit for unit in cost if not UNITS[unit[0]].uses_hand),
            any(UNITS[letter].uses_hand for letter, _ in cost),
            None if None in constant else [tuple(pay for way in constant if way for pay in way)],
            spec,
            spec is not None and spec.suit_of is not None,
        )
        entries.append(entry)

    def allowed(entry: Requestable, stage_empty: bool, turn: bool) -> bool:
        return timing_allows(entry.action, turn, stage_empty) and turn_allows(entry.action, turn)

    # (main timing possible, own turn): main timing is possible only on the own turn
    return {
        (main_ok, turn): tuple(e for e in entries if allowed(e, main_ok, turn))
        for main_ok in (False, True)
        for turn in (False, True)
    }


def request_options(g: Game, p: int) -> list[RequestOption]:
    """Every legal request, in a fixed order: by action, key-card way, payment, target.

    Called for every chance decision, so the work is arranged to be done once: actions are
    pre-sorted by timing; per call the hand is sorted once, the waived action types are
    found once, each payment part and each whole payment is built once (B / L / S do not
    depend on the key cards, D depends on the cards left), and the targets of an action
    whose target test does not read the key cards are listed once. An action is skipped as
    soon as it has no way to choose key cards, or its B / L / S part cannot be paid.
    """
    state = g.state
    me = state.players[p]
    turn = p == state.turn_player
    used = me.used
    waived = waived_types(g, p) if me.field and g.rules.waivers else ()
    hand = tuple(sorted(me.hand))
    known = g.rules.hand_ways.get_or_make(hand, dict)
    parts: dict[tuple[str, int, tuple[int, ...]], Sequence[tuple[Payment, ...]]] = {}
    payments: dict[tuple[Cost, tuple[int, ...]], list[tuple[Payment, ...]]] = {}

    def part(letter: str, n: int, rest: tuple[int, ...]) -> Sequence[tuple[Payment, ...]]:
        key = (letter, n, rest if UNITS[letter].uses_hand else ())
        found = parts.get(key)
        if found is None:
            found = parts[key] = UNITS[letter].ways(g, p, n, rest)
        return found

    def pay_ways(cost: Cost, rest: tuple[int, ...]) -> list[tuple[Payment, ...]]:
        """Each whole payment, the parts in letter order; `rest` matters only with a D."""
        found = payments.get((cost, rest))
        if found is None:
            combos = product(*(part(letter, n, rest) for letter, n in cost))
            found = payments[(cost, rest)] = [
                tuple(pay for chosen in combo for pay in chosen) for combo in combos
            ]
        return found

    found: list[RequestOption] = []
    for entry in g.rules.requestables[turn and not state.stage, turn]:
        action = entry.action
        if entry.once and not once_allows(action, used):
            continue
        ways = NO_KEYS if action.matcher is None else known.get(action.id)
        if ways is None:
            ways = key_ways(g, action, hand, known)
        if not ways:
            continue
        cost, pays = ((), NO_COST) if action.type in waived else (entry.cost, entry.pays)
        uses_hand = bool(cost) and entry.uses_hand
        if pays is None and not uses_hand:
            pays = pay_ways(cost, ())
        if pays is not None and not pays:
            continue
        if uses_hand and entry.fixed and not all(part(letter, n, ()) for letter, n in entry.fixed):
            continue
        targets: Sequence[tuple[str, int] | None] | None = None if entry.target is not None else NO_TARGET
        for keys in ways:
            if uses_hand:
                pays = pay_ways(cost, tuple(c for c in hand if c not in keys))
                if not pays:
                    continue
            assert pays is not None
            if targets is None or entry.keyed_target:
                assert entry.target is not None
                targets = candidates(g, p, entry.target, keys)
            found.extend(
                RequestOption(p, action.id, action.name, keys, payment, target)
                for payment, target in product(pays, targets)
            )
    return found


def key_ways(g: Game, action: Action, hand: tuple[int, ...], known: dict[str, KeyWays]) -> KeyWays:
    """Each distinct choice of key cards from a hand (sorted ids), in canonical card order.

    The ways depend only on the cards that can be key cards of the action, so a hand that
    differs only in other cards finds them under its relevant cards.
    """
    relevant = g.rules.relevant[action.id]
    mine = tuple(c for c in hand if relevant[c % DECK_SIZE])
    ways = g.rules.relevant_ways.get((action.id, mine))
    if ways is None:
        assert action.matcher is not None
        ordered = sort_cards(mine)
        ways = []
        for way in action.matcher.ways([card(c) for c in ordered]):
            free = list(ordered)
            chosen = []
            for value in way:
                cid = next(c for c in free if card(c) == value)
                free.remove(cid)
                chosen.append(cid)
            ways.append(tuple(chosen))
        g.rules.relevant_ways.put((action.id, mine), ways)
    known[action.id] = ways
    return ways
