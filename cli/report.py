"""How every command reports bad input: each problem located, a count, exit status 1."""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import NoReturn

import click
from blackpoker.runtime.rules.diagnostics import Diagnostic, Location


def report(diagnostics: Iterable[Diagnostic], outcome: str = "") -> NoReturn:
    """Print every problem to stderr, then a count (and what happened), and exit 1."""
    problems = list(diagnostics)
    for diagnostic in problems:
        click.echo(diagnostic.render(), err=True)
    count = f"{len(problems)} problem{'s' if len(problems) != 1 else ''} found"
    click.echo(f"{count}; {outcome}" if outcome else count, err=True)
    sys.exit(1)


def warn(diagnostics: Iterable[Diagnostic]) -> None:
    """Print each note (a warning: the input is read, but should be written otherwise) to stderr."""
    for diagnostic in diagnostics:
        click.echo(diagnostic.render(), err=True)


def option_error(option: str, message: str) -> NoReturn:
    """A command-line option that cannot be used as given: `--option: message`, exit 1."""
    report([Diagnostic(Location(option, 0, 0), message)])
