"""The search agent's speed at its default budget (or --budget N): search against greedy, one process.

For each format: the search agent's decisions/s (the time inside its `choose`, every decision
it makes counted, single-option ones too) and games/s of whole games, medians over the runs,
and the share of all the games it won, with its 95 % interval. Each deal is played twice, the
seats swapped, so a run's games are an even number. Times are this process's CPU time, so the
figures are those of one core even on a machine busy with other work; games/s by the wall
clock is shown beside. With --compiled, the same runs follow on the engine compiled with mypyc
(benchmarks/compiled_engine.py, built when missing or out of date), the same games too.

The default, 4 runs of 50 games, plays 200 games a format, as docs/simulate.md's strength
figures: fewer cannot tell a share of 75 % from 70 % or 80 % (60 games give an interval of
about ±11 points). `python benchmarks --quick` plays far fewer, for the speed only.

python benchmarks/bench_search.py [games per run] [runs] [--budget N] [--compiled]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence

import compiled_engine
import results
from blackpoker.compiler import compile
from blackpoker.runtime.engine import engine_build
from blackpoker.runtime.engine.game import Game
from blackpoker.runtime.engine.options import Option
from blackpoker.runtime.engine.view import View
from blackpoker.runtime.play.greedy import GreedyAgent
from blackpoker.runtime.play.search import DEFAULT_BUDGET, SearchAgent
from blackpoker.runtime.play.selfplay import frozen_between, play
from blackpoker.runtime.play.stats import wilson
from blackpoker.runtime.rules.model import RuleSet
from played import EDITION, FORMATS, STANDARD

SEARCHED = tuple(dict.fromkeys((FORMATS[0], STANDARD, FORMATS[-1])))  # smallest, standard, biggest
GOALS = {"pure": 6.0, "compiled": 15.0}  # games/s on one core, by build (goals.yaml's search goals)
ROLES = dict(zip(("smallest", "standard", "biggest"), (FORMATS[0], STANDARD, FORMATS[-1]), strict=True))
METRICS = {  # by build (pure, compiled): the slowest format's games/s; the share won per format
    "search.pure.games": "games/s",
    "search.pure.won.smallest": "% won",
    "search.pure.won.standard": "% won",
    "search.pure.won.biggest": "% won",
    "search.compiled.games": "games/s",
    "search.compiled.won.smallest": "% won",
    "search.compiled.won.standard": "% won",
    "search.compiled.won.biggest": "% won",
}


class Timed:
    """The search agent, with the time it spends choosing."""

    reads_view = True

    def __init__(self, agent: SearchAgent) -> None:
        self.agent, self.name = agent, agent.name
        self.seconds, self.decisions = 0.0, 0

    def choose(self, view: View | None, options: Sequence[Option]) -> Option:
        start = time.process_time()
        chosen = self.agent.choose(view, options)
        self.seconds += time.process_time() - start
        self.decisions += 1
        return chosen


def one_run(
    rules: RuleSet, games: int, run: int, budget: int = DEFAULT_BUDGET
) -> tuple[float, float, float, int]:
    """The search agent's decisions/s, the games/s of `games` games by CPU and wall time, and
    the games it won; games 2k and 2k + 1 are one deal, the seats swapped."""
    searcher = Timed(SearchAgent(rules, run, budget))
    start, wall = time.process_time(), time.perf_counter()
    won = 0
    for index in frozen_between(range(games)):  # as `simulate` runs its games
        greedy = GreedyAgent(rules, index)
        game = Game.new(rules, run * 1000 + index // 2)
        play(game, (searcher, greedy) if index % 2 == 0 else (greedy, searcher))
        won += game.result is not None and game.result.winner == index % 2
    seconds, walled = time.process_time() - start, time.perf_counter() - wall
    return searcher.decisions / searcher.seconds, games / seconds, games / walled, won


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for name, default in (("games", 50), ("runs", 4)):
        parser.add_argument(name, nargs="?", type=int, default=default)
    parser.add_argument("--budget", type=int, default=DEFAULT_BUDGET, help="iterations per decision")
    parser.add_argument("--compiled", action="store_true", help="then the same on the mypyc-compiled engine")
    results.add_option(parser)
    args = parser.parse_args(argv)
    if args.games < 2 or args.games % 2:
        parser.error("games per run: an even number, each deal is played from both seats")
    print(f"{engine_build()}:")
    slowest = None
    build, strength = results.variant(engine_build()), []
    for format_id in SEARCHED:
        rules = compile(EDITION, format_id)
        measured = [one_run(rules, args.games, run + 1, args.budget) for run in range(args.runs)]
        decisions, games, by_wall = (statistics.median(m[i] for m in measured) for i in (0, 1, 2))
        slowest = games if slowest is None else min(slowest, games)
        won, total = sum(m[3] for m in measured), args.runs * args.games
        share, (low, high) = won / total, wilson(won, total)
        strength.append(f"{format_id} {share:.1%} [{low:.1%}, {high:.1%}] {won}/{total}")
        note = f"search:{args.budget}, {EDITION} {format_id}, 95% interval [{low:.1%}, {high:.1%}]"
        for role in (role for role, format_ in ROLES.items() if format_ == format_id):
            results.write(args.results, METRICS, f"search.{build}.won.{role}", 100 * share, total, note)
        print(
            f"{format_id:5} search:{args.budget} vs greedy, median over {args.runs} runs of {args.games} "
            f"games: {decisions:>7,.0f} search decisions/s {games:>6,.2f} games/s "
            f"({by_wall:.2f} by the wall clock)"
        )
    assert slowest is not None
    verdict = "met" if slowest >= GOALS[build] else "NOT MET"
    print(f"goal search:{args.budget} >= {GOALS[build]:g} games/s on one core: {slowest:.2f}, {verdict}")
    print(f"search:{args.budget} won against greedy: {', '.join(strength)}")
    note = f"search:{args.budget}, the slowest format"
    results.write(args.results, METRICS, f"search.{build}.games", slowest, args.runs, note)
    if args.compiled:
        problem = compiled_engine.setup()
        if problem:
            print(f"compiled engine: not measured: {problem}")
            for metric in (m for m in METRICS if m.startswith("search.compiled.")):
                results.missing(args.results, METRICS, metric, f"compiled engine: {problem}")
            return
        command = [
            str(compiled_engine.python()),
            __file__,
            str(args.games),
            str(args.runs),
            "--budget",
            str(args.budget),
            *(["--results", str(args.results)] if args.results else []),
        ]
        sys.stdout.flush()
        subprocess.run(command, check=True, env=compiled_engine.isolated())


if __name__ == "__main__":
    main()
