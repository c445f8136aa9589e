"""Helpers shared by the engine tests."""

from __future__ import annotations

import random

from blackpoker.runtime.engine.state import GameState


def scramble(state: GameState, me: int, rng: random.Random) -> GameState:
    """A twin that differs only in what `me` may not see: the opponent's hand, life, face-down
    cards and graveyard below the top are permuted among themselves, and `me`'s life too."""
    twin = state.copy()
    them = twin.players[1 - me]
    downs = [u for u in them.field if not u.face_up]
    slots = [*them.hand, *them.life, *them.graveyard[:-1], *(u.cards[0] for u in downs)]
    rng.shuffle(slots)
    cut = [len(them.hand), len(them.life), max(len(them.graveyard) - 1, 0)]
    them.hand, rest = slots[: cut[0]], slots[cut[0] :]
    them.life, rest = rest[: cut[1]], rest[cut[1] :]
    them.graveyard[: cut[2]], rest = rest[: cut[2]], rest[cut[2] :]
    for unit, cid in zip(downs, rest, strict=True):
        unit.cards = [cid]
    rng.shuffle(twin.players[me].life)
    return twin
