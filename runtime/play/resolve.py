"""The one resolver of the command notation, as python-chess's `parse_san` resolves a move
against the legal moves: text → the legal option it names, or why there is none.

A command names cards by value; an option names them by id. Each legal option is written as
the command that names it exactly (`written`), and the command is compared with those on
the cards' values and the characters they name, in any order of key cards and payments;
no text is compared. A person names a character by any card of it (`p2:♣5` for an armed
soldier ♣9+♣5): a command is matched as written first, and only when no option is named
so, with each card that leads no character read as the character(s) holding it.

Every failure is a `CommandError` (notation.py): `InvalidCommand` (not in the notation,
with its column), `IllegalCommand` (no legal option: the rule it breaks, explain.py) or
`AmbiguousCommand` (options that differ, listed). Options that print alike (two Joker
bulwarks as a target) are one move to the notation: the first is taken.

Two places to resolve from: the whole game (`resolve`, `resolve_command`: a ruling scenario,
whose author sees every card) and a player's view (`resolve_seen`: the terminal, the browser,
an agent), where a hidden character is named as the view names it (`face-down#7`), a card the
view hides names nothing, and a refusal is explained in a game dealt from the view, so that it
tells nothing of a hidden card.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from itertools import product

from blackpoker.runtime.engine.game import Game
from blackpoker.runtime.engine.options import Choice, Option, Pass
from blackpoker.runtime.engine.payments import UNITS, OwnCharacter
from blackpoker.runtime.engine.refs import (
    CharacterByCard,
    CommandTarget,
    OptionTarget,
    WrittenCharacter,
    WrittenZoneCard,
    ZoneCard,
)
from blackpoker.runtime.engine.refusals import Refusal
from blackpoker.runtime.engine.view import View
from blackpoker.runtime.engine.zones import card, owner
from blackpoker.runtime.play.explain import explain
from blackpoker.runtime.play.notation import (
    AnswerCommand,
    Command,
    CommandError,
    PassCommand,
    RequestCommand,
    parse_command,
    written_body,
)
from blackpoker.runtime.rules.cards import Card
from blackpoker.runtime.rules.diagnostics import Diagnostic, Location

Fields = tuple[
    tuple[tuple[int, ...], ...], ...
]  # per player, the cards of each character seen (leader first)


class IllegalCommand(CommandError):
    """A command in the notation that names no legal option; `refusal` is the rule it breaks."""

    def __init__(self, text: str, refusal: Refusal) -> None:
        self.text = text
        self.refusal = refusal
        self.reason = f"{refusal.message} (rule: {refusal.rule})"
        super().__init__([Diagnostic(Location("command", 1, 1), f"'{text}': {self.reason}")])


class AmbiguousCommand(CommandError):
    """A command that names two or more options that differ; `candidates` lists one of each."""

    def __init__(self, text: str, candidates: tuple[Option, ...]) -> None:
        self.text = text
        self.candidates = candidates
        shown = ", ".join(f"'{o}'" for o in candidates)
        message = f"'{text}' names {len(candidates)} options: {shown}; write the one meant"
        super().__init__([Diagnostic(Location("command", 1, 1), message)])


def resolve(game: Game, player: int, text: str) -> Option:
    """The legal option of `game` that `text` names, read on the whole game; `player` is the
    one meant when the text leaves out its `pN: `."""
    return resolve_command(game, parse_command(text, player), text)


def resolve_command(game: Game, command: Command, text: str) -> Option:
    """The legal option a parsed command names (`text`: as it was written, for messages)."""
    fields = tuple(tuple(tuple(u.cards) for u in p.field) for p in game.state.players)
    return _resolve(command, text, game.legal_options(), fields, lambda: game)


def resolve_seen(seen: View, text: str) -> Option:
    """The option of `seen.options` that `text` names, read on what the view shows (the
    text's player is the viewer unless it says otherwise)."""
    public = seen.public
    assert public is not None  # every view has its handle
    fields = tuple(tuple(c.cards for c in p.field if c.cards) for p in seen.players)
    command = parse_command(text, seen.me)
    return _resolve(command, text, seen.options, fields, lambda: public.sample(random.Random(0)))


def _resolve(
    command: Command, text: str, options: Sequence[Option], fields: Fields, explained: Callable[[], Game]
) -> Option:
    mine = [o for o in options if o.player == command.player]
    forms = [(_canonical(_written(o)), o) for o in mine]
    as_written, respelt = _spellings(command, mine, fields)
    found: dict[Command, Option] = {}  # one option per way of writing it, first found first
    for tier in (as_written, respelt):
        for spelled in tier:
            for form, option in forms:
                if form == spelled:
                    found.setdefault(spelled, option)
        if found:
            break
    if not found:
        # explained as first respelt (a character by its first card), else as written
        raise IllegalCommand(text, explain(explained(), (respelt or as_written)[0], written_body(text)))
    if len(found) > 1:
        raise AmbiguousCommand(text, tuple(found.values()))
    return next(iter(found.values()))


def _written(option: Option) -> Command:
    """The command that names `option` exactly: its cards by value, a character by its first card."""
    if isinstance(option, Pass):
        return PassCommand(option.player)
    target = None if option.target is None else _written_target(option.target)
    if isinstance(option, Choice):
        cards = tuple(card(c) for c in (option.a, option.b) if c is not None)
        return AnswerCommand(option.player, option.word, cards, target)
    return RequestCommand(
        option.player,
        option.name,
        tuple(card(c) for c in option.keys),
        tuple((unit, None if c is None else card(c)) for unit, c in option.payment),
        target,
        None if option.source is None else card(option.source),
    )


def _written_target(target: OptionTarget) -> CommandTarget:
    if isinstance(target, CharacterByCard):
        return WrittenCharacter(owner(target.card), card(target.card))
    if isinstance(target, ZoneCard):
        return WrittenZoneCard(owner(target.card), target.zone, card(target.card))
    return target  # a stage position, a resolving depth, a player, what a view hides: as written


NO_CARD = Card(0, None)  # sorts an L payment's missing card among the others


def _canonical(command: Command) -> Command:
    """Key cards and payments in card order: a command may write them in any order."""
    if isinstance(command, RequestCommand):
        payment = tuple(sorted(command.payment, key=lambda p: (p[0], p[1] or NO_CARD)))
        return RequestCommand(
            command.player, command.name, tuple(sorted(command.keys)), payment, command.target, command.source
        )
    return command


def _spellings(
    command: Command, options: Sequence[Option], fields: Fields
) -> tuple[list[Command], list[Command]]:
    """The command as written, and (when it names a character by a later card) each way of
    naming those characters by their first card."""
    first = _canonical(command)
    if isinstance(first, PassCommand):
        return [first], []
    written: list[Command] = [first, *_read_otherwise(first)]
    respelt = dict.fromkeys(map(_canonical, _respelt(first, options, fields)))
    return written, [way for way in respelt if way not in written]


def _read_otherwise(command: RequestCommand | AnswerCommand) -> list[Command]:
    """A bare name is both a request and an answer to the notation: the grammar reads a name
    in small ASCII letters as an answer's word, any other as an action's name, but an action
    may be named `probe` and a choice be labelled `一番下` (choose_one labels are the rule set's)."""
    if isinstance(command, AnswerCommand) and not command.cards:
        return [RequestCommand(command.player, command.word, target=command.target)]
    if isinstance(command, RequestCommand) and not (command.keys or command.payment or command.source):
        return [AnswerCommand(command.player, command.name, target=command.target)]
    return []


def _respelt(
    command: RequestCommand | AnswerCommand, options: Sequence[Option], fields: Fields
) -> Iterator[Command]:
    both = (0, 1)
    target = command.target
    targets: list[CommandTarget | None] = [target]
    if isinstance(target, WrittenCharacter):
        targets = [
            WrittenCharacter(target.player, v) for v in _leaders(fields, target.card, both, target.player)
        ]
    if isinstance(command, AnswerCommand):
        # An answer's cards name characters when every answer of its word offers characters
        # (attacker, block); a card being placed or picked is itself, even from a character.
        leading = {u[0] for side in fields for u in side}
        offered = [o for o in options if isinstance(o, Choice) and o.word == command.word]
        naming = bool(offered) and all(c in leading for o in offered for c in (o.a, o.b) if c is not None)
        each = [_leaders(fields, c, both) if naming else [c] for c in command.cards]
        for cards in product(*each):
            yield from (AnswerCommand(command.player, command.word, cards, t) for t in targets)
    else:
        me = (command.player,)
        by = command.source
        sources: list[Card | None] = [None] if by is None else list(_leaders(fields, by, me))
        paid = [
            [(unit, v) for v in _leaders(fields, c, me)]
            if c is not None and isinstance(UNITS.get(unit), OwnCharacter)
            else [(unit, c)]
            for unit, c in command.payment
        ]
        for pay, source, target in product(product(*paid), sources, targets):
            yield RequestCommand(command.player, command.name, command.keys, pay, target, source)


def _leaders(fields: Fields, written: Card, players: tuple[int, ...], deck: int | None = None) -> list[Card]:
    """The values a card written for a character may stand for: itself when it is the first
    card of a character holding it (or of none), else the first card of each character
    holding it; only the players' characters, and only a card of `deck` when given."""
    held = [
        (unit, c)
        for p in players
        for unit in fields[p]
        for c in unit
        if card(c) == written and deck in (None, owner(c))
    ]
    if not held or any(c == unit[0] for unit, c in held):
        return [written]
    return list(dict.fromkeys(card(unit[0]) for unit, _ in held))
