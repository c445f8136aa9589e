"""Two builds of the engine timed at once on one core: how a change of a few percent is seen on
a machine whose speed moves by more than that from one minute to the next (docs/engine.md,
"Speed").

Each git revision is installed in its own environment under benchmarks/.builds/ (compiled
with mypyc, or pure Python with --pure; kept for the next comparison). Then one process per
build, both pinned to the same core, plays a loop of bench_engine.py (the engine-only one, or
with --loop simulate the `simulate --jobs 1` path, agents and self-play included; the same
games of the smallest format for both) round after round, each timing its rounds by its own CPU time.
Both meet the same slow spells, so the ratio of their rounds is steady where the rates are
not: a build compared with itself gives ratios within about 1 %. With --search F each
plays bench_search.py's runs instead (the search agent at its default budget against greedy
on format F of the default edition), timed by games/s.

python benchmarks/compare_builds.py BASE [CHANGED] [--rounds N] [--games N] [--pure] [--cpu N]
                                    [--loop engine|simulate] [--search F]

BASE and CHANGED are git revisions (CHANGED: HEAD). A revision must have the engine API
bench_engine.py uses (`Rules`, `Game.new`, `selfplay.frozen_between`).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import statistics
import subprocess
import tarfile
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import compiled_engine

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
BUILDS = HERE / ".builds"  # git-ignored
READY = "ready"  # written into a build's folder once it is complete
# bench_engine.py's loops a race can play, by --loop (its function's name)
LOOPS = {"engine": "engine_only", "simulate": "simulate_path"}


def arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base", nargs="?", help="the git revision to compare against")
    parser.add_argument("changed", nargs="?", default="HEAD", help="the git revision compared (default HEAD)")
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--games", type=int, default=100, help="games per round")
    parser.add_argument("--pure", action="store_true", help="pure Python builds instead of compiled ones")
    parser.add_argument("--cpu", type=int, default=0, help="the core both run on")
    parser.add_argument("--loop", choices=sorted(LOOPS), default="engine", help="the loop both play")
    parser.add_argument("--search", metavar="FORMAT", help="time the search agent on FORMAT instead")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)  # one build's side
    return parser.parse_args(argv)


def commit(revision: str) -> str:
    """The full commit id of a revision; SystemExit with git's reason when it names none."""
    found = subprocess.run(
        ["git", "rev-parse", "--verify", "--quiet", f"{revision}^{{commit}}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    if found.returncode != 0:
        raise SystemExit(f"compare_builds: {revision!r} is not a commit of this repository")
    return found.stdout.strip()


def built(sha: str, compiled: bool) -> Path:
    """The environment of the project at `sha`, made unless it is there."""
    venv = BUILDS / f"{sha[:12]}-{'compiled' if compiled else 'pure'}"
    if (venv / READY).is_file():
        return venv
    with tempfile.TemporaryDirectory() as scratch:
        extract(sha, Path(scratch))
        problem = compiled_engine.build(venv, Path(scratch), compiled=compiled)
    if problem is not None:
        raise SystemExit(f"compare_builds: building {sha[:12]}: {problem}")
    (venv / READY).write_text(sha)
    return venv


def extract(sha: str, into: Path) -> None:
    """The project's files at commit `sha`, written into the folder `into`."""
    archive = subprocess.run(["git", "archive", sha], cwd=ROOT, capture_output=True, check=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")


def work(args: argparse.Namespace) -> None:
    """One build's side: the loop, a JSON line (decisions, CPU seconds, decisions) per round;
    with --search, the search agent's games (games, CPU seconds, games it won)."""
    os.sched_setaffinity(0, {args.cpu})
    if args.search:
        import bench_search  # only here, as bench_engine below
        from blackpoker.compiler import compile

        rules = compile(bench_search.EDITION, args.search)
        bench_search.one_run(rules, 2, 0)  # the same warm-up on both sides
        for round_ in range(args.rounds):
            start = time.process_time()
            won = bench_search.one_run(rules, args.games, round_ + 1)[3]
            print(json.dumps([args.games, time.process_time() - start, won]), flush=True)
        return
    import bench_engine  # only here: importing it compiles the rule set, with this build's compiler

    play = getattr(bench_engine, LOOPS[args.loop])
    play(20, 0)  # the same warm-up on both sides
    for round_ in range(args.rounds):
        start = time.process_time()
        decisions = play(args.games, round_ + 1)
        print(json.dumps([decisions, time.process_time() - start, decisions]), flush=True)


def race(venvs: Sequence[Path], args: argparse.Namespace) -> list[list[tuple[int, float, int]]]:
    """Each build's rounds, all played at once on one core."""
    command = [
        __file__,
        "--worker",
        "--rounds",
        str(args.rounds),
        "--games",
        str(args.games),
        "--cpu",
        str(args.cpu),
        "--loop",
        args.loop,
        *(["--search", args.search] if args.search else []),
    ]
    sides = [
        subprocess.Popen(
            [str(venv / "bin" / "python"), *command],
            stdout=subprocess.PIPE,
            text=True,
            env=compiled_engine.isolated(),
        )
        for venv in venvs
    ]
    outputs = [side.communicate()[0] for side in sides]
    if any(side.returncode for side in sides):
        raise SystemExit("compare_builds: a build's side failed (its error is above)")
    return [[(int(d), float(s), int(f)) for d, s, f in map(json.loads, out.splitlines())] for out in outputs]


def main(argv: Sequence[str] | None = None) -> None:
    args = arguments(argv)
    if args.worker:
        work(args)
        return
    if args.base is None:
        raise SystemExit("compare_builds: name the git revision to compare against (BASE)")
    if args.cpu not in os.sched_getaffinity(0):
        raise SystemExit(f"compare_builds: --cpu {args.cpu} is not a core this process may use")
    shas = [commit(args.base), commit(args.changed)]
    compiled = not args.pure
    venvs = [built(sha, compiled) for sha in shas]
    base, changed = race(venvs, args)
    kind = "compiled" if compiled else "pure Python"
    search = f"bench_search.py's search:32 vs greedy on {args.search}"
    loop = search if args.search else f"bench_engine.py's {LOOPS[args.loop]} loop"
    print(f"{loop}, {args.games} games a round, {args.rounds} rounds, {kind}, both on core {args.cpu}")
    places = 2 if args.search else 0  # games/s, or decisions/s
    for name, sha, runs in (("base", shas[0], base), ("changed", shas[1], changed)):
        rates = ", ".join(f"{d / s:,.{places}f}" for d, s, _ in runs)
        middle = statistics.median(d / s for d, s, _ in runs)
        print(f"  {name:8s}{sha[:12]}  {rates}  (median {middle:,.{places}f})")
    if [f for _, _, f in base] != [f for _, _, f in changed]:
        what = "games won" if args.search else "decisions"
        print(f"  the two builds played different games: their {what} differ round by round")
    ratios = [(d2 / s2) / (d1 / s1) for (d1, s1, _), (d2, s2, _) in zip(base, changed, strict=True)]
    print(f"changed / base: median ratio {statistics.median(ratios):.3f} of {len(ratios)} rounds")


if __name__ == "__main__":
    main()
