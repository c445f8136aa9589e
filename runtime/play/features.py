"""Generic features of a position for one player, and the value the search agent fits on them.

Every feature is read from the state, nothing from an edition: the player's minus the
opponent's count of life, hand, graveyard and characters, and the same counts of the turn
player's attackers and the other's blockers, signed for the player. Each feature changes sign
when the two players swap, and the fitted value has no constant, so the two players' values sum
to 1. benchmarks/fit_value.py fits the weights on played games (docs/simulate.md).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from blackpoker.runtime.engine.state import GameState, PlayerState
from blackpoker.runtime.engine.transitions import printed_size
from blackpoker.runtime.rules.model import Combat

NAMES = (
    "life",
    "log1p_life",
    "hand",
    "graveyard",
    "soldiers",
    "soldier_size",
    "bulwarks",
    "charged",
    "turn",
    "attack",  # the turn player's charged soldiers' size
    "block",  # the other player's charged characters
)

# the fitted weights, by NAMES: `python benchmarks/fit_value.py 500 --jobs 2 --agent-weights first-fit`
# prints them (a refit on games of the search agent playing with the first fit)
WEIGHTS = (0.0202, 1.8177, 0.3589, -0.0047, 0.2709, 0.0521, 0.5067, -0.0561, -0.1943, 0.0021, 0.0049)


def _side(player: PlayerState) -> tuple[list[float], float]:
    """The player's counts by NAMES up to `charged`, and its charged soldiers' size."""
    soldiers = bulwarks = size = charged = attack = 0
    for u in player.field:
        charged += u.charged
        if u.kind.combat is Combat.SOLDIER:
            soldiers += 1
            unit_size = printed_size(u) + u.size_mod
            size += unit_size
            attack += unit_size * u.charged
        else:
            bulwarks += 1
    life = len(player.life)
    counts = [
        life,
        math.log1p(life),
        len(player.hand),
        len(player.graveyard),
        soldiers,
        size,
        bulwarks,
        charged,
    ]
    return counts, attack


def features(state: GameState, me: int) -> tuple[float, ...]:
    """The position's features for `me`, by NAMES."""
    (mine, my_attack), (theirs, their_attack) = _side(state.players[me]), _side(state.players[1 - me])
    lead = [a - b for a, b in zip(mine, theirs, strict=True)]
    # the turn player's attackers and the other's blockers (its charged characters), signed for me
    if state.turn_player == me:
        return (*lead, 1.0, my_attack, -theirs[-1])
    return (*lead, -1.0, -their_attack, mine[-1])


def logistic(weights: Sequence[float], found: Sequence[float]) -> float:
    """1 / (1 + e^-(weights · found)), safe from overflow."""
    z = 0.0  # a loop, not sum() of a generator: mypyc compiles it to plain arithmetic, the same sums
    for w, x in zip(weights, found, strict=True):
        z += w * x
    if z < 0:
        e = math.exp(z)
        return e / (1.0 + e)
    return 1.0 / (1.0 + math.exp(-z))


def fitted_value(state: GameState, me: int, weights: Sequence[float] = WEIGHTS) -> float:
    """How likely `me` wins from here, 0 … 1: the result when the game is over, else the fitted
    logistic of the position's features."""
    if state.result is not None:
        winner = state.result.winner
        return 0.5 if winner is None else 1.0 if winner == me else 0.0
    return logistic(weights, features(state, me))
