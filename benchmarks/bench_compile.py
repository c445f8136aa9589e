"""Cold load + validate + parse + link of every format of each built-in edition.

Run: python benchmarks/bench_compile.py [runs]
"cold in-process" uses a new environment, so every file is read and checked again (schema
validators and parsers stay built, as they would after import); "fresh process" also pays
interpreter start-up and imports, as a user's `blackpoker compile` does (goal ≤ 0.5 s). The
processes keep their modules' bytecode, as an installed package does, in a temporary folder
of their own (bench_startup.py): a shell that sets PYTHONDONTWRITEBYTECODE would otherwise
time every module compiled anew (some 150 ms a process on this machine).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from functools import partial

import results
from bench_startup import blackpoker, process_env
from blackpoker.compiler.environment import Environment

RUNS = 15  # default
GOAL_MS = 500
METRICS = {"compile.fresh_process": "ms"}
FRESH = ("fresh process: import", "fresh process: blackpoker")  # the rows the goal is about


def cold_in_process(edition: str) -> float:
    start = time.perf_counter()
    rulesets = Environment().compile_edition(edition)  # a new environment parses again
    elapsed = time.perf_counter() - start
    assert rulesets and all(r.actions for r in rulesets.values())
    return elapsed


def fresh_process(env: dict[str, str], edition: str) -> float:
    code = f"from blackpoker.compiler import compile_edition; compile_edition({edition!r})"
    return _timed(env, [sys.executable, "-c", code])


def command_process(env: dict[str, str], edition: str, format_id: str) -> float:
    """`blackpoker compile` as a user types it: the console script beside this interpreter."""
    command = [*blackpoker(), "compile", "--edition", edition]
    return _timed(env, [*command, "--format", format_id], quiet=True)


def baseline_process(env: dict[str, str]) -> float:
    return _timed(env, [sys.executable, "-c", "pass"])


def _timed(env: dict[str, str], command: list[str], quiet: bool = False) -> float:
    start = time.perf_counter()
    subprocess.run(command, env=env, check=True, stdout=subprocess.DEVNULL if quiet else None)
    return time.perf_counter() - start


def _median_ms(sample: Callable[[], float], runs: int) -> float:
    return statistics.median(sample() for _ in range(runs)) * 1000


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="?", type=int, default=RUNS)
    results.add_option(parser)
    args = parser.parse_args(argv)
    runs = args.runs
    editions = Environment().builtin_editions()
    cold_in_process(editions[0])  # warm the imports once
    rows = []
    with tempfile.TemporaryDirectory() as cache, tempfile.TemporaryDirectory() as bytecode:
        env = process_env(cache, bytecode)
        largest = {e: Environment().edition(e).edition.formats[-1].id for e in editions}
        fresh_process(env, editions[0])  # the modules' bytecode, written once
        command_process(env, editions[0], largest[editions[0]])
        for edition in editions:
            cold, fresh = partial(cold_in_process, edition), partial(fresh_process, env, edition)
            rows.append((f"cold in-process compile of all {edition} formats", _median_ms(cold, runs)))
            rows.append((f"fresh process: import + compile all {edition}", _median_ms(fresh, runs)))
            command = partial(command_process, env, edition, largest[edition])
            label = f"fresh process: blackpoker compile {edition} {largest[edition]}"
            rows.append((label, _median_ms(command, runs)))
        rows.append(
            ("fresh process: bare interpreter start", _median_ms(partial(baseline_process, env), runs))
        )
    for label, median in rows:
        print(f"{label:50s} median {median:8.1f} ms  (n={runs})")
    fresh = [median for label, median in rows if label.startswith(FRESH)]
    verdict = "met" if max(fresh) <= GOAL_MS else "NOT MET"
    results.write(args.results, METRICS, "compile.fresh_process", max(fresh), runs, "the slowest edition")
    print(f"goal fresh process <= {GOAL_MS} ms: {verdict} (slowest {max(fresh):.0f} ms)")


if __name__ == "__main__":
    main()
