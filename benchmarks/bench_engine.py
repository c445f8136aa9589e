"""Random play on the smallest format, three ways over the same games: decisions/s (medians, one core).

* engine only: `legal_options()` + `apply()` with the random agents' seeded choices, no views;
* self-play: `selfplay.play_game` (invariants off), where an agent that reads the view gets it
  (the random agents do not);
* simulate path: `simulation.run_all(Plan(...), 1)` as `blackpoker simulate --jobs 1` runs it,
  with simulate's default checks (the invariants at each game's end).

All three play the same games (same seeds, same choices), so their decision counts agree;
each run's games share one rules context (its caches) and freeze the garbage collector's
view of them between games (`selfplay.frozen_between`), as `simulate`'s do.
Rates are decisions per CPU second of this process, so other load on a shared machine does
not count against the engine. Goals: engine >= 100,000 decisions/s; simulate >= 0.8 x engine.

With --compiled, the same runs on the engine compiled with mypyc (benchmarks/compiled_engine.py)
take turns with the pure ones, and both are printed with the speed-up.

python benchmarks/bench_engine.py [games per run] [runs] [--compiled] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import compiled_engine
from blackpoker.runtime.engine import engine_build
from blackpoker.runtime.engine.game import Game
from blackpoker.runtime.engine.rules import Rules
from blackpoker.runtime.play.selfplay import (
    DECISION_CAP,
    Checks,
    frozen_between,
    game_seed,
    play_game,
    random_agents,
)
from blackpoker.runtime.play.simulation import Plan, RulesSource, run_all
from played import EDITION, FORMATS

SOURCE = RulesSource(EDITION, FORMATS[0])
RULESET = SOURCE.compile()  # compiled once, as simulate does: not part of any timing
AGENTS = ("random", "random")
ENGINE_GOAL = 100_000  # decisions per second, engine only
SIMULATE_GOAL = 0.8  # simulate path / engine only


@dataclass(frozen=True, slots=True)
class Loop:
    """One way of playing a run's games: `play(games, seed)` returns the decisions made."""

    label: str
    play: Callable[[int, int], int]


def engine_only(games: int, seed: int) -> int:
    """The games `play_game` plays (same seeds, same choices), without agents or views; the
    run's games share one rules context, as a simulation's do.

    Each choice is the random agent's `rng.randrange(n)` drawn inline: the same calls of its
    generator's `getrandbits`, without randrange's two Python calls, which are not the engine's
    time (the OpenSpiel loop draws its choices the same way). Written out here rather than
    calling the engine's `transitions.draw_below`, so that compare_builds.py can run this loop
    on builds from before it."""
    rules = Rules(RULESET)
    decisions = 0
    for index in frozen_between(range(games)):
        number = game_seed(seed, index)
        game = Game.new(rules, number, check=False)
        draws = [agent.rng.getrandbits for agent in random_agents(number)]  # type: ignore[attr-defined]
        while not game.over and game.decisions < DECISION_CAP:
            options = game.legal_options()
            count = len(options)
            bits, draw = count.bit_length(), draws[game.to_move]  # type: ignore[index]
            chosen = draw(bits)
            while chosen >= count:
                chosen = draw(bits)
            game.apply(options[chosen])
        decisions += game.decisions
    return decisions


def self_play(games: int, seed: int) -> int:
    rules = Rules(RULESET)
    return sum(
        play_game(rules, AGENTS, seed, i, check=Checks.NONE).decisions for i in frozen_between(range(games))
    )


def simulate_path(games: int, seed: int) -> int:
    """`blackpoker simulate --jobs 1`'s runner with the plan simulate makes by default."""
    return sum(r.decisions for r in run_all(Plan(SOURCE, AGENTS, seed, games), 1, RULESET))


LOOPS = (
    Loop("engine only (options + apply)", engine_only),
    Loop("self-play (views when read)", self_play),
    Loop("simulate --jobs 1 path (end checks)", simulate_path),
)


def timed(loop: Loop, games: int, seed: int) -> tuple[int, float]:
    """Decisions and CPU seconds of one run."""
    start = time.process_time()
    decisions = loop.play(games, seed)
    return decisions, time.process_time() - start


def verdict(met: bool) -> str:
    return "met" if met else "NOT MET"


def goal_lines(rates: dict[str, float]) -> list[str]:
    """The engine's own goals, from the median rates by loop label."""
    engine, simulate = rates[LOOPS[0].label], rates[LOOPS[2].label]
    return [
        f"goal engine >= {ENGINE_GOAL:,} decisions/s: {engine:,.0f}, {verdict(engine >= ENGINE_GOAL)}",
        f"goal simulate >= {SIMULATE_GOAL} x engine: {simulate / engine:.3f}, "
        f"{verdict(simulate >= SIMULATE_GOAL * engine)}",
    ]


def arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="?", type=int, default=200, help="games per run")
    parser.add_argument("runs", nargs="?", type=int, default=5)
    parser.add_argument("--first-seed", type=int, default=1, help="run i plays with seed first-seed + i")
    parser.add_argument("--profile", action="store_true", help="then a cProfile summary of the simulate path")
    parser.add_argument(
        "--compiled",
        action="store_true",
        help="also measure the mypyc-compiled engine (benchmarks/.venv-compiled, built when missing)",
    )
    parser.add_argument("--json", action="store_true", help="print each loop's (decisions, seconds) per run")
    return parser.parse_args(argv)


Samples = dict[str, list[tuple[int, float]]]  # (decisions, CPU seconds) per run, by loop label


def measure(games: int, runs: int, first_seed: int, compiled: bool) -> tuple[Samples, Samples]:
    """The loops' runs here and, with `compiled`, on the compiled engine, taking turns so that a
    slow spell of the machine hits all."""
    for loop in LOOPS:
        loop.play(2, 0)  # warm the per-rule-set tables
    here: Samples = {loop.label: [] for loop in LOOPS}
    there: Samples = {loop.label: [] for loop in LOOPS}
    for run in range(runs):
        for loop in LOOPS:
            here[loop.label].append(timed(loop, games, first_seed + run))
        if compiled:
            for label, sample in compiled_engine.engine_runs(games, first_seed + run).items():
                there[label].append(sample)
    return here, there


def report(title: str, samples: Samples) -> dict[str, float]:
    """Print the median rate of each loop; the rates by label."""
    counts = {label: [d for d, _ in runs] for label, runs in samples.items()}
    if len({tuple(c) for c in counts.values()}) != 1:
        raise SystemExit(f"the loops did not play the same games: decisions per run {counts}")
    rates = {label: statistics.median(d / s for d, s in runs) for label, runs in samples.items()}
    print(title)
    for label, rate in rates.items():
        print(f"  {label:36s} {rate:>9,.0f} decisions/s")
    per_run = ", ".join(f"{d:,}" for d in counts[LOOPS[0].label])
    print(f"  (the same games each way: {per_run} decisions per run)")
    return rates


def main(argv: Sequence[str] | None = None) -> None:
    args = arguments(argv)
    problem = compiled_engine.setup() if args.compiled else None
    here, there = measure(args.games, args.runs, args.first_seed, args.compiled and problem is None)
    if args.json:
        print(json.dumps({label: runs[0] for label, runs in here.items()}))
        return
    print(f"{SOURCE.edition} {SOURCE.format}, random vs random, {args.games} games per run, {args.runs} runs")
    rates = report(f"this environment, {engine_build()}:", here)
    for line in goal_lines(rates):
        print(line)
    if problem:
        print(f"compiled engine: not measured: {problem}")
    elif args.compiled:
        fast = report("compiled with mypyc:", there)
        for line in goal_lines(fast):
            print(f"compiled: {line}")
        speedups = ", ".join(f"{fast[label] / rate:.2f}x" for label, rate in rates.items())
        print(f"compiled / pure, loop by loop: {speedups}")
    if args.profile:
        profile = cProfile.Profile()
        profile.runcall(simulate_path, args.games, 99)
        pstats.Stats(profile).sort_stats("tottime").print_stats(12)


if __name__ == "__main__":
    main()
