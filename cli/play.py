"""`blackpoker play`: a person at the terminal against a seeded agent (random by default).

The person sees their player's view (runtime/engine/view.py) on a board that fits a
24-row terminal (cli/play_terminal.py), chooses a request step by step or types a command in
the scenario notation (docs/scenarios.md), and reads the other player's moves as that view
shows them; `help` explains, `q` quits.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import click
from blackpoker.cli.invocation import environment
from blackpoker.cli.options import (
    edition_option,
    extra_option,
    format_option,
    regulation_options,
    rules_option,
    seed_option,
)
from blackpoker.cli.outputs import Output, check, named_files, write
from blackpoker.cli.play_terminal import Table, read_line
from blackpoker.cli.report import option_error
from blackpoker.cli.rule_set import compiled, resolve_rules
from blackpoker.compiler.outputs import WritePlan
from blackpoker.runtime.engine.game import Game
from blackpoker.runtime.engine.options import Option
from blackpoker.runtime.engine.refs import Result
from blackpoker.runtime.engine.view import View, hidden_from, masked, view
from blackpoker.runtime.play.agents import Agent, decide
from blackpoker.runtime.play.chronicle import Chronicle
from blackpoker.runtime.play.labels import labels
from blackpoker.runtime.play.log_writer import log_text
from blackpoker.runtime.play.regulation import Dealt, Match, Setup
from blackpoker.runtime.play.roster import AGENT_CHOICES, PERSON, agent_name, make_agent
from blackpoker.runtime.play.selfplay import game_seed
from blackpoker.runtime.play.source import RulesSource
from blackpoker.runtime.rules.model import RuleSet
from rich.console import Console

SEATS = ("p1", "p2")


class Quit(Exception):
    """The person typed `q` (or closed the input)."""


class HumanAgent:
    """The person at the table: shown the board and the options step by step, answers typed."""

    name = PERSON
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
@edition_option()
@format_option("play_format")
@rules_option(name="rules_file")
@extra_option()
@seed_option("The game's seed (default: a random one, printed).")
@click.option(
    "--seat", type=click.Choice(SEATS), default="p1", show_default=True, help="The player you play."
)
@click.option(
    "--opponent",
    default="random",
    show_default=True,
    help=f"The agent you play: one of {AGENT_CHOICES} (N: iterations per decision).",
)
@click.option("--log", type=Output("file"), help="Write the command log there (never over an input).")
@click.option("--force", is_flag=True, help="Replace an existing --log file.")
@click.option(
    "--match",
    "whole_match",
    is_flag=True,
    help="With --regulation: play a whole match (best of three for a 2-deck match), choosing your deck "
    "before each game; --log FILE writes FILE-game-K for game K.",
)
@regulation_options
def play(
    edition: str | None,
    format_id: str | None,
    rules_file: Path | None,
    extra: str | None,
    seed: int | None,
    seat: str,
    opponent: str,
    log: Path | None,
    force: bool,
    whole_match: bool,
    regulation_text: str | None,
    deck_files: tuple[str, ...],
) -> None:
    """Play against an agent; type an option's number, a command, or q to quit. Under a
    --regulation, the first game of a match (its decks, presets and pack), or with --match
    the whole match."""
    try:
        opponent = agent_name(opponent)
    except ValueError as error:
        option_error("--opponent", str(error))
    if regulation_text is not None and rules_file is not None:
        option_error("--regulation", "it names the rule set: leave out --rules")
    if regulation_text is None and (deck_files or whole_match):
        option_error("--deck" if deck_files else "--match", "needs --regulation")
    source, setup = resolve_rules(
        edition, format_id, rules_file, extra, regulation_text, deck_files, default="play_format"
    )
    rules = compiled(source, setup)  # with the actions a regulation's frame and options add
    edition, format_id = source.edition, source.format
    logs = [log] if log is None or not whole_match or setup is None else _match_logs(log, setup.games)
    # checked before the game: a log that cannot be written after it is lost
    plan = WritePlan([*environment().files_read(), *named_files([edition, rules_file, extra, *deck_files])])
    for path in filter(None, logs):
        plan.file(path, "--log", replace=force)
    check(plan, "no game played")
    seed = random.randrange(1_000_000) if seed is None else seed
    console = Console(highlight=False, markup=False, soft_wrap=True)
    words = labels()
    format_name = setup.label if setup else rules.format.name
    agent = words.agent(opponent)
    console.print(
        words.say("terminal", "title", edition=edition, format=format_name, seed=seed, seat=seat, agent=agent)
    )
    console.print(words.say("terminal", "keys"))
    sitting = Sitting(console, rules, SEATS.index(seat), opponent, source, plan)
    if setup is None:
        sitting.game(seed, None, log)
    elif not whole_match:  # the decks each player plays first, dealt and picked from the seed
        sitting.game(seed, Dealt(setup, seed, Match(setup, random.Random(seed)).choose()), log)
    else:
        sitting.match(setup, seed, logs)


def _outcome(result: Result, me: int) -> str:
    """A game's or a match's end as the person at seat `me` reads it."""
    winner = result.winner
    return labels().say("results", "draw" if winner is None else "won" if winner == me else "lost")


def _match_logs(log: Path, games: int) -> list[Path | None]:
    """A match's logs: FILE-game-K.jsonl for its game K."""
    return [log.with_name(f"{log.stem}-game-{k}{log.suffix}") for k in range(1, games + 1)]


@dataclass(frozen=True, slots=True)
class Sitting:
    """The person at the terminal against an agent, for a game or a whole match."""

    console: Console
    rules: RuleSet
    me: int
    opponent: str
    source: RulesSource
    plan: WritePlan  # where the logs go

    def game(self, seed: int, dealt: Dealt | None, log: Path | None) -> Result | None:
        """Play one game to its end; its result, or None when the person quits."""
        console, me = self.console, self.me
        game = Game.new(
            self.rules, seed, start=None if dealt is None else dealt.start(), check=True, events=[]
        )
        chronicle = Chronicle()
        table = Table(console, game, chronicle)
        bot = make_agent(self.opponent, self.rules, seed)
        agents: list[Agent] = [bot, bot]
        agents[me] = HumanAgent(table)
        chronicle.follow(game)
        try:
            while not game.over:
                mover = game.to_move
                assert mover is not None
                option = decide(game, agents)
                shown = masked(game.state, option, hidden_from(game.state, me))  # before it leaves the field
                seen = None if mover == me else view(game, me).visible_cards()
                game.apply(option)
                if seen is not None:  # a card seen before or after the decision may be named
                    seen |= view(game, me).visible_cards()
                chronicle.decided(game, mover, shown, seen)
        except Quit:
            console.print(labels().say("terminal", "quit"))
        if log is not None:
            text = log_text(log, game, [a.name for a in agents], self.source.named(environment()), dealt)
            write(self.plan, log, "--log", text)
        if game.result is not None:
            outcome = _outcome(game.result, me)
            for line in [
                *table.board(view(game, me)),
                labels().say("table", "news"),
                *chronicle.since_mark()[-8:],
            ]:
                console.print(line)
            console.print(
                labels().say("terminal", "game ended", count=game.decisions, outcome=outcome), style="bold"
            )
        return game.result

    def match(self, setup: Setup, seed: int, logs: Sequence[Path | None]) -> None:
        """A whole match (§5.2.1): before each game the person picks one of their decks that may
        still be used (the agent picks at random), game k plays with seed game_seed(seed, k), and
        after it the person may look at the deck just played; the decks are otherwise hidden."""
        console, me = self.console, self.me
        match = Match(setup, random.Random(seed))
        while not match.over:
            picks = list(match.choose())
            usable = match.usable(me)
            if len(usable) > 1:
                mine = self._pick(setup, match, usable)
                if mine is None:
                    console.print(labels().say("terminal", "quit"))
                    return
                picks[me] = mine
            chosen = (picks[0], picks[1])
            k = len(match.games)
            console.print(
                labels().say("terminal", "match game", number=k + 1, deck=setup.names[me][chosen[me]]),
                style="bold",
            )
            result = self.game(game_seed(seed, k), Dealt(setup, seed, chosen), logs[k])
            if result is None:
                return
            match.record(chosen, result)
            played = " ".join(str(c) for c in match.decks[me][chosen[me]])
            words = labels()
            console.print(
                words.say("terminal", "deck played", deck=setup.names[me][chosen[me]], played=played)
            )
            console.print(
                words.say("terminal", "match score", mine=match.wins[me], theirs=match.wins[1 - me])
            )
        outcome = labels().say("results", "draw") if match.result is None else _outcome(match.result, me)
        console.print(
            labels().say("terminal", "match ended", count=len(match.games), outcome=outcome), style="bold"
        )

    def _pick(self, setup: Setup, match: Match, usable: Sequence[int]) -> int | None:
        """The deck the person plays next: shown by name and size only (the decks are hidden)."""
        words = labels()
        self.console.print(words.say("terminal", "choose deck"))
        for n, d in enumerate(usable, 1):
            deck, count = setup.names[self.me][d], len(match.decks[self.me][d])
            self.console.print(words.say("terminal", "deck entry", number=n, deck=deck, count=count))
        while True:
            text = read_line(self.console)
            if text is None:
                return None
            if text.isdigit() and 1 <= int(text) <= len(usable):
                return usable[int(text) - 1]
            self.console.print(words.say("terminal", "deck range", last=len(usable)))
