"""The --regulation and --deck options of the commands that play games (simulate, play), and
the checked set-up they give."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import click
from blackpoker.cli.report import report, warn
from blackpoker.runtime.rules.diagnostics import CompileError, Diagnostic

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
    """The regulation and the players' decks, checked as `regulation check` checks them; the
    format its games play (a frame with the extra list plays the extra format). With
    `format_id` (--format), the text names the frame and options only."""
    # the regulations' reader is imported here, so a command that names none starts without it
    from blackpoker.cli.regulation import PLAYERS, read_decks
    from blackpoker.compiler.documents.regulation import additions, deck_problems, parse_regulation
    from blackpoker.compiler.environment import Environment
    from blackpoker.runtime.play.regulation import Setup, start_problems

    if format_id is not None:
        text = f"{format_id}+{text}"
    problems: list[Diagnostic] = []
    by_player = read_decks(deck_files, problems)
    env = Environment()
    try:
        regulations = env.regulations(edition)
        chosen = parse_regulation(text, regulations)
    except CompileError as error:
        report([*error.diagnostics, *problems])
    warn(regulations.notes)
    decks = [by_player.get(player, []) for player in PLAYERS]
    try:
        source = env.edition(edition)
    except CompileError as error:
        report(error.diagnostics)
    problems += start_problems(chosen, source.edition)
    added, wrong = additions(chosen, source)
    problems += wrong
    if not problems:
        for player, mine in zip(PLAYERS, decks, strict=True):
            if mine or chosen.frame.needs_decks:  # other frames deal, or play the whole set
                problems += deck_problems(chosen, player, mine)
    if problems:
        report(problems)
    return Setup.of(chosen, decks, added), chosen.played_format
