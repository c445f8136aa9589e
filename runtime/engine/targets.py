"""対象: which characters, requests or players a `target` step accepts.

The same test serves twice: when requesting (to list the candidates) and at resolution
(a target that no longer qualifies means the effect does nothing).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from blackpoker.compiler.model import Limit
from blackpoker.compiler.program import PlayerName, TargetKind
from blackpoker.compiler.program import Target as TargetSpec
from blackpoker.runtime.engine.state import GameState, Request, Target, Unit
from blackpoker.runtime.engine.zones import card

if TYPE_CHECKING:
    from blackpoker.runtime.engine.game import Game


def candidates(
    g: Game, controller: int, spec: TargetSpec, key_cards: tuple[int, ...]
) -> list[tuple[str, int]]:
    """The targets a request may name, as options name them: a character by its first card,
    a request by its stage position (from 1), a player by index."""
    kind = spec.kind
    if kind is TargetKind.CHARACTER:
        return [
            ("character", u.cards[0])
            for p in g.state.players
            for u in p.field
            if unit_ok(controller, spec, key_cards, u)
        ]
    if kind is TargetKind.REQUEST:
        return [("request", i) for i, r in enumerate(g.state.stage, 1) if request_ok(spec, r)]
    return [("player", p) for p in _players(controller, spec)]


def still_valid(g: Game, request: Request, spec: TargetSpec) -> bool:
    target = request.target
    if target is None or target[0] != spec.kind.value:
        return False
    kind, value = target
    if kind == "character":
        unit = g.state.unit(value)
        return unit is not None and unit_ok(request.controller, spec, request.key_cards, unit)
    if kind == "request":
        found = g.state.stage_request(value)
        return found is not None and request_ok(spec, found)
    return value in _players(request.controller, spec)


def unit_ok(controller: int, spec: TargetSpec, key_cards: tuple[int, ...], unit: Unit) -> bool:
    side = spec.side
    if side is not None and (unit.controller == controller) != (side is PlayerName.YOU):
        return False
    if spec.type is not None and unit.kind.type != spec.type:
        return False
    if spec.no_joker and any(card(c).is_joker for c in unit.cards):
        return False
    if spec.suit_of is not None:
        suits = {card(c).suit for c in key_cards}
        if len(suits) != 1 or any(card(c).suit not in suits for c in unit.cards):
            return False
    return True


def request_ok(spec: TargetSpec, request: Request) -> bool:
    if spec.key_cards and len(request.key_cards) not in spec.key_cards:
        return False
    if spec.action is not None and request.action.id != spec.action:
        return False
    if spec.has_target and request.target is None:
        return False
    return not (spec.counterable and Limit.UNCOUNTERABLE in request.action.limits)


def retarget_candidates(g: Game, request: Request, changer: Request) -> list[tuple[str, int]]:
    """The targets `request` could name instead of its own, as options name them: by its
    target spec, from its controller's side, with its key cards. A request never targets
    itself; `changer` (the resolving request that changes it) is named `resolving:N`."""
    spec = g.rules.target_specs[request.action.id]
    found = candidates(g, request.controller, spec, request.key_cards)
    if spec.kind is TargetKind.REQUEST:
        found = [c for c in found if g.state.stage[c[1] - 1] is not request]
        depth = next(i for i, r in enumerate(g.state.resolving, 1) if r.request is changer)
        if request_ok(spec, changer):
            found.append(("resolving", depth))
    current = named(g.state, request.target)
    return [c for c in found if c != current]


def named(state: GameState, target: Target | None) -> tuple[str, int] | None:
    """How options name a target the state keeps by id (None when it is gone)."""
    if target is None:
        return None
    kind, value = target
    if kind == "character":
        unit = state.unit(value)
        return None if unit is None else ("character", unit.cards[0])
    if kind == "request":
        position = next((i for i, r in enumerate(state.stage, 1) if r.uid == value), None)
        if position is not None:
            return ("request", position)
        depth = next((i for i, r in enumerate(state.resolving, 1) if r.request.uid == value), None)
        return None if depth is None else ("resolving", depth)
    return target


def resolve_name(g: Game, target: tuple[str, int]) -> Target:
    """An option's target → the state's (a character by id, a request by id): the inverse of `named`."""
    kind, value = target
    if kind == "character":
        unit = next(u for p in g.state.players for u in p.field if value in u.cards)
        return ("character", unit.uid)
    if kind == "request":
        return ("request", g.state.stage[value - 1].uid)
    if kind == "resolving":
        return ("request", g.state.resolving[value - 1].request.uid)
    return target


def _players(controller: int, spec: TargetSpec) -> tuple[int, ...]:
    side = spec.side
    if side is PlayerName.YOU:
        return (controller,)
    if side is PlayerName.OPPONENT:
        return (1 - controller,)
    return (controller, 1 - controller)
