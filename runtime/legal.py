"""The complete list of legal requests for the chance holder: timing, limits, key cards,
every way to pay the cost (B / D / L / S) and every target."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations, product
from typing import TYPE_CHECKING

from blackpoker.compiler.model import Action, Combat, Limit, Timing
from blackpoker.runtime.options import Payment, RequestOption, sort_cards
from blackpoker.runtime.state import Target
from blackpoker.runtime.targets import candidates
from blackpoker.runtime.zones import card

if TYPE_CHECKING:
    from blackpoker.runtime.game import Game


def request_options(g: Game, p: int) -> list[RequestOption]:
    state = g.state
    me = state.players[p]
    found: list[RequestOption] = []
    for action in g.direct_actions:
        if not may_request(g, p, action):
            continue
        cost = () if cost_waived(g, p, action) else action.cost.units
        spec = g.target_specs.get(action.id)
        for keys in key_ways(g, action, me.hand):
            rest = [c for c in me.hand if c not in keys]
            payments = list(pay_ways(g, p, cost, rest))
            if not payments:
                continue
            targets: list[tuple[str, int] | None] = [None]
            if spec is not None:
                targets = [shown_target(g, t) for t in candidates(g, p, spec, keys)]
            found.extend(
                RequestOption(p, action.id, action.name, keys, payment, target)
                for payment, target in product(payments, targets)
            )
    return found


def may_request(g: Game, p: int, action: Action) -> bool:
    state = g.state
    if action.timing is Timing.MAIN and (p != state.turn_player or state.stage):
        return False
    if Limit.ONCE_PER_TURN in action.limits and action.id in state.players[p].used:
        return False
    return not (Limit.ONLY_WITHOUT_TURN in action.limits and p == state.turn_player)


def cost_waived(g: Game, p: int, action: Action) -> bool:
    """魔力増加: a character on your field waives the cost of these action types."""
    return any(action.type in u.kind.waives_cost_of for u in g.state.players[p].field)


def key_ways(g: Game, action: Action, hand: list[int]) -> list[tuple[int, ...]]:
    """Each distinct choice of key cards from the hand, as card ids in canonical order."""
    if action.matcher is None:
        return [()]
    return g.key_ways(action, tuple(sorted(hand)))


def pay_ways(g: Game, p: int, units: tuple[str, ...], rest: list[int]) -> Iterator[tuple[Payment, ...]]:
    """Each distinct payment; discarding equal cards (two Jokers) counts once."""
    me = g.state.players[p]
    parts: list[list[tuple[Payment, ...]]] = []
    for letter in sorted(set(units)):
        n = units.count(letter)
        if letter == "L":
            parts.append([(("L", None),) * n])
        elif letter == "D":
            seen: set[tuple[object, ...]] = set()
            choices = []
            for combo in combinations(sort_cards(rest), n):
                values = tuple(card(c) for c in combo)
                if values not in seen:
                    seen.add(values)
                    choices.append(tuple(("D", c) for c in combo))
            parts.append(choices)
        else:
            pool = [u for u in me.field if letter == "S" or (u.charged and u.kind.combat is Combat.BULWARK)]
            parts.append([tuple((letter, u.cards[0]) for u in combo) for combo in combinations(pool, n)])
    for combo in product(*parts):
        yield tuple(pay for part in combo for pay in part)


def shown_target(g: Game, target: Target) -> tuple[str, int]:
    kind, value = target
    if kind == "character":
        unit = g.state.unit(value)
        assert unit is not None
        return ("character", unit.cards[0])
    if kind == "request":
        return ("request", next(i for i, r in enumerate(g.state.stage, 1) if r.uid == value))
    return target
