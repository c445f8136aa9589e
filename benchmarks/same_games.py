"""Whether two revisions play the same games: every built-in edition's every format, and the
extra format of each edition that has an extra list, read from the registry.

For each, both revisions run `blackpoker simulate --json --logs DIR` with the same seed, each
from its own checkout (`git archive` into a temporary folder, run with that folder first on
the import path). The reports must be equal but for `seconds` (the run's clock) and the
command logs (every decision, by its index among the legal options and its text) byte for
byte; else the first difference is printed. Exit 1 if any differ.

python benchmarks/same_games.py BASE [CHANGED] [-n GAMES] [--seed S] [--agents A,B]

BASE and CHANGED are git revisions (CHANGED: HEAD). See docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from compare_builds import commit, extract
from compiled_engine import isolated

CLOCK = "seconds"  # the one field of the report that is not the games'

# run inside a checkout: each built-in edition's formats, smallest first, then `extra` where
# the edition has an extra list
LIST_RULE_SETS = """
import json
from blackpoker.compiler.documents.extra import EXTRA_FORMAT
from blackpoker.compiler.environment import Environment
env = Environment()
found = []
for edition in env.builtin_editions():
    found += [[edition, f.id] for f in env.edition(edition).edition.formats]
    if env.extras(edition):
        found.append([edition, EXTRA_FORMAT.id])
print(json.dumps(found))
"""


def arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base", help="the git revision to compare against")
    parser.add_argument("changed", nargs="?", default="HEAD", help="the git revision compared (default HEAD)")
    parser.add_argument("-n", "--games", type=int, default=20, help="games per edition and format")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--agents", default="random,random", help="simulate's --agents")
    return parser.parse_args(argv)


class Checkout:
    """A revision's files in a folder laid out as the `blackpoker` package, run from there."""

    def __init__(self, sha: str, folder: Path) -> None:
        self.sha = sha
        self.path = folder
        extract(sha, folder / "blackpoker")
        scripts = tomllib.loads((folder / "blackpoker" / "pyproject.toml").read_text(encoding="utf-8"))
        module, function = scripts["project"]["scripts"]["blackpoker"].split(":")
        self.entry = f"import sys; from {module} import {function}; sys.argv[0] = 'blackpoker'; {function}()"

    def python(self, *command: str) -> str:
        """Run Python in this checkout; its standard output."""
        env = {**isolated(), "PYTHONPATH": str(self.path)}
        done = subprocess.run(
            [sys.executable, *command], env=env, cwd=self.path, capture_output=True, text=True, check=False
        )
        if done.returncode not in (0, 1) or (done.returncode and not done.stdout):
            raise SystemExit(f"same_games: {self.sha[:12]} failed: {done.stderr.strip()[-2000:]}")
        return done.stdout

    def simulate(self, edition: str, format_id: str, args: argparse.Namespace, logs: Path) -> dict[str, Any]:
        """simulate's JSON report without its clock; the command logs are written into `logs`."""
        out = self.python(
            "-c",
            self.entry,
            "simulate",
            *("--edition", edition, "--format", format_id, "-n", str(args.games)),
            *("--seed", str(args.seed), "--agents", args.agents, "--jobs", "1"),
            *("--json", "--logs", str(logs)),
        )
        report: dict[str, Any] = json.loads(out)
        report.pop(CLOCK, None)
        return report


def first_difference(a: Any, b: Any, path: str = "") -> str | None:
    """Where two JSON values first differ, as a path and both values; None when equal."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in [*a, *(k for k in b if k not in a)]:
            found = first_difference(a.get(key), b.get(key), f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(a, list) and isinstance(b, list):
        for index, (x, y) in enumerate(zip(a, b, strict=False)):
            found = first_difference(x, y, f"{path}[{index}]")
            if found:
                return found
        return None if len(a) == len(b) else f"{path}: {len(a)} items, then {len(b)}"
    return (
        None
        if a == b
        else f"{path or '.'}: {json.dumps(a, ensure_ascii=False)} → {json.dumps(b, ensure_ascii=False)}"
    )


def log_difference(base: Path, changed: Path) -> str | None:
    """The first game log that differs between the two folders, and its first differing line."""
    names = sorted({p.name for p in base.iterdir()} | {p.name for p in changed.iterdir()})
    for name in names:
        a, b = base / name, changed / name
        if not (a.is_file() and b.is_file()):
            return f"{name}: written by one revision only"
        if a.read_bytes() == b.read_bytes():
            continue
        lines_a, lines_b = (
            a.read_text(encoding="utf-8").splitlines(),
            b.read_text(encoding="utf-8").splitlines(),
        )
        for number, (x, y) in enumerate(zip(lines_a, lines_b, strict=False), 1):
            if x != y:
                return f"{name}:{number}: {x}  →  {y}"
        return f"{name}: {len(lines_a)} lines, then {len(lines_b)}"
    return None


def compare(base: Checkout, changed: Checkout, args: argparse.Namespace, scratch: Path) -> int:
    """Play every rule set on both revisions; print one line each; the number that differ."""
    rule_sets = json.loads(changed.python("-c", LIST_RULE_SETS))
    differ = 0
    for edition, format_id in rule_sets:
        logs = [scratch / f"{edition}-{format_id}-{side}" for side in ("base", "changed")]
        reports = [
            side.simulate(edition, format_id, args, log)
            for side, log in zip((base, changed), logs, strict=True)
        ]
        found = first_difference(*reports) or log_difference(*logs)
        if found:
            differ += 1
            print(f"{edition} {format_id}: DIFFERENT: {found}", flush=True)
        else:
            games, decisions = reports[0].get("games"), reports[0].get("decisions")
            print(f"{edition} {format_id}: same ({games} games, {decisions} decisions)", flush=True)
    verdict = "identical" if not differ else f"{differ} of {len(rule_sets)} rule sets DIFFER"
    print(f"{base.sha[:12]} → {changed.sha[:12]}: {len(rule_sets)} rule sets, {verdict}")
    return differ


def main(argv: Sequence[str] | None = None) -> None:
    args = arguments(argv)
    shas = commit(args.base), commit(args.changed)
    with tempfile.TemporaryDirectory() as folder:
        scratch = Path(folder)
        sides = [Checkout(sha, scratch / name) for sha, name in zip(shas, ("base", "changed"), strict=True)]
        differ = compare(sides[0], sides[1], args, scratch)
    raise SystemExit(1 if differ else 0)


if __name__ == "__main__":
    main()
