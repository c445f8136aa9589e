"""The options several commands share, each declared once. What the rule options leave open
is decided in one place too: cli/rule_set.py."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click
from blackpoker.cli.report import option_error
from blackpoker.compiler.cache import Default
from blackpoker.compiler.paths import display

EDITION_HELP = "Edition: a built-in id or the path of an edition file."
DEFAULTS_HELP = "the registry's (actionlists/editions.yaml)"
_FORMAT_DEFAULTS = {"format": "the registry's", "play_format": "the registry's play_format"}

F = TypeVar("F", bound=Callable[..., Any])


def _one_file(_ctx: click.Context, _param: click.Parameter, values: tuple[Path, ...]) -> Path | None:
    # Taken as a list so that a second --rules is refused rather than silently replacing the first.
    if len(values) > 1:
        given = ", ".join(display(v) for v in values)
        option_error("--rules", f"give one local-rule file; got {len(values)}: {given}")
    return values[0] if values else None


def edition_option(
    default: str = f"a local-rule file's edition, else the newest, {DEFAULTS_HELP}",
) -> Callable[[F], F]:
    """--edition; left out, it is None, and cli/rule_set.py decides (`default` says how)."""
    return click.option("--edition", help=f"{EDITION_HELP} Default: {default}.")


def format_option(default: Default = "format") -> Callable[[F], F]:
    """--format of a command that compiles one format: left out, it is None, and
    cli/rule_set.py takes the --rules file's, else the registry's `default`."""
    return click.option(
        "--format",
        "format_id",
        help=f"Format id. Default: {_FORMAT_DEFAULTS[default]}, or the --rules file's format.",
    )


def rules_option(help_text: str = "A local-rule file.", name: str = "rules") -> Callable[[F], F]:
    return click.option(
        "--rules", name, type=click.Path(path_type=Path), multiple=True, callback=_one_file, help=help_text
    )


def extra_option() -> Callable[[F], F]:
    return click.option(
        "--extra",
        help="With --format extra: the extra list, a built-in one's id (v7.30.0) or a file. "
        "Default: the edition's newest.",
    )


def regulation_options(command: F) -> F:
    """--regulation and its --deck, of the commands that play games (simulate, play)."""
    command = deck_option(
        "With --regulation: a deck file of p1 or p2; twice for a player who brings two decks.", "deck_files"
    )(command)
    return click.option(
        "--regulation",
        "regulation_text",
        metavar="TEXT",
        help="Play under a regulation, e.g. 'std+random-half+preset2' (docs/regulations.md); with "
        "--format, its frame and options only ('pack').",
    )(command)


def deck_option(help_text: str, name: str = "decks") -> Callable[[F], F]:
    return click.option("--deck", name, multiple=True, metavar="PLAYER=FILE", help=help_text)


def seed_option(help_text: str, default: int | None = None) -> Callable[[F], F]:
    return click.option("--seed", type=int, default=default, show_default=default is not None, help=help_text)


def jobs_option() -> Callable[[F], F]:
    return click.option(
        "--jobs", default=1, show_default=True, type=click.IntRange(min=1), help="Worker processes."
    )
