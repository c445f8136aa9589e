"""How a game starts when a regulation chooses the decks (rules 2024 §5): which of each player's
54 card ids are in the game, where the others lie, and the characters placed before the hand.

The engine knows only these shapes; runtime/play/regulation.py makes them from the regulation data.
"""

from __future__ import annotations

from dataclasses import dataclass

from blackpoker.runtime.rules.enums import Destination


@dataclass(frozen=True, slots=True)
class Start:
    decks: tuple[tuple[int, ...], tuple[int, ...]]  # each player's deck (card ids), any order
    left_out: str | None = None  # the zone of the cards not in the deck; None: out of the game
    preset: tuple[str, ...] = ()  # character types placed from the shuffled deck's top, in order
    # where a preset card goes that makes no character of its type
    unfit: Destination | str = Destination.GRAVEYARD
    aside: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())  # a player's other decks: out of the game
    set_aside: tuple[tuple[str, int], ...] = ()  # (zone, N): the shuffled deck's top N cards go there
