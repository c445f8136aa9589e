"""`blackpoker validate`: every problem of the files named (default: the built-in lists)."""

from __future__ import annotations

from pathlib import Path

import click
from blackpoker.cli.invocation import environment
from blackpoker.cli.report import report, warn
from blackpoker.compiler.environment import find_files


@click.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
def validate(paths: tuple[Path, ...]) -> None:
    """Check action lists, extra lists and local-rule files (default: the built-in lists).

    Reports every problem as path:line:col: message and exits 1 if there is any; a note
    (warning: …) is printed and does not fail.
    """
    env = environment()
    targets = list(paths) or [
        path for e in env.builtin_editions() for path in (env.builtin_path(e), *env.builtin_extras(e))
    ]
    count, found = env.check_paths(targets)
    warn(d for d in found if d.warning)
    problems = [d for d in found if not d.warning]
    if not problems and paths:  # what the checks cannot see of a local extra list, played
        from blackpoker.runtime.play.trial import trial_problems

        problems = [d for path in find_files(paths, (".yaml", ".yml"))[0] for d in trial_problems(env, path)]
    if problems:
        report(problems)
    click.echo(f"{count} file{'s' if count != 1 else ''} checked: no problems", err=True)
