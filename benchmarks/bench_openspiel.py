"""Our random play (smallest format) against OpenSpiel's C++ hearts, from the same kind of Python loop.

One run alternates, round after round: the three loops of bench_engine.py (engine only,
self-play, the `simulate --jobs 1` path) and random play of OpenSpiel's `hearts` (and any
other OpenSpiel game named with --openspiel). It prints the median decisions/s of each, the
ratios engine/hearts and simulate/hearts, and the goals: engine >= 100,000 decisions/s,
simulate >= 0.8 x engine, simulate/hearts >= 0.5.

OpenSpiel counts player decisions only, not chance outcomes (the deal). Every rate is per CPU
second of the process that plays. OpenSpiel lives in its own virtual environment,
benchmarks/.venv-openspiel, never in the project's: `--setup` creates it (python -m venv,
then pip install of the open_spiel wheel alone: the driver imports only its C++ binding,
pyspiel, so numpy and scipy are left out). Without it, the run says so and prints ours.
Our loops run twice: in this environment and on the engine compiled with mypyc
(benchmarks/compiled_engine.py builds benchmarks/.venv-compiled), with the goals for each.

python benchmarks/bench_openspiel.py [our games per round] [hearts games per round] [rounds]
                                     [--openspiel hearts,crazy_eights,...] [--no-setup] [--setup]
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import compiled_engine
import results
from bench_engine import LOOPS, SOURCE, Samples, goal_lines, measure, report, verdict
from blackpoker.runtime.engine import engine_build

HERE = Path(__file__).resolve().parent
VENV = HERE / ".venv-openspiel"
DRIVER = HERE / "openspiel_driver.py"
REQUIREMENT = "open_spiel==2.0.2"  # pinned: the figures compare with one build of the C++ games
REFERENCE = "hearts"
RATIO_GOAL = 0.5  # simulate path / hearts
METRICS = {  # by build: pure, compiled
    "openspiel.pure.engine": "decisions/s",
    "openspiel.pure.simulate_over_engine": "x",
    "openspiel.pure.simulate_over_hearts": "x",
    "openspiel.compiled.engine": "decisions/s",
    "openspiel.compiled.simulate_over_engine": "x",
    "openspiel.compiled.simulate_over_hearts": "x",
}


def venv_python() -> Path:
    return VENV / "bin" / "python"


def available() -> bool:
    return venv_python().is_file()


def setup() -> str | None:
    """Create OpenSpiel's environment unless it exists; None when ready, else why it is not."""
    if available():
        return None
    pip = [str(venv_python()), "-m", "pip", "install", "-q", "--disable-pip-version-check"]
    steps = {
        "python -m venv": [sys.executable, "-m", "venv", str(VENV)],
        f"pip install {REQUIREMENT}": [*pip, "--retries", "1", "--timeout", "30", "--no-deps", REQUIREMENT],
        "import pyspiel": [str(venv_python()), "-c", "import pyspiel"],
    }
    for name, command in steps.items():
        try:
            subprocess.run(command, check=True, capture_output=True, text=True)
        except (OSError, subprocess.CalledProcessError) as error:
            shutil.rmtree(VENV, ignore_errors=True)  # half made is absent: the next run tries again
            output = getattr(error, "stderr", None) or str(error)
            lines = [line for line in output.splitlines() if line.strip()]
            return f"{name} failed: {lines[-1] if lines else error}"
    return None


@dataclass(frozen=True, slots=True)
class SpielRun:
    games: int
    decisions: int  # player decisions; chance outcomes are not counted
    chance: int
    seconds: float  # CPU time of the driver's loop

    @property
    def rate(self) -> float:
        return self.decisions / self.seconds


def play_openspiel(game: str, games: int, seed: int) -> SpielRun:
    """Random play of an OpenSpiel game by the driver, in OpenSpiel's environment."""
    command = [str(venv_python()), str(DRIVER), game, str(games), str(seed)]
    result = subprocess.run(command, check=True, capture_output=True, text=True)
    return SpielRun(**json.loads(result.stdout))


def arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="?", type=int, default=100, help="our games per loop and round")
    parser.add_argument("spiel_games", nargs="?", type=int, default=1000, help="OpenSpiel games per round")
    # the machine has slow spells that move a round by up to a third: the median of nine
    # rounds leaves out up to four
    parser.add_argument("rounds", nargs="?", type=int, default=9)
    parser.add_argument("--openspiel", default=REFERENCE, help="OpenSpiel games, comma-separated")
    parser.add_argument("--no-setup", action="store_true", help="do not create OpenSpiel's environment")
    parser.add_argument("--setup", action="store_true", help="only create OpenSpiel's environment")
    results.add_option(parser)
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> None:
    args = arguments(argv)
    if args.setup:  # the compiled engine's environment is built by a run that measures it
        problem = setup()
        print(f"OpenSpiel environment: {problem or f'ready in {VENV.name}'}")
        return
    problem = None if available() else "not set up (--no-setup)" if args.no_setup else setup()
    unbuilt = (
        None
        if compiled_engine.available()
        else "not built (--no-setup)"
        if args.no_setup
        else compiled_engine.setup()
    )
    spiel_games = [] if problem else [*dict.fromkeys([REFERENCE, *args.openspiel.split(",")])]
    ours: Samples = {loop.label: [] for loop in LOOPS}
    compiled: Samples = {loop.label: [] for loop in LOOPS}
    theirs: dict[str, list[SpielRun]] = {game: [] for game in spiel_games}
    for round_ in range(args.rounds):
        here, there = measure(args.games, 1, round_ + 1, unbuilt is None)
        for label in ours:
            ours[label] += here[label]
            compiled[label] += there[label]
        for game in spiel_games:
            theirs[game].append(play_openspiel(game, args.spiel_games, round_ + 1))
    print(
        f"{args.rounds} rounds, each: {args.games} {SOURCE.edition} {SOURCE.format} games per loop of ours"
        + "".join(f", {args.spiel_games} OpenSpiel {game} games" for game in spiel_games)
    )
    engines = {f"this environment, {engine_build()}": report(f"this environment, {engine_build()}:", ours)}
    builds = {
        f"this environment, {engine_build()}": results.variant(engine_build()),
        "compiled with mypyc": "compiled",
    }
    if unbuilt:
        print(f"compiled engine: not measured: {unbuilt}")
        for metric in (m for m in METRICS if m.startswith("openspiel.compiled.")):
            results.missing(args.results, METRICS, metric, f"compiled engine: {unbuilt}")
    else:
        engines["compiled with mypyc"] = report("compiled with mypyc:", compiled)
    if problem:
        print(f"OpenSpiel: not measured, its environment is missing: {problem}")
    for game, runs in theirs.items():
        per_game = statistics.median(r.decisions / r.games for r in runs)
        label = f"OpenSpiel {game} (C++, Python loop)"
        print(
            f"{label:42s} {statistics.median(r.rate for r in runs):>9,.0f} decisions/s"
            f"  ({per_game:.1f} player decisions per game; chance outcomes not counted)"
        )
    for name, rates in engines.items():
        for line in goal_lines(rates):
            print(f"{name}: {line}")
        engine, simulate = rates[LOOPS[0].label], rates[LOOPS[2].label]
        metric = f"openspiel.{builds[name]}"
        results.write(args.results, METRICS, f"{metric}.engine", engine, args.rounds)
        results.write(args.results, METRICS, f"{metric}.simulate_over_engine", simulate / engine, args.rounds)
        if problem:
            results.missing(args.results, METRICS, f"{metric}.simulate_over_hearts", f"OpenSpiel {problem}")
        else:
            hearts = statistics.median(r.rate for r in theirs[REFERENCE])
            results.write(
                args.results, METRICS, f"{metric}.simulate_over_hearts", simulate / hearts, args.rounds
            )
            ratios = f"engine/{REFERENCE} {engine / hearts:.3f}, simulate/{REFERENCE} {simulate / hearts:.3f}"
            print(f"{name}: {ratios}")
            print(
                f"{name}: goal simulate/{REFERENCE} >= {RATIO_GOAL}: {simulate / hearts:.3f}, "
                f"{verdict(simulate / hearts >= RATIO_GOAL)}"
            )


if __name__ == "__main__":
    main()
