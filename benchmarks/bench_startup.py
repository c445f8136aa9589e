"""Time the command line's start-up, as ratios to `python3 -c pass` measured in the same run.

Run: python benchmarks/bench_startup.py [runs]
Goals: `blackpoker --version` ≤ 3 × `python3 -c pass`; a one-game `simulate` with a warm
rule-set cache ≤ 0.35 s. Each figure is the median of fresh processes, taken in turn (one run
of each command, then the next round), so the machine's load falls on all of them alike. The
cache is a temporary folder, warmed by one run before the rounds; `--no-cache` shows what the
compilation costs. The processes keep their modules' bytecode, as an installed package does
(pip compiles it on install), in a temporary folder of their own (PYTHONPYCACHEPREFIX): a
shell that sets PYTHONDONTWRITEBYTECODE would otherwise time every module compiled anew.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import results

GOALS = {"--version": 3.0}  # × python3 -c pass
WARM_GOAL = 0.35  # seconds, a one-game simulate on a warm cache
METRICS = {"startup.version_ratio": "x python3 -c pass", "startup.simulate_warm": "s"}


def blackpoker() -> list[str]:
    """The console script installed with this Python, else the one on PATH, else the same entry
    point through this Python. The script beside the interpreter comes first: a version manager
    puts a shim of its own on PATH (pyenv's is a shell script that runs pyenv, some 100 ms a
    call) that `python3 -c pass`, timed through sys.executable, would not pay."""
    beside = Path(sysconfig.get_path("scripts")) / "blackpoker"
    found = str(beside) if beside.is_file() else shutil.which("blackpoker")
    return [found] if found else [sys.executable, "-c", "from blackpoker.cli.main import main; main()"]


def process_env(cache: str, bytecode: str) -> dict[str, str]:
    """This environment with the rule-set cache in `cache` and the modules' bytecode kept in
    `bytecode`, as an installed package keeps it."""
    env = {**os.environ, "BLACKPOKER_CACHE_DIR": cache, "PYTHONPYCACHEPREFIX": bytecode}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def seconds(command: Sequence[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="?", type=int, default=11)
    results.add_option(parser)
    args = parser.parse_args(argv)
    runs = args.runs
    tool = blackpoker()
    commands = {
        "python3 -c pass": [sys.executable, "-c", "pass"],
        "--version": [*tool, "--version"],
        "--help": [*tool, "--help"],
        "simulate -n 1 (warm cache)": [*tool, "simulate", "-n", "1"],
        "simulate -n 1 --no-cache": [*tool, "simulate", "-n", "1", "--no-cache"],
    }
    with tempfile.TemporaryDirectory() as cache, tempfile.TemporaryDirectory() as bytecode:
        env = process_env(cache, bytecode)
        seconds(commands["simulate -n 1 (warm cache)"], env)  # warms the cache
        times: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(runs):
            for name, command in commands.items():
                times[name].append(seconds(command, env))
    medians = {name: statistics.median(found) for name, found in times.items()}
    base = medians["python3 -c pass"]
    print(f"start-up, median of {runs} fresh processes each ({os.cpu_count()} cores), {tool[0]}")
    for name, median in medians.items():
        print(f"{name:<28} {median * 1000:8.1f} ms  {median / base:6.2f} × python3 -c pass")
    results.write(args.results, METRICS, "startup.version_ratio", medians["--version"] / base, runs)
    for name, goal in GOALS.items():
        ratio = medians[name] / base
        print(
            f"goal {name} <= {goal:g} x python3 -c pass: {ratio:.2f}, {'met' if ratio <= goal else 'NOT MET'}"
        )
    warm = medians["simulate -n 1 (warm cache)"]
    results.write(args.results, METRICS, "startup.simulate_warm", warm, runs)
    print(f"goal simulate warm <= {WARM_GOAL} s: {warm:.2f} s, {'met' if warm <= WARM_GOAL else 'NOT MET'}")


if __name__ == "__main__":
    main()
