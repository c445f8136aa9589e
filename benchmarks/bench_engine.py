"""Random self-play on lite: decisions/s and games/s (medians), then a cProfile summary.

python benchmarks/bench_engine.py [games per run] [runs]
"""

from __future__ import annotations

import cProfile
import pstats
import statistics
import sys
import time

from blackpoker.compiler import compile
from blackpoker.runtime.selfplay import simulate


def main(games: int = 200, runs: int = 5) -> None:
    rules = compile("v7", "lite")
    rates, game_rates = [], []
    for run in range(runs):
        start = time.perf_counter()
        tally = simulate(rules, games, seed=run, check=False)
        seconds = time.perf_counter() - start
        rates.append(tally.decisions / seconds)
        game_rates.append(tally.games / seconds)
    print(
        f"median over {runs} runs of {games} games: {statistics.median(rates):,.0f} decisions/s, "
        f"{statistics.median(game_rates):,.1f} games/s (invariants off)"
    )
    profile = cProfile.Profile()
    profile.runcall(simulate, rules, games, 99, check=False)
    pstats.Stats(profile).sort_stats("tottime").print_stats(12)


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:3]))
