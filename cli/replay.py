"""`blackpoker replay LOG…`: replay command logs and check that they reproduce their games."""

from __future__ import annotations

from pathlib import Path

import click
from blackpoker.cli.invocation import environment
from blackpoker.cli.options import edition_option
from blackpoker.cli.report import report
from blackpoker.compiler.environment import display, find_files
from blackpoker.runtime.play.log import ReplayError
from blackpoker.runtime.play.log import replay as replay_log


@click.command()
@click.argument("logs", nargs=-1, required=True, type=click.Path(path_type=Path))
@edition_option("the edition each log names")
def replay(logs: tuple[Path, ...], edition: str | None) -> None:
    """Replay command logs (files, or folders of *.jsonl) with the current rules.

    Every decision and event must come out as logged and the final state hash must match;
    otherwise each difference is reported as path:line:col: message and the exit code is 1.
    """
    files, problems = find_files(logs, (".jsonl",))
    failed = 0
    env = environment()
    for file in files:
        try:
            done = replay_log(file, display(file), edition, env)
        except ReplayError as error:
            problems += error.diagnostics
            failed += 1
            click.echo(f"FAIL  {display(file)}")
            continue
        click.echo(
            f"OK    {display(file)}: {done.decisions} decisions, result {done.result or 'none'}, "
            f"state {done.state[:12]}… matches"
        )
    click.echo(f"{len(files) - failed} replayed, {failed} failed")
    if problems:
        report(problems)
