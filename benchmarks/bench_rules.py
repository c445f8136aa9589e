"""`blackpoker build --rules FILE` from a fresh process: a local rule's own sheets (HTML, A4 and
2-up PDFs) as a designer's command builds them; wall time, median of the runs (goal ≤ 10 s).

Run: python benchmarks/bench_rules.py FILE [--runs N] [--html-only]
Each run builds into a fresh temporary folder after one untimed run that leaves the modules'
bytecode in a folder of the script's (as an installed package has it; bench_startup.py).
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
from collections.abc import Sequence
from pathlib import Path

import results
from bench_startup import blackpoker, process_env, seconds

GOAL = 10.0  # seconds, a one-format house sheet with its PDFs
METRICS = {"rules.house_sheet": "s"}


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rules", type=Path, help="a local-rule file (kind: overlay)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--html-only", action="store_true", help="no PDFs (the goal is with them)")
    results.add_option(parser)
    args = parser.parse_args(argv)
    if not args.rules.is_file():
        parser.error(f"{args.rules}: no such file")
    command = [
        *blackpoker(),
        "build",
        "--rules",
        str(args.rules),
        *(["--html-only"] if args.html_only else []),
    ]
    with tempfile.TemporaryDirectory() as cache, tempfile.TemporaryDirectory() as bytecode:
        env = process_env(cache, bytecode)

        def once() -> float:
            with tempfile.TemporaryDirectory() as out:
                return seconds([*command, "--out", str(Path(out) / "site")], env)

        once()
        walls = [once() for _ in range(args.runs)]
    median = statistics.median(walls)
    shown = " ".join(f"{wall:.2f}" for wall in walls)
    kind = "HTML only" if args.html_only else "HTML and PDFs"
    runs = f"runs: {shown}; {os.cpu_count()} cores"
    print(f"build --rules {args.rules.name} ({kind}): median {median:.2f} s wall ({runs})")
    if args.html_only:
        results.missing(args.results, METRICS, "rules.house_sheet", "--html-only: the goal is with PDFs")
        return
    results.write(args.results, METRICS, "rules.house_sheet", median, args.runs, args.rules.name)
    print(
        f"goal house sheet with PDFs <= {GOAL:g} s: {median:.2f} s, {'met' if median <= GOAL else 'NOT MET'}"
    )


if __name__ == "__main__":
    main()
