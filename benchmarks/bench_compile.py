"""Cold load + validate + parse + link of every format of each built-in edition.

Run: python benchmarks/bench_compile.py [runs]
"cold in-process" uses a new environment, so every file is read and checked again (schema
validators and parsers stay built, as they would after import); "fresh process" also pays
interpreter start-up and imports, as a user's `blackpoker compile` does (goal ≤ 0.5 s).
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path

import results
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


def fresh_process(edition: str) -> float:
    code = f"from blackpoker.compiler import compile_edition; compile_edition({edition!r})"
    return _timed([sys.executable, "-c", code])


def command_process(edition: str, format_id: str) -> float:
    """`blackpoker compile` as a user types it: the console script beside this interpreter."""
    script = shutil.which("blackpoker", path=str(Path(sys.executable).parent)) or "blackpoker"
    command = [script, "compile", "--edition", edition]
    return _timed([*command, "--format", format_id], quiet=True)


def baseline_process() -> float:
    return _timed([sys.executable, "-c", "pass"])


def _timed(command: list[str], quiet: bool = False) -> float:
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL if quiet else None)
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
    for edition in editions:
        cold, fresh = partial(cold_in_process, edition), partial(fresh_process, edition)
        rows.append((f"cold in-process compile of all {edition} formats", _median_ms(cold, runs)))
        rows.append((f"fresh process: import + compile all {edition}", _median_ms(fresh, runs)))
        largest = Environment().edition(edition).edition.formats[-1].id
        command = partial(command_process, edition, largest)
        rows.append((f"fresh process: blackpoker compile {edition} {largest}", _median_ms(command, runs)))
    rows.append(("fresh process: bare interpreter start", _median_ms(baseline_process, runs)))
    for label, median in rows:
        print(f"{label:50s} median {median:8.1f} ms  (n={runs})")
    fresh = [median for label, median in rows if label.startswith(FRESH)]
    verdict = "met" if max(fresh) <= GOAL_MS else "NOT MET"
    results.write(args.results, METRICS, "compile.fresh_process", max(fresh), runs, "the slowest edition")
    print(f"goal fresh process <= {GOAL_MS} ms: {verdict} (slowest {max(fresh):.0f} ms)")


if __name__ == "__main__":
    main()
