"""Run the benchmarks, then report every performance goal as met, not met or not measured.

python benchmarks [--only NAME,...] [--quick]

Each benchmarks/bench_NAME.py runs in turn, with the arguments benchmarks/goals.yaml gives it
(its `quick` ones with --quick: fewer rounds), and prints its own figures; a script that
measures goals also writes them to a results file (`--results FILE`, results.py). Then one
table: each goal of goals.yaml, the median measured and its rounds, met / NOT MET / not
measured and why, and the command that measures that goal again. --only takes script names
(search, startup) or goal ids, and reports those goals only. The exit status is 1 when a
script failed, else 0, whether the goals are met or not: this is a report.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from blackpoker.runtime.rules.diagnostics import did_you_mean
from goals import Goal, Goals, GoalsError, load, read_results, rows, table

ROOT = Path(__file__).resolve().parents[1]


def arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python benchmarks", description=__doc__.splitlines()[0])
    parser.add_argument(
        "--only", default="", metavar="NAME,...", help="scripts (search, startup) or goal ids"
    )
    parser.add_argument("--quick", action="store_true", help="fewer rounds: each script's quick arguments")
    return parser.parse_args(argv)


def selection(found: Goals, only: str) -> tuple[list[str], list[Goal]] | str:
    """The scripts to run and the goals to report; or what is wrong with --only."""
    if not only:
        return sorted(found.scripts), list(found.goals)
    by_id = {goal.id: goal for goal in found.goals}
    scripts: list[str] = []
    goals: list[Goal] = []
    names = [n.strip() for n in only.split(",") if n.strip()]
    if not names:
        return "--only: expected script names or goal ids, separated by commas"
    for name in names:
        if name in found.scripts:
            scripts.append(name)
            goals += [goal for goal in found.goals if goal.script == name]
        elif name in by_id and by_id[name].script is not None:
            scripts.append(str(by_id[name].script))
            goals.append(by_id[name])
        else:
            known = [*found.scripts, *(g.id for g in found.goals if g.script)]
            return f"--only: '{name}' is neither a script nor a measured goal{did_you_mean(name, known)}"
    return list(dict.fromkeys(scripts)), list(dict.fromkeys(goals))


def run(found: Goals, names: Sequence[str], quick: bool, results: Path) -> dict[str, str]:
    """Run the scripts, each printing its own figures; what went wrong with each that failed
    (an interrupt stops the run: the table still shows what the scripts before measured)."""
    failed: dict[str, str] = {}
    for index, name in enumerate(names):
        script = found.scripts[name]
        args = [
            *(script.quick if quick else script.args),
            *(["--results", str(results)] if script.metrics else []),
        ]
        print(f"== {script.path.name} {' '.join(args)}".rstrip(), flush=True)
        start = time.perf_counter()
        try:
            status = subprocess.run(
                [sys.executable, str(script.path), *args], cwd=ROOT, check=False
            ).returncode
        except KeyboardInterrupt:
            failed |= {
                name: "was interrupted",
                **dict.fromkeys(names[index + 1 :], "was not run (interrupted)"),
            }
            print(f"== {script.path.name} interrupted", flush=True)
            break
        took = f"{(time.perf_counter() - start) / 60:.1f} min"
        if status:
            failed[name] = f"failed (exit {status})"
        print(f"== {script.path.name} {failed.get(name, 'done')} in {took}", flush=True)
    return failed


def main(argv: Sequence[str] | None = None) -> int:
    args = arguments(argv)
    try:
        found = load()
    except GoalsError as error:
        print(error, file=sys.stderr)
        return 1
    chosen = selection(found, args.only)
    if isinstance(chosen, str):
        print(f"python benchmarks: {chosen}", file=sys.stderr)
        return 1
    names, goals = chosen
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        results = Path(folder) / "results.jsonl"
        failed = run(found, names, args.quick, results)
        measured, unreadable = read_results(results)
    minutes = (time.perf_counter() - start) / 60
    quick = " --quick" if args.quick else ""
    scripts = f"{len(names)} script{'s' if len(names) > 1 else ''}"
    print(f"\n== goals: {scripts} run{quick} in {minutes:.1f} min")
    for problem in unreadable:
        print(problem)
    print(table(rows(goals, measured, failed), lambda goal: f"python benchmarks --only {goal.id}{quick}"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
