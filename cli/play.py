"""`blackpoker play`: a person at the terminal against a seeded agent (random by default).

The person sees only their player's view (runtime/engine/view.py) and the other player's moves as
that view shows them; they answer with an option's number, a command in the scenario
notation (docs/scenarios.md), or `q` to quit.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path

import click
from blackpoker.cli.options import EDITION_HELP, declared_format, rules_option
from blackpoker.cli.outputs import output_file
from blackpoker.cli.report import report
from blackpoker.compiler import CompileError
from blackpoker.compiler.diagnostics import Diagnostic, Location
from blackpoker.compiler.pipeline import display
from blackpoker.runtime.engine.events import (
    Decided,
    Discarded,
    GameOver,
    LostTarget,
    Negated,
    Requested,
    Resolved,
    Revealed,
    SetUp,
    Shuffled,
    Triggered,
    TurnPassed,
)
from blackpoker.runtime.engine.game import Game
from blackpoker.runtime.engine.options import Choice, Option
from blackpoker.runtime.engine.state import player_name
from blackpoker.runtime.engine.view import CharacterView, PlayerView, View, hidden_from, masked, view
from blackpoker.runtime.engine.zones import label
from blackpoker.runtime.play.agents import AGENTS, Agent, by_command, make_agent
from blackpoker.runtime.play.log import write_log
from blackpoker.runtime.play.selfplay import decide
from blackpoker.runtime.play.source import RulesSource
from rich.console import Console

SEATS = ("p1", "p2")


class Quit(Exception):
    """The person typed `q` (or closed the input)."""


class HumanAgent:
    """Renders the view and numbered options, and reads the person's answer."""

    name = "human"
    reads_view = True

    def __init__(self, console: Console) -> None:
        self.console = console

    def choose(self, seen: View | None, options: Sequence[Option]) -> Option:
        assert seen is not None
        render(self.console, seen)
        self.console.print("your options:", style="bold")
        for number, option in enumerate(options, 1):
            self.console.print(f"  {number:>3}) {option}")
        while True:
            try:
                text = self.console.input("> ").strip()
            except EOFError:
                raise Quit from None
            if text == "q":
                raise Quit
            if not text:
                continue
            answer = pick(text, seen.me, options)
            if not isinstance(answer, str):
                return answer
            self.console.print(answer, style="red")


def pick(text: str, me: int, options: Sequence[Option]) -> Option | str:
    """The option a number or a command names, or why there is none."""
    if not (text.isascii() and text.isdigit()):  # "²" is a digit to str.isdigit, not to int()
        return by_command(text, me, options)
    digits = text.lstrip("0")
    # A number longer than the option count is out of range; int() refuses thousands of digits.
    number = int(digits or "0") if len(digits) <= len(str(len(options))) else 0
    return options[number - 1] if 1 <= number <= len(options) else f"type a number from 1 to {len(options)}"


def render(console: Console, seen: View) -> None:
    chance = player_name(seen.chance) if seen.chance is not None else "none"
    console.rule(f"your view · turn {seen.turn} · {player_name(seen.turn_player)}'s turn · chance {chance}")
    for index in (1 - seen.me, seen.me):
        _player(console, seen.players[index], index == seen.me)
    for title, requests in (("stage", seen.stage), ("resolving", seen.resolving)):
        for position, r in enumerate(requests, 1):
            keys = " ★" + "".join(label(c) for c in r.key_cards) if r.key_cards else ""
            target = f" → {r.target}" if r.target else ""
            console.print(f"{title} {position}: {r.name}{keys}{target} by {r.player}")


def _player(console: Console, p: PlayerView, mine: bool) -> None:
    hand = " ".join(label(c) for c in p.hand) if p.hand is not None else f"{p.hand_count} cards"
    grave = " ".join(label(c) for c in p.graveyard) or "-"
    console.print(f"{p.name} ({'you' if mine else 'opponent'})", style="bold")
    console.print(f"  life {p.life} · hand {hand}")
    console.print(f"  graveyard{'' if mine else ' top'}: {grave}")
    for zone in p.zones:  # the edition's own zones (the fog), as the view shows them
        shown = " ".join(label(c) for c in zone.cards) if zone.cards is not None else f"{zone.count} cards"
        console.print(f"  {zone.name}: {shown or '-'}")
    for unit in p.field:
        console.print(f"  field: {_character(unit)}")


def _character(unit: CharacterView) -> str:
    cards = "+".join(label(c) for c in unit.cards) or "?"
    text = f"{unit.name} {cards} {'チャージ' if unit.charged else 'ドライブ'}"
    if unit.size is not None:
        text += f" size {unit.size}"
    if not unit.face_up:
        text += f" 裏向き ({unit.ref})"
    if unit.attacking:
        text += " attacking"
    if unit.blocking is not None:
        text += f" blocking {unit.blocking}"
    return text


def _narrate(console: Console, game: Game, seat: int, mover: int, shown: Option) -> None:
    """Print a decision as `seat` may see it (after it was applied)."""
    text = str(shown)
    if isinstance(shown, Choice) and mover != seat:
        visible = view(game, seat).visible_cards()
        if any(c is not None and c not in visible for c in (shown.a, shown.b)):
            text = shown.word  # e.g. the card put face down as a bulwark
    console.print(f"{player_name(mover)}: {text}", style="cyan" if mover == seat else "magenta")


def _events(console: Console, game: Game, told: int) -> int:
    """Print the public events after the first `told`; return how many there are now."""
    events = game.events or []
    for event in events[told:]:
        match event:
            case SetUp(first):
                console.print(f"{player_name(first)} goes first")
            case TurnPassed(player, turn):
                console.print(f"— turn {turn}: {player_name(player)} —", style="bold")
            case Decided() | GameOver() | Requested(indirect=False):
                pass  # the decisions are printed as they are made; the result at the end
            case Revealed(cards):
                console.print(f"  · reveal {' '.join(label(c) for c in cards)}")
            case Shuffled(player):
                console.print(f"  · shuffled the life of {player_name(player)}")
            case LostTarget(action):
                console.print(f"  · {game.rules.action(action).name} lost its target: no effect")
            case Requested(player, action):
                console.print(f"  · request {game.rules.action(action).name} {player_name(player)}")
            case Triggered(player, action):
                console.print(f"  · triggered {game.rules.action(action).name} {player_name(player)}")
            case Resolved(player, action):
                console.print(f"  · resolved {game.rules.action(action).name} {player_name(player)}")
            case Discarded(action):
                console.print(f"  · discarded {game.rules.action(action).name}")
            case Negated(action):
                console.print(f"  · negated {game.rules.action(action).name}")
    return len(events)


@click.command()
@click.option("--edition", default="v7", show_default=True, help=EDITION_HELP)
@click.option("--format", "format_id", help="Format id. Default: lite, or the --rules file's format.")
@rules_option(name="rules_file")
@click.option("--seed", type=int, help="The game's seed (default: a random one, printed).")
@click.option(
    "--seat", type=click.Choice(SEATS), default="p1", show_default=True, help="The player you play."
)
@click.option(
    "--opponent", type=click.Choice(AGENTS), default="random", show_default=True, help="The agent you play."
)
@click.option("--log", type=click.Path(path_type=Path), help="Write the command log there.")
@click.option("--force", is_flag=True, help="Replace an existing --log file.")
def play(
    edition: str,
    format_id: str | None,
    rules_file: Path | None,
    seed: int | None,
    seat: str,
    opponent: str,
    log: Path | None,
    force: bool,
) -> None:
    """Play against an agent; type an option's number, a command, or q to quit."""
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
    game = Game.new(rules, seed, check=True, events=[])
    bot = make_agent(opponent, rules, seed)
    agents: list[Agent] = [bot, bot]
    agents[me] = HumanAgent(console)
    console.print(
        f"BlackPoker {edition} {format_id}, seed {seed}: you play {seat} against the {opponent} agent."
    )
    console.print("Answer with an option's number, a command such as 'pass', or q to quit.")
    told = _events(console, game, 0)
    try:
        while not game.over:
            mover = game.to_move
            assert mover is not None
            option = decide(game, agents)
            shown = masked(game.state, option, hidden_from(game.state, me))  # before it leaves the field
            game.apply(option)
            _narrate(console, game, me, mover, shown)
            told = _events(console, game, told)
    except Quit:
        console.print("quit")
    if log is not None:
        try:
            write_log(log, game, [a.name for a in agents], source)
        except OSError as error:  # the place was writable before the game; it changed since
            report([Diagnostic(Location(display(log), 0, 0), f"--log: cannot write: {error.strerror}")])
    if game.result is not None:
        outcome = "a draw" if game.result == "draw" else ("you win" if game.result == seat else "you lose")
        console.print(f"game over after {game.decisions} decisions: {outcome}", style="bold")
