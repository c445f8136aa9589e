"""Cold load + validate + parse + link of every edition-7 format.

Run: python benchmarks/bench_compile.py [runs]
"cold in-process" clears every cache (loaded file, schema validators, parsers stay
built as they would after import); "fresh process" also pays interpreter start-up and
imports, as a user's `blackpoker compile` does.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence

from blackpoker.compiler.environment import Environment

RUNS = 15  # default


def cold_in_process() -> float:
    start = time.perf_counter()
    rulesets = Environment().compile_edition("v7")  # a new environment parses again
    elapsed = time.perf_counter() - start
    assert len(rulesets["mast"].actions) == 37
    return elapsed


def fresh_process() -> float:
    code = "from blackpoker.compiler import compile_edition; compile_edition('v7')"
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True)
    return time.perf_counter() - start


def baseline_process() -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], check=True)
    return time.perf_counter() - start


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="?", type=int, default=RUNS)
    runs = parser.parse_args(argv).runs
    cold_in_process()  # warm the imports once
    rows = [
        ("cold in-process compile of all v7 formats", [cold_in_process() for _ in range(runs)]),
        ("fresh process: import + compile all v7", [fresh_process() for _ in range(runs)]),
        ("fresh process: bare interpreter start", [baseline_process() for _ in range(runs)]),
    ]
    for label, samples in rows:
        print(f"{label:45s} median {statistics.median(samples) * 1000:8.1f} ms  (n={len(samples)})")


if __name__ == "__main__":
    main()
