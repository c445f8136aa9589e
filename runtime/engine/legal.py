"""The complete list of legal requests for the chance holder: timing, limits, key cards,
every way to pay the cost (B / D / L / S) and every target."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations, product
from typing import TYPE_CHECKING, Any

from blackpoker.compiler.model import Action, Combat, Limit, Timing
from blackpoker.runtime.engine.options import Payment, RequestOption, sort_cards
from blackpoker.runtime.engine.targets import candidates
from blackpoker.runtime.engine.zones import DECK_SIZE, card, order

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
    once: bool  # once per turn
    cost: Cost
    fixed: Cost  # the B / L / S part of the cost: it does not depend on the key cards
    discards: bool  # the cost has a D, whose ways depend on the cards the key cards leave
    pays: list[tuple[Payment, ...]] | None  # every payment when they never change (nothing, or only L)
    target: Mapping[str, Any] | None  # the spec of its `target` step
    keyed_target: bool  # the target test reads the key cards, so candidates differ per key way


Timed = dict[tuple[bool, bool], tuple[Requestable, ...]]


def requestables(actions: tuple[Action, ...], specs: Mapping[str, Any]) -> Timed:
    """The direct actions each situation allows by timing, in rule-set order, keyed by
    (main timing possible: own turn and an empty stage, own turn)."""
    entries = []
    for a in actions:
        cost = tuple((letter, a.cost.units.count(letter)) for letter in sorted(set(a.cost.units)))
        spec = specs.get(a.id)
        entry = Requestable(
            a,
            Limit.ONCE_PER_TURN in a.limits,
            cost,
            tuple(unit for unit in cost if unit[0] != "D"),
            any(letter == "D" for letter, _ in cost),
            [tuple(("L", None) for _, n in cost for _ in range(n))]
            if all(u == "L" for u, _ in cost)
            else None,
            spec,
            spec is not None and "suit_of" in spec,
        )
        entries.append(entry)

    def allowed(entry: Requestable, main_ok: bool, turn: bool) -> bool:
        limits = entry.action.limits
        return (main_ok or entry.action.timing is not Timing.MAIN) and not (
            turn and Limit.ONLY_WITHOUT_TURN in limits
        )

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
    waived = waived_types(g, p) if me.field and g.tables.waivers else ()
    hand = tuple(sorted(me.hand))
    known = g.tables.ways.get(hand)
    if known is None:
        if len(g.tables.ways) > 50_000:
            g.tables.ways.clear()  # bound the memory of long simulations
        known = g.tables.ways[hand] = {}
    parts: dict[tuple[str, int, tuple[int, ...]], Sequence[tuple[Payment, ...]]] = {}
    payments: dict[tuple[Cost, tuple[int, ...]], list[tuple[Payment, ...]]] = {}

    def part(letter: str, n: int, rest: tuple[int, ...]) -> Sequence[tuple[Payment, ...]]:
        key = (letter, n, rest if letter == "D" else ())
        found = parts.get(key)
        if found is None:
            found = parts[key] = payment_part(g, p, letter, n, rest)
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
    for entry in g.tables.requestables[turn and not state.stage, turn]:
        action = entry.action
        if entry.once and action.id in used:
            continue
        ways = NO_KEYS if action.matcher is None else known.get(action.id)
        if ways is None:
            ways = key_ways(g, action, hand, known)
        if not ways:
            continue
        cost, pays = ((), NO_COST) if action.type in waived else (entry.cost, entry.pays)
        discards = bool(cost) and entry.discards
        if pays is None and not discards:
            pays = pay_ways(cost, ())
        if pays is not None and not pays:
            continue
        if discards and entry.fixed and not all(part(letter, n, ()) for letter, n in entry.fixed):
            continue
        targets: Sequence[tuple[str, int] | None] | None = None if entry.target is not None else NO_TARGET
        for keys in ways:
            if discards:
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
    relevant = g.tables.relevant[action.id]
    mine = tuple(c for c in hand if relevant[c % DECK_SIZE])
    ways = g.tables.relevant_ways.get((action.id, mine))
    if ways is None:
        if len(g.tables.relevant_ways) > 200_000:
            g.tables.relevant_ways.clear()
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
        g.tables.relevant_ways[(action.id, mine)] = ways
    known[action.id] = ways
    return ways


def waived_types(g: Game, p: int) -> set[str]:
    """魔力増加: the action types whose cost a character on the player's field waives."""
    return {kind for u in g.state.players[p].field for kind in u.kind.waives_cost_of}


def cost_waived(g: Game, p: int, action: Action) -> bool:
    return action.type in waived_types(g, p)


def payment_part(
    g: Game, p: int, letter: str, n: int, rest: tuple[int, ...]
) -> Sequence[tuple[Payment, ...]]:
    """The ways to pay `n` of one cost unit: B drives charged bulwarks, D discards cards left
    in the hand (equal cards, two Jokers, count once), L takes damage, S sacrifices characters."""
    if letter == "L":
        return [(("L", None),) * n]
    if letter == "D":
        return discard_ways(n, rest)
    field = g.state.players[p].field
    pool = [u for u in field if letter == "S" or (u.charged and u.kind.combat is Combat.BULWARK)]
    return [tuple((letter, u.cards[0]) for u in combo) for combo in combinations(pool, n)]


@lru_cache(maxsize=1 << 16)  # a hand stays the same over many decisions
def discard_ways(n: int, rest: tuple[int, ...]) -> tuple[tuple[Payment, ...], ...]:
    """Each choice of `n` cards to discard; equal cards (two Jokers) count once."""
    seen: set[tuple[int, ...]] = set()
    choices = []
    for combo in combinations(sort_cards(rest), n):
        values = tuple(order(c) for c in combo)
        if values not in seen:
            seen.add(values)
            choices.append(tuple(("D", c) for c in combo))
    return tuple(choices)
