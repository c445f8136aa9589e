"""Fit the search agent's value: a logistic regression of the result on a position's features.

Plays seeded games of the default edition's smallest and standard formats (greedy against
greedy, and search against greedy), notes every quiet position (nothing requested or resolving)
with the features of the player holding chance (runtime/play/features.py), labels it with that
player's final result, and fits the weights by Newton's method with a small ridge
(runtime/play/fitting.py, which `blackpoker fit` runs on any rule set). The search
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
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from itertools import repeat

from blackpoker.compiler import compile
from blackpoker.runtime.play import fitting
from blackpoker.runtime.play.features import NAMES
from blackpoker.runtime.play.fitting import PAIRINGS, Sample, fit, held_out, measure
from blackpoker.runtime.play.greedy import BULWARK, LIFE_PRESSURE, SOLDIER_BASE
from played import EDITION, FORMATS, STANDARD

FITTED = tuple(dict.fromkeys((FORMATS[0], STANDARD)))  # smallest and standard
FIRST_SEED = 10_000_000
# the search agent's value before the fit, by the features' NAMES: life, LIFE_PRESSURE per
# log1p(life), 2.5 per hand card, SOLDIER_BASE + size per soldier, BULWARK per bulwark and 0.5
# per charged character, a lead of 6 making a win 73% likely
HAND_TUNED = tuple(w / 6 for w in (1, LIFE_PRESSURE, 2.5, 0, SOLDIER_BASE, 1, BULWARK, 0.5, 0, 0, 0))
# the first fit, on games of the hand-tuned agent (500 per format and pairing)
FIRST_FIT = (-0.1657, 1.8495, 0.1415, -0.2014, 0.0334, 0.0513, 0.2135, 0.0047, -0.1940, 0.0020, 0.0195)
AGENT_WEIGHTS = {"hand-tuned": HAND_TUNED, "first-fit": FIRST_FIT}


def positions(format_id: str, pairing: str, seed: int, agent_weights: str) -> list[Sample]:
    """The quiet positions of one game of the default edition with the result for the player
    holding chance (runtime/play/fitting.py)."""
    return fitting.positions(compile(EDITION, format_id), pairing, seed, AGENT_WEIGHTS[agent_weights])


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="?", type=int, default=200)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--agent-weights", choices=AGENT_WEIGHTS, default="hand-tuned")
    args = parser.parse_args(argv)
    tasks = [(f, p, FIRST_SEED + i) for f in FITTED for p in PAIRINGS for i in range(args.games)]
    with ProcessPoolExecutor(args.jobs) as pool:
        played = list(pool.map(positions, *zip(*tasks, strict=True), repeat(args.agent_weights), chunksize=4))
    train = [s for (_, _, seed), game in zip(tasks, played, strict=True) if not held_out(seed) for s in game]
    test = [s for (_, _, seed), game in zip(tasks, played, strict=True) if held_out(seed) for s in game]
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
