"""Fit the search agent's value: a logistic regression of the result on a position's features.

Plays seeded games of the default edition's smallest and standard formats (greedy against
greedy, and search against greedy), notes every quiet position (nothing requested or resolving)
with the features of the player holding chance (runtime/play/features.py), labels it with that
player's final result, and fits the weights by Newton's method with a small ridge. The search
agent of these games plays with a value kept here, named by `--agent-weights`, so the games,
and the weights, do not depend on the weights in use: the hand-tuned value it had before any
fit, or the first fit's weights (a refit on the fitted agent's own games). The games' seeds
start at 10,000,000, apart from those `blackpoker simulate --seed 1..` plays, so the weights are
measured on other games.
Prints the held-out games' log-loss and accuracy, beside the hand-tuned value's, and the
weights for features.WEIGHTS.

python benchmarks/fit_value.py [games per format and pairing] [--jobs N] [--agent-weights NAME]
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from itertools import repeat

from blackpoker.compiler import compile
from blackpoker.runtime.engine.game import Game
from blackpoker.runtime.engine.refs import player_name
from blackpoker.runtime.play.agents import Agent, decide
from blackpoker.runtime.play.features import NAMES, features, logistic
from blackpoker.runtime.play.greedy import BULWARK, LIFE_PRESSURE, SOLDIER_BASE, GreedyAgent
from blackpoker.runtime.play.search import SearchAgent
from played import EDITION, FORMATS, STANDARD

FITTED = tuple(dict.fromkeys((FORMATS[0], STANDARD)))  # smallest and standard
PAIRINGS = ("greedy", "search")  # p1's agent; p2 is greedy
FIRST_SEED = 10_000_000
HELD_OUT = 5  # every 5th game is kept out of the fit, to measure it
RIDGE = 1.0
CAP = 5_000
# the search agent's value before the fit, by the features' NAMES: life, LIFE_PRESSURE per
# log1p(life), 2.5 per hand card, SOLDIER_BASE + size per soldier, BULWARK per bulwark and 0.5
# per charged character, a lead of 6 making a win 73% likely
HAND_TUNED = tuple(w / 6 for w in (1, LIFE_PRESSURE, 2.5, 0, SOLDIER_BASE, 1, BULWARK, 0.5, 0, 0, 0))
# the first fit, on games of the hand-tuned agent (500 per format and pairing)
FIRST_FIT = (-0.1657, 1.8495, 0.1415, -0.2014, 0.0334, 0.0513, 0.2135, 0.0047, -0.1940, 0.0020, 0.0195)
AGENT_WEIGHTS = {"hand-tuned": HAND_TUNED, "first-fit": FIRST_FIT}

Sample = tuple[tuple[float, ...], float]


def positions(format_id: str, pairing: str, seed: int, agent_weights: str) -> list[Sample]:
    """The quiet positions of one game with the result for the player holding chance."""
    rules = compile(EDITION, format_id)
    game = Game.new(rules, seed)
    first: Agent = GreedyAgent(rules, seed)
    if pairing == "search":
        first = SearchAgent(rules, seed, weights=AGENT_WEIGHTS[agent_weights])
    agents = (first, GreedyAgent(rules, seed + 1))
    noted: list[tuple[tuple[float, ...], int]] = []
    while not game.over and game.decisions < CAP:
        state = game.state
        if not state.stage and not state.resolving and state.pending is None and state.chance is not None:
            noted.append((features(state, state.chance), state.chance))
        game.apply(decide(game, agents))
    result = game.state.result
    if result is None:
        return []
    return [(f, 0.5 if result == "draw" else float(result == player_name(me))) for f, me in noted]


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
    """x with matrix · x = right, by Gaussian elimination with partial pivoting."""
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
    return loss / len(samples), right / max(decided, 1)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="?", type=int, default=200)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--agent-weights", choices=AGENT_WEIGHTS, default="hand-tuned")
    args = parser.parse_args(argv)
    tasks = [(f, p, FIRST_SEED + i) for f in FITTED for p in PAIRINGS for i in range(args.games)]
    with ProcessPoolExecutor(args.jobs) as pool:
        played = list(pool.map(positions, *zip(*tasks, strict=True), repeat(args.agent_weights), chunksize=4))
    train = [s for (_, _, seed), game in zip(tasks, played, strict=True) if seed % HELD_OUT for s in game]
    test = [s for (_, _, seed), game in zip(tasks, played, strict=True) if not seed % HELD_OUT for s in game]
    weights = fit(train)
    loss, accuracy = measure(weights, test)
    print(f"{len(train)} positions fitted, {len(test)} held out: ", end="")
    print(f"log-loss {loss:.4f}, winner right {accuracy:.1%}", end="")
    print(" (hand-tuned: {:.4f}, {:.1%})".format(*measure(HAND_TUNED, test)))
    for name, w in zip(NAMES, weights, strict=True):
        print(f"{name:12} {w:+.4f}")
    print(f"WEIGHTS = ({', '.join(f'{w:.4f}' for w in weights)})")


if __name__ == "__main__":
    main()
