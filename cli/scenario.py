"""`blackpoker scenario run PATH…`: run ruling scenarios and compare their outcomes."""

from __future__ import annotations

import sys
from pathlib import Path

import click
from blackpoker.cli.invocation import environment
from blackpoker.compiler.environment import display
from blackpoker.runtime.scenario.load import load, scenario_files
from blackpoker.runtime.scenario.run import run


@click.group()
def scenario() -> None:
    """Ruling scenarios: hand-written positions with expected outcomes (docs/scenarios.md)."""


@scenario.command(name="run")
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
def run_command(paths: tuple[Path, ...]) -> None:
    """Run scenario files or folders; print each result and `N passed, M failed`."""
    files, missing = scenario_files(list(paths))
    for problem in missing:
        click.echo(problem.render(), err=True)
    passed, failed = 0, len(missing)
    env = environment()
    for file in files:
        loaded, problems = load(file, env)
        if loaded is None:
            failed += 1
            click.echo(f"ERROR {display(file)}")
            for problem in problems:
                click.echo(problem.render(), err=True)
            continue
        outcome = run(loaded)
        if outcome.passed:
            passed += 1
            click.echo(f"PASS  {display(file)}: {outcome.name}")
        else:
            failed += 1
            click.echo(f"FAIL  {display(file)}: {outcome.name}")
            for line in outcome.failures:
                click.echo(f"      {line}")
    click.echo(f"{passed} passed, {failed} failed")
    if failed:
        sys.exit(1)
