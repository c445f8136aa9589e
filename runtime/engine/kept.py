"""What a game keeps of each player's options from one decision to the next.

A player's requests are found anew only from what changed since that player's last search
(runtime/engine/option_search.py reads and updates this record):

- nothing, when the only transitions since were passes that moved the chance (`Game.touched`
  counts the others): the options are the ones kept;
- the timing situation, when the hand is the same: the plan is the one kept;
- the hand: an action's plan depends on the hand only through the cards that can be its key
  cards (`Rules.relevant`), and for a D cost on the cards they leave, so the plans of the
  actions none of whose relevant cards came or went are carried over (a D plan keeps its
  key-card ways), and only the others are planned again.

It belongs to one game (a copy starts empty), never to the rules context that games share.
"""

from __future__ import annotations

from blackpoker.runtime.engine.options import Option
from blackpoker.runtime.engine.plans import Planned


class Kept:
    """One player's last search: the hand and timing situation it was made in, its plan, and
    the options it found (its requests, then the pass: the decision's whole list, made once)
    with the game's count of touching transitions then."""

    __slots__ = ("cards", "hand", "held", "known", "main", "options", "plan", "stamp", "turn")

    def __init__(self) -> None:
        self.cards: list[int] | None = None  # the hand in its order then (a copy); None: no search yet
        self.hand: tuple[int, ...] = ()  # the same, sorted
        self.held = 0  # the same, as bits by id
        self.main = False
        self.turn = False
        self.plan: tuple[Planned, ...] = ()
        # action id → its plan for this hand, or None when the hand cannot request it: the
        # context's entry for the hand (`Rules.hand_actions`), what the next hand carries over
        self.known: dict[str, Planned | None] = {}
        self.stamp = -1  # `Game.touched` when `options` were found
        self.options: tuple[Option, ...] = ()
