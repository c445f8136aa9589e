"""The --regulation and --deck options of the commands that play games (simulate, play), and
the checked set-up they give."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import click
from blackpoker.cli.report import report, warn
from blackpoker.runtime.rules.diagnostics import Diagnostic

if TYPE_CHECKING:
    from blackpoker.runtime.play.regulation import Setup

F = TypeVar("F", bound=Callable[..., Any])


def regulation_options(command: F) -> F:
    command = click.option(
        "--deck",
        "deck_files",
        multiple=True,
        metavar="PLAYER=FILE",
        help="With --regulation: a deck file of p1 or p2; twice for a player who brings two decks.",
    )(command)
    return click.option(
        "--regulation",
        "regulation_text",
        metavar="TEXT",
        help="Play under a regulation, e.g. 'std+random-half+preset2' (docs/regulations.md); with "
        "--format, its frame and options only ('pack').",
    )(command)


def regulation_setup(
    edition: str, text: str, deck_files: tuple[str, ...], format_id: str | None = None
) -> tuple[Setup, str]:
    """The regulation and the players' decks, checked (runtime/play/regulation.py); the
    format its games play. With `format_id` (--format), the text names the frame and options
    only."""
    # the regulations' reader is imported here, so a command that names none starts without it
    from blackpoker.cli.regulation import PLAYERS, read_decks
    from blackpoker.compiler.environment import Environment
    from blackpoker.runtime.play.regulation import checked_setup

    problems: list[Diagnostic] = []
    by_player = read_decks(deck_files, problems)
    decks = [by_player.get(player, []) for player in PLAYERS]
    checked = checked_setup(Environment(), edition, text, decks, format_id)
    warn(checked.notes)
    if problems or checked.setup is None:
        report([*checked.problems, *problems])
    return checked.setup, checked.format
