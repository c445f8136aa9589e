"""Compile time of large edition files: generated editions of 1k, 5k and 10k actions and a
based edition of 2k, checked and compiled (every format) as `blackpoker validate` and
`compile` do, in a new environment each run.

Run: python benchmarks/bench_large.py [runs] [--sizes 1000,5000,10000] [--based 2000]
The files are made from the default edition's actions (benchmarks/generated.py). Times are
process CPU time; the last column is the time the added actions take per 1,000 (the time
less that of the edition written out whole), which stays flat when the compile time grows
linearly with the number of entries.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path

from blackpoker.compiler.environment import Environment
from generated import based_edition, full_edition
from played import EDITION

RUNS = 3  # default
SIZES = (1000, 5000, 10000)
BASED = 2000
# the edition written out whole with actions added, and a based edition that adds them
MAKERS = {"whole": full_edition, "based": based_edition}


def compile_time(path: Path) -> float:
    """Validate the file, then link every format of it, as a new environment does."""
    start = time.process_time()
    env = Environment()
    count, problems = env.check_paths([path])
    assert count == 1 and not problems, problems[:3]
    rulesets = env.compile_edition(str(path))
    elapsed = time.process_time() - start
    assert all(r.actions for r in rulesets.values())
    return elapsed


def _median(sample: Callable[[], float], runs: int) -> float:
    return statistics.median(sample() for _ in range(runs))


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="?", type=int, default=RUNS)
    parser.add_argument("--sizes", default=",".join(map(str, SIZES)), help="actions added, comma-separated")
    parser.add_argument("--based", type=int, default=BASED, help="actions a based edition adds")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        baselines = {
            kind: _median(partial(compile_time, make(EDITION, folder, 0)), args.runs)
            for kind, make in MAKERS.items()
        }
        for kind, median in baselines.items():
            print(f"{kind} {EDITION}, no action added: median {median:.2f} s CPU (baseline, n={args.runs})")
        files = [("whole", f"{EDITION} + {n:,} actions", n) for n in _sizes(args.sizes)]
        files.append(("based", f"based on {EDITION} + {args.based:,}", args.based))
        for kind, label, count in files:
            path = MAKERS[kind](EDITION, folder, count)
            median = _median(partial(compile_time, path), args.runs)
            each = (median - baselines[kind]) / count * 1000  # the time the added actions take
            size = path.stat().st_size / 1024
            added = f"{each:.2f} s per 1,000 actions added"
            print(f"{label:30s} {size:6.0f} KiB  median {median:7.2f} s CPU  ({added})")


def _sizes(text: str) -> list[int]:
    return [int(n) for n in text.split(",")]


if __name__ == "__main__":
    main()
