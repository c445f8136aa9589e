"""The search agent's speed at its default budget: search against greedy, one process.

For each format: the search agent's decisions/s (the time inside its `choose`, every decision
it makes counted, single-option ones too) and games/s of whole games, medians over the runs,
seats alternating game by game.

python benchmarks/bench_search.py [games per run] [runs]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Sequence

from blackpoker.compiler import compile
from blackpoker.compiler.model import RuleSet
from blackpoker.runtime.engine.game import Game
from blackpoker.runtime.engine.options import Option
from blackpoker.runtime.engine.view import View
from blackpoker.runtime.play.agents import GreedyAgent
from blackpoker.runtime.play.search import DEFAULT_BUDGET, SearchAgent
from blackpoker.runtime.play.selfplay import play

FORMATS = ("lite", "std", "mast")
GOAL = 5.0  # games/s on one core (issue: a budget that still runs >= 5 games/s)


class Timed:
    """The search agent, with the time it spends choosing."""

    reads_view = True

    def __init__(self, agent: SearchAgent) -> None:
        self.agent, self.name = agent, agent.name
        self.seconds, self.decisions = 0.0, 0

    def choose(self, view: View | None, options: Sequence[Option]) -> Option:
        start = time.perf_counter()
        chosen = self.agent.choose(view, options)
        self.seconds += time.perf_counter() - start
        self.decisions += 1
        return chosen


def one_run(rules: RuleSet, games: int, run: int) -> tuple[float, float]:
    """The search agent's decisions/s and the games/s of `games` games."""
    searcher = Timed(SearchAgent(rules, run))
    start = time.perf_counter()
    for index in range(games):
        greedy = GreedyAgent(rules, index)
        play(
            Game.new(rules, run * 1000 + index), (searcher, greedy) if index % 2 == 0 else (greedy, searcher)
        )
    seconds = time.perf_counter() - start
    return searcher.decisions / searcher.seconds, games / seconds


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for name, default in (("games", 20), ("runs", 3)):
        parser.add_argument(name, nargs="?", type=int, default=default)
    args = parser.parse_args(argv)
    slowest = None
    for format_id in FORMATS:
        rules = compile("v7", format_id)
        measured = [one_run(rules, args.games, run + 1) for run in range(args.runs)]
        decisions, games = (statistics.median(m[i] for m in measured) for i in (0, 1))
        slowest = games if slowest is None else min(slowest, games)
        print(
            f"{format_id:5} search:{DEFAULT_BUDGET} vs greedy, median over {args.runs} runs of {args.games} "
            f"games: {decisions:>7,.0f} search decisions/s {games:>6,.2f} games/s"
        )
    assert slowest is not None
    verdict = "met" if slowest >= GOAL else "NOT MET"
    print(f"goal search:{DEFAULT_BUDGET} >= {GOAL:g} games/s on one core: {slowest:.2f}, {verdict}")


if __name__ == "__main__":
    main()
