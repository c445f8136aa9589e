"""Fitting the search agent's value to a rule set: a logistic regression of a game's result on
the features of its positions (features.py), by Newton's method with a small ridge.

Seeded games are played by the rules being studied, greedy against greedy and search against
greedy; every quiet position (nothing requested or resolving) is noted with the features of
the player holding chance and labelled with that player's final result. Every HELD_OUT-th game
is kept out of the fit and measures it: the fitted weights' log-loss and the share of decided
positions whose winner they foresee, beside the built-in weights' on the same positions.
`blackpoker fit` runs it (docs/simulate.md#fitting-the-value-to-a-rule-set);
benchmarks/fit_value.py fits the built-in weights with it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from blackpoker.runtime.engine.game import Game
from blackpoker.runtime.engine.refs import Result
from blackpoker.runtime.engine.rules import Rules, rules_of
from blackpoker.runtime.play.agents import Agent, decide
from blackpoker.runtime.play.features import NAMES, WEIGHTS, features, logistic
from blackpoker.runtime.play.greedy import GreedyAgent
from blackpoker.runtime.play.search import DEFAULT_BUDGET, SearchAgent
from blackpoker.runtime.rules.model import RuleSet

PAIRINGS = ("greedy", "search")  # p1's agent; p2 is greedy
HELD_OUT = 5  # every 5th game is kept out of the fit, to measure it
FEWEST = 2 * HELD_OUT  # games a fit needs: some to fit on, some held out
RIDGE = 1.0
CAP = 5_000  # decisions: a game that reaches it has no result and gives no positions
# `blackpoker fit`'s games are seeded apart from those `simulate --seed 1..` plays, so the
# weights are measured on other games than the ones they are then played in
FIRST_SEED = 10**12

Sample = tuple[tuple[float, ...], float]


def positions(
    rules: RuleSet | Rules,
    pairing: str,
    seed: int,
    weights: Sequence[float] = WEIGHTS,
    budget: int = DEFAULT_BUDGET,
) -> list[Sample]:
    """The quiet positions of one game with the result for the player holding chance; p1 is
    greedy or (pairing `search`) the search agent playing with `weights`."""
    context = rules_of(rules)
    game = Game.new(context, seed)
    first: Agent = GreedyAgent(context.ruleset, seed)
    if pairing == "search":
        first = SearchAgent(context.ruleset, seed, budget, weights=weights)
    agents = (first, GreedyAgent(context.ruleset, seed + 1))
    noted: list[tuple[tuple[float, ...], int]] = []
    while not game.over and game.decisions < CAP:
        state = game.state
        if not state.stage and not state.resolving and state.pending is None and state.chance is not None:
            noted.append((features(state, state.chance), state.chance))
        game.apply(decide(game, agents))
    result = game.state.result
    if result is None:
        return []
    return [(f, 0.5 if result is Result.DRAW else float(result is Result.won_by(me))) for f, me in noted]


def fit(samples: Sequence[Sample], rounds: int = 12) -> list[float]:
    """The weights maximising the log-likelihood less RIDGE/2 |w|², by Newton's method."""
    size = len(NAMES)
    weights = [0.0] * size
    for _ in range(rounds):
        gradient = [-RIDGE * w for w in weights]
        hessian = [[RIDGE * (i == j) for j in range(size)] for i in range(size)]
        for found, label in samples:
            p = logistic(weights, found)
            curve = p * (1 - p)
            for i in range(size):
                gradient[i] += (label - p) * found[i]
                row, scaled = hessian[i], curve * found[i]
                for j in range(size):
                    row[j] += scaled * found[j]
        step = _solve(hessian, gradient)
        weights = [w + s for w, s in zip(weights, step, strict=True)]
    return weights


def _solve(matrix: list[list[float]], right: list[float]) -> list[float]:
    """x with matrix · x = right, by Gaussian elimination with partial pivoting (the ridge keeps
    the matrix positive definite)."""
    size = len(right)
    rows = [[*matrix[i], right[i]] for i in range(size)]
    for col in range(size):
        pivot = max(range(col, size), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        for r in range(col + 1, size):
            factor = rows[r][col] / rows[col][col]
            rows[r] = [a - factor * b for a, b in zip(rows[r], rows[col], strict=True)]
    solution = [0.0] * size
    for r in reversed(range(size)):
        solution[r] = (rows[r][size] - sum(rows[r][c] * solution[c] for c in range(r + 1, size))) / rows[r][r]
    return solution


def measure(weights: Sequence[float], samples: Sequence[Sample]) -> tuple[float, float]:
    """Mean log-loss and the share of decided positions whose winner the value favours."""
    loss, right, decided = 0.0, 0, 0
    for found, label in samples:
        p = min(max(logistic(weights, found), 1e-9), 1 - 1e-9)
        loss -= label * math.log(p) + (1 - label) * math.log(1 - p)
        if label != 0.5:
            decided += 1
            right += (p > 0.5) == (label == 1.0)
    return loss / max(len(samples), 1), right / max(decided, 1)


def held_out(index: int) -> bool:
    """Whether game `index` of a fit measures it instead of being fitted on."""
    return index % HELD_OUT == 0


@dataclass(frozen=True, slots=True)
class Fitted:
    """A fit's weights, by features.NAMES, and how they and the built-in ones foresee the
    held-out games' results."""

    weights: tuple[float, ...]
    games: int  # played; those that reached the decision cap give no positions
    fitted_on: int  # positions
    measured_on: int
    loss: float  # mean log-loss on the held-out positions
    accuracy: float  # the share of decided held-out positions whose winner the weights foresee
    default_loss: float  # the same, with the built-in weights (features.WEIGHTS)
    default_accuracy: float


def fit_rules(
    rules: RuleSet, games: int, seed: int = 1, progress: Callable[[int], None] | None = None
) -> Fitted:
    """Play `games` seeded games by `rules` (half of them each pairing), fit the weights on
    4 in 5 of them and measure them on the fifth. Game i plays with seed FIRST_SEED + seed ·
    1,000,003 + i, so a fit is the same on any machine. `progress` hears of each game played."""
    context = Rules(rules)
    train: list[Sample] = []
    test: list[Sample] = []
    for index in range(games):
        played = positions(context, PAIRINGS[index % len(PAIRINGS)], FIRST_SEED + seed * 1_000_003 + index)
        (test if held_out(index) else train).extend(played)
        if progress is not None:
            progress(index + 1)
    weights = tuple(round(w, 6) for w in fit(train))
    loss, accuracy = measure(weights, test)
    default_loss, default_accuracy = measure(WEIGHTS, test)
    return Fitted(weights, games, len(train), len(test), loss, accuracy, default_loss, default_accuracy)
