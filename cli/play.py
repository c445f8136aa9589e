"""`blackpoker play`: a person at the terminal against a seeded agent (random by default).

The person sees their player's view (runtime/engine/view.py) on a board that fits a
24-row terminal (cli/play_terminal.py), chooses a request step by step or types a command in
the scenario notation (docs/scenarios.md), and reads the other player's moves as that view
shows them; `help` explains, `q` quits.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path

import click
from blackpoker.cli.options import EDITION_HELP, declared_format, rules_option
from blackpoker.cli.outputs import output_file
from blackpoker.cli.play_terminal import Chronicle, Table
from blackpoker.cli.regulated import regulation_options, regulation_setup
from blackpoker.cli.report import option_error, report
from blackpoker.compiler import CompileError
from blackpoker.compiler.diagnostics import Diagnostic, Location
from blackpoker.compiler.pipeline import display
from blackpoker.runtime.engine.game import Game
from blackpoker.runtime.engine.options import Option
from blackpoker.runtime.engine.view import View, hidden_from, masked, view
from blackpoker.runtime.play.agents import Agent, decide
from blackpoker.runtime.play.log import write_log
from blackpoker.runtime.play.regulation import Match
from blackpoker.runtime.play.roster import AGENT_CHOICES, agent_name, make_agent
from blackpoker.runtime.play.source import RulesSource
from rich.console import Console

SEATS = ("p1", "p2")


class Quit(Exception):
    """The person typed `q` (or closed the input)."""


class HumanAgent:
    """The person at the table: shown the board and the options step by step, answers typed."""

    name = "human"
    reads_view = True

    def __init__(self, table: Table) -> None:
        self.table = table

    def choose(self, seen: View | None, options: Sequence[Option]) -> Option:
        assert seen is not None
        chosen = self.table.choose(seen, options)
        if chosen is None:
            raise Quit
        return chosen


@click.command()
@click.option("--edition", default="v7", show_default=True, help=EDITION_HELP)
@click.option("--format", "format_id", help="Format id. Default: lite, or the --rules file's format.")
@rules_option(name="rules_file")
@click.option("--seed", type=int, help="The game's seed (default: a random one, printed).")
@click.option(
    "--seat", type=click.Choice(SEATS), default="p1", show_default=True, help="The player you play."
)
@click.option(
    "--opponent",
    default="random",
    show_default=True,
    help=f"The agent you play: one of {AGENT_CHOICES} (N: iterations per decision).",
)
@click.option("--log", type=click.Path(path_type=Path), help="Write the command log there.")
@click.option("--force", is_flag=True, help="Replace an existing --log file.")
@regulation_options
def play(
    edition: str,
    format_id: str | None,
    rules_file: Path | None,
    seed: int | None,
    seat: str,
    opponent: str,
    log: Path | None,
    force: bool,
    regulation_text: str | None,
    deck_files: tuple[str, ...],
) -> None:
    """Play against an agent; type an option's number, a command, or q to quit. Under a
    --regulation, the first game of a match: its decks, presets and pack."""
    try:
        opponent = agent_name(opponent)
    except ValueError as error:
        option_error("--opponent", str(error))
    setup = None
    if regulation_text is not None:
        if format_id is not None or rules_file is not None:
            option_error("--regulation", "it names the format: leave out --format and --rules")
        if log is not None:
            option_error("--log", "not with a regulation yet: a log does not record its set-up")
        setup, format_id = regulation_setup(edition, regulation_text, deck_files)
    elif deck_files:
        option_error("--deck", "needs --regulation")
    if format_id is None:
        format_id = "lite" if rules_file is None else declared_format(rules_file, "--rules")
    source = RulesSource(edition, format_id, rules_file)
    try:
        rules = source.compile()
    except CompileError as error:
        report(error.diagnostics)
    place = output_file(log, "--log", force=force) if log is not None else []
    if place:  # checked before the game: a log that cannot be written after it is lost
        report(place)
    seed = random.randrange(1_000_000) if seed is None else seed
    me = SEATS.index(seat)
    console = Console(highlight=False, markup=False, soft_wrap=True)
    start = None
    if setup is not None:  # the decks each player plays first, dealt and picked from the seed
        match = Match(setup, random.Random(seed))
        start = setup.start(match.decks, match.choose())
    game = Game.new(rules, seed, start=start, check=True, events=[])
    chronicle = Chronicle()
    table = Table(console, game, chronicle)
    bot = make_agent(opponent, rules, seed)
    agents: list[Agent] = [bot, bot]
    agents[me] = HumanAgent(table)
    console.print(
        f"BlackPoker {edition} {setup.label if setup else format_id} · シード{seed} · "
        f"あなたは{seat}、相手は{opponent}エージェント"
    )
    console.print("番号で選ぶ（0で戻る）、? 番号で説明、help で使い方、q で終了。")
    chronicle.follow(game)
    try:
        while not game.over:
            mover = game.to_move
            assert mover is not None
            option = decide(game, agents)
            shown = masked(game.state, option, hidden_from(game.state, me))  # before it leaves the field
            game.apply(option)
            chronicle.decided(game, mover, shown)
    except Quit:
        console.print("終了しました: quit")
    if log is not None:
        try:
            write_log(log, game, [a.name for a in agents], source)
        except OSError as error:  # the place was writable before the game; it changed since
            report([Diagnostic(Location(display(log), 0, 0), f"--log: cannot write: {error.strerror}")])
    if game.result is not None:
        won = "あなたの勝ち" if game.result == seat else "あなたの負け"
        outcome = "引き分け" if game.result == "draw" else won
        for line in [*table.board(view(game, me)), "最近の出来事:", *chronicle.since_mark()[-8:]]:
            console.print(line)
        console.print(f"ゲーム終了（{game.decisions}回の決定）: {outcome}", style="bold")
