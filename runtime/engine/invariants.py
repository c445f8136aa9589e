"""Checks that hold after every decision: cards are conserved, none is in two places,
characters are well formed. Cheap enough to run after every decision (`Game(check=True)`),
they are also run once on a finished game (`selfplay.play_game`)."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Final

from blackpoker.runtime.engine.errors import InvariantError
from blackpoker.runtime.engine.state import PLAYERS, Unit
from blackpoker.runtime.engine.zones import DECK_SIZE, owner
from blackpoker.runtime.rules.model import Combat

if TYPE_CHECKING:
    from blackpoker.runtime.engine.table import Table


GAME_CARDS: Final = frozenset(range(len(PLAYERS) * DECK_SIZE))  # both decks' card ids


def check_invariants(g: Table) -> None:
    """Raise InvariantError naming the first invariant the state breaks.

    Conservation is two set tests: the zones hold as many cards as the decks, and together
    they are exactly the decks' ids; only when one fails are the culprits looked for.
    """
    state = g.state
    zones: list[list[int]] = []
    for index, p in enumerate(state.players):
        zones += (p.life, p.hand, p.graveyard, p.outside, *p.zones.values())
        if not p.face_up.keys() <= {c for cards in p.zones.values() for c in cards}:
            raise InvariantError(f"player {index + 1} has face-up cards outside a zone that holds them")
        for unit in p.field:
            zones.append(unit.cards)
            _check_unit(unit, index)
    zones += [request.held for request in state.holding()]
    placed: set[int] = set().union(*zones)
    if len(placed) != sum(map(len, zones)):
        seen: Counter[int] = Counter(c for zone in zones for c in zone)
        raise InvariantError(f"cards in two places at once: {[c for c, n in seen.items() if n > 1]}")
    if placed != GAME_CARDS:
        for index in range(len(state.players)):
            mine = sum(1 for c in placed if owner(c) == index)
            if mine != DECK_SIZE:
                raise InvariantError(f"player {index + 1} has {mine} cards instead of {DECK_SIZE}")
        raise InvariantError(f"cards that are not in the game: {sorted(placed - GAME_CARDS)}")
    uids = [u.uid for p in state.players for u in p.field]
    if len(uids) != len(set(uids)):
        raise InvariantError("two characters share an id")
    if state.result is None and state.chance is None and not state.resolving and not state.asked:
        raise InvariantError("nobody holds chance, nothing resolves and nobody is asked")


def _check_unit(unit: Unit, index: int) -> None:
    if not unit.cards:
        raise InvariantError(f"character {unit.uid} has no card")
    if unit.controller != index:
        raise InvariantError(f"character {unit.uid} stands on the wrong field")
    if unit.kind.combat is Combat.BULWARK and len(unit.cards) != 1:
        raise InvariantError(f"bulwark {unit.uid} has {len(unit.cards)} cards")
    if not unit.face_up and unit.kind.combat is not Combat.BULWARK:
        raise InvariantError(f"character {unit.uid} ({unit.kind.id}) is face down")
