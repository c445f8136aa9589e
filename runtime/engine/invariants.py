"""Checks that hold after every decision: cards are conserved, none is in two places,
characters are well formed."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from blackpoker.compiler.model import Combat
from blackpoker.runtime.engine.errors import InvariantError
from blackpoker.runtime.engine.state import Unit
from blackpoker.runtime.engine.zones import DECK_SIZE, owner

if TYPE_CHECKING:
    from blackpoker.runtime.engine.game import Game


def check_invariants(g: Game) -> None:
    state = g.state
    seen: Counter[int] = Counter()
    for index, p in enumerate(state.players):
        seen.update(p.life + p.hand + p.graveyard + p.outside)
        for unit in p.field:
            seen.update(unit.cards)
            _check_unit(unit, index)
    for request in state.holding():
        seen.update(request.held)
    doubled = [c for c, n in seen.items() if n > 1]
    if doubled:
        raise InvariantError(f"cards in two places at once: {doubled}")
    for index in range(len(state.players)):
        mine = sum(1 for c in seen if owner(c) == index)
        if mine != DECK_SIZE:
            raise InvariantError(f"player {index + 1} has {mine} cards instead of {DECK_SIZE}")
    uids = [u.uid for p in state.players for u in p.field]
    if len(uids) != len(set(uids)):
        raise InvariantError("two characters share an id")
    if state.result is None and state.chance is None and not state.resolving:
        raise InvariantError("nobody holds chance and nothing resolves")


def _check_unit(unit: Unit, index: int) -> None:
    if not unit.cards:
        raise InvariantError(f"character {unit.uid} has no card")
    if unit.controller != index:
        raise InvariantError(f"character {unit.uid} stands on the wrong field")
    if unit.kind.combat is Combat.BULWARK and len(unit.cards) != 1:
        raise InvariantError(f"bulwark {unit.uid} has {len(unit.cards)} cards")
    if not unit.face_up and unit.kind.combat is not Combat.BULWARK:
        raise InvariantError(f"character {unit.uid} ({unit.kind.id}) is face down")
