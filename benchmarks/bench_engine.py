"""Random self-play on lite: decisions/s and games/s (medians), then a cProfile summary.

Two loops are timed over the same games (identical decisions, invariants off):
* self-play: `runtime.selfplay.simulate`, where each agent is handed its player's view;
* engine: legal_options() and apply() with the same random choices and no view, which is
  what the loop measured before views existed.

python benchmarks/bench_engine.py [games per run] [runs]
"""

from __future__ import annotations

import cProfile
import pstats
import statistics
import sys
import time
from collections.abc import Callable

from blackpoker.compiler import compile
from blackpoker.compiler.model import RuleSet
from blackpoker.runtime.engine.game import Game
from blackpoker.runtime.play.selfplay import DECISION_CAP, random_agents, simulate


def engine(rules: RuleSet, games: int, seed: int) -> int:
    """The games `simulate` plays (same seeds and choices), without building views."""
    decisions = 0
    for index in range(games):
        game_seed = seed * 1_000_003 + index
        game = Game.new(rules, game_seed)
        agents = random_agents(game_seed)
        while not game.over and game.decisions < DECISION_CAP:
            options = game.legal_options()
            game.apply(options[agents[game.to_move].rng.randrange(len(options))])  # type: ignore[index]
        decisions += game.decisions
    return decisions


def measure(name: str, play: Callable[[int], int], games: int, runs: int) -> None:
    rates, game_rates = [], []
    for run in range(runs):
        start = time.perf_counter()
        decisions = play(run)
        seconds = time.perf_counter() - start
        rates.append(decisions / seconds)
        game_rates.append(games / seconds)
    print(
        f"{name}: median over {runs} runs of {games} games: {statistics.median(rates):,.0f} decisions/s, "
        f"{statistics.median(game_rates):,.1f} games/s"
    )


def main(games: int = 200, runs: int = 5) -> None:
    rules = compile("v7", "lite")
    simulate(rules, 5, seed=1000, check=False)  # warm the per-rule-set tables
    measure(
        "self-play (agents get views)",
        lambda s: simulate(rules, games, s, check=False).decisions,
        games,
        runs,
    )
    measure("engine (options + apply)   ", lambda s: engine(rules, games, s), games, runs)
    profile = cProfile.Profile()
    profile.runcall(simulate, rules, games, 99, check=False)
    pstats.Stats(profile).sort_stats("tottime").print_stats(12)


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:3]))
