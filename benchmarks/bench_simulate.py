"""Simulation speed per format and the `--jobs 2` scaling (random vs random, invariants off).

For each format: decisions/s and games/s of `simulate`'s runner in this process (medians over
the runs); then games/s with 1 and 2 worker jobs on one format and their ratio (the 2-job
figure includes starting the worker processes, as a user's run does).

python benchmarks/bench_simulate.py [games per run] [runs] [scaling games] [scaling runs]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Sequence

from blackpoker.runtime.play.selfplay import Checks
from blackpoker.runtime.play.simulation import Plan, RulesSource, run_all
from blackpoker.runtime.rules.model import RuleSet
from played import EDITION, FORMATS

AGENTS = ("random", "random")


def timed(plan: Plan, jobs: int, rules: RuleSet) -> tuple[float, int, int]:
    """Seconds, decisions and failed games of one run (the rules compiled beforehand)."""
    start = time.perf_counter()
    records = run_all(plan, jobs, rules)
    seconds = time.perf_counter() - start
    return seconds, sum(r.decisions for r in records), sum(r.failure is not None for r in records)


def per_format(games: int, runs: int) -> None:
    for format_id in FORMATS:
        source = RulesSource(EDITION, format_id)
        rules = source.compile()  # compiled once: not part of the timing
        rates, game_rates, failed = [], [], 0
        for run in range(runs):
            plan = Plan(source, AGENTS, run + 1, games, check=Checks.NONE)
            seconds, decisions, failures = timed(plan, 1, rules)
            rates.append(decisions / seconds)
            game_rates.append(games / seconds)
            failed += failures
        note = f" ({failed} failed games)" if failed else ""
        rate, game_rate = statistics.median(rates), statistics.median(game_rates)
        print(
            f"{format_id:5} median over {runs} runs of {games} games: "
            f"{rate:>8,.0f} decisions/s {game_rate:>7,.1f} games/s{note}"
        )


def scaling(games: int, runs: int, format_id: str = FORMATS[0]) -> None:
    source = RulesSource(EDITION, format_id)
    rules = source.compile()
    speeds: dict[int, list[float]] = {1: [], 2: []}
    for run in range(runs):
        for jobs in (1, 2):
            seconds, _, _ = timed(Plan(source, AGENTS, run + 1, games, check=Checks.NONE), jobs, rules)
            speeds[jobs].append(games / seconds)
    one, two = (statistics.median(speeds[j]) for j in (1, 2))
    print(
        f"{format_id} --jobs 1: {one:,.1f} games/s, --jobs 2: {two:,.1f} games/s, "
        f"ratio {two / one:.2f} (median over {runs} runs of {games} games; {os.cpu_count()} CPUs)"
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for name, default in (("games", 100), ("runs", 5), ("scaling_games", 400), ("scaling_runs", 3)):
        parser.add_argument(name, nargs="?", type=int, default=default)
    args = parser.parse_args(argv)
    per_format(args.games, args.runs)
    scaling(args.scaling_games, args.scaling_runs)


if __name__ == "__main__":
    main()
