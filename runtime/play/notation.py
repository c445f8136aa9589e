"""The command notation: parse a command into a Command, print it canonically.

A command is legal when its canonical text equals the text of one of the legal options
(runtime/engine/options.py prints options in this notation).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache
from importlib import resources

from blackpoker.runtime.engine.game import Game
from blackpoker.runtime.engine.options import Choice, target_text
from blackpoker.runtime.engine.payments import UNITS, OwnCharacter
from blackpoker.runtime.engine.refs import (
    CommandTarget,
    PlayerRef,
    ResolvingDepth,
    StagePosition,
    WrittenCharacter,
    WrittenZoneCard,
)
from blackpoker.runtime.engine.zones import card, owner
from blackpoker.runtime.rules.cards import Card, with_suit_symbols
from blackpoker.runtime.rules.diagnostics import BlackPokerError, Diagnostic, Location
from lark import Lark, Token, Transformer, UnexpectedInput


@dataclass(frozen=True, slots=True)
class Command:
    player: int  # 0 or 1
    kind: str  # "pass", "request" or "choice"
    name: str = ""  # action name (request) or word (choice)
    keys: tuple[Card, ...] = ()
    payment: tuple[tuple[str, Card | None], ...] = ()
    target: CommandTarget | None = None
    cards: tuple[Card, ...] = ()  # a choice's cards
    source: Card | None = None  # a caused action's character, by a card of it

    def body(self) -> str:
        """The canonical text after `pN: `: key cards and payments in card order."""
        if self.kind == "pass":
            return "pass"
        text = self.name if self.source is None else f"{self.name} by {self.source}"
        if self.kind == "choice":
            if self.cards:
                text += " " + str(self.cards[0])
            if len(self.cards) > 1:
                text += " with " + str(self.cards[1])
        if self.keys:
            text += " ★" + "".join(map(str, sorted(self.keys)))
        if self.payment:
            ordered = sorted(self.payment, key=lambda p: (p[0], p[1] or Card(0, None)))
            text += " $" + "".join(unit + (f"({c})" if c is not None else "") for unit, c in ordered)
        if self.target is not None:
            text += " → " + target_text(self.target)
        return text

    def __str__(self) -> str:
        return f"p{self.player + 1}: {self.body()}"


class NotationError(BlackPokerError, ValueError):
    """A command that does not parse; the scenario loader relocates it to its file's line."""

    def __init__(self, message: str, column: int, width: int = 1, text: str | None = None) -> None:
        super().__init__([Diagnostic(Location("command", 1, column + 1), message, text, width)])
        self.message = message
        self.column = column  # 0-based, in characters
        self.width = width


@cache
def _parser() -> Lark:
    grammar = resources.files("blackpoker.runtime.play").joinpath("command.lark").read_text(encoding="utf-8")
    return Lark(grammar, parser="lalr")


class _Build(Transformer[Token, Command]):
    def CARD(self, token: Token) -> Card:
        return Card.parse(str(token))

    def start(self, items: list[object]) -> Command:
        player, body = items
        assert isinstance(body, Command)
        return replace(body, player=int(str(player)[1]) - 1)

    def pass_(self, items: list[object]) -> Command:
        return Command(0, "pass")

    def request(self, items: list[object]) -> Command:
        name, rest = str(items[0]), items[1:]
        keys: tuple[Card, ...] = ()
        payment: tuple[tuple[str, Card | None], ...] = ()
        target: CommandTarget | None = None
        source: Card | None = None
        for item in rest:
            if isinstance(item, Card):
                source = item
            elif isinstance(item, tuple) and item and item[0] == "key":
                keys = item[1]
            elif isinstance(item, tuple) and item and item[0] == "cost":
                payment = item[1]
            elif isinstance(item, CommandTarget):
                target = item
        return Command(0, "request", name, keys, payment, target, source=source)

    def source(self, items: list[Card]) -> Card:
        return items[0]

    def key(self, items: list[Card]) -> tuple[str, tuple[Card, ...]]:
        return ("key", tuple(items))

    def cost(self, items: list[tuple[str, Card | None]]) -> tuple[str, tuple[tuple[str, Card | None], ...]]:
        return ("cost", tuple(items))

    def payment(self, items: list[object]) -> tuple[str, Card | None]:
        card = items[1] if len(items) > 1 else None
        assert card is None or isinstance(card, Card)
        return (str(items[0]), card)

    def character(self, items: list[object]) -> WrittenCharacter:
        card = items[1]
        assert isinstance(card, Card)
        return WrittenCharacter(int(str(items[0])[1]) - 1, card)

    def zone_card(self, items: list[object]) -> WrittenZoneCard:
        card = items[2]
        assert isinstance(card, Card)
        return WrittenZoneCard(int(str(items[0])[1]) - 1, str(items[1]), card)

    def player(self, items: list[object]) -> PlayerRef:
        return PlayerRef(int(str(items[0])[1]) - 1)

    def stage(self, items: list[object]) -> StagePosition:
        return StagePosition(int(str(items[0])))

    def resolving(self, items: list[object]) -> ResolvingDepth:
        return ResolvingDepth(int(str(items[0])))

    def choice(self, items: list[object]) -> Command:
        cards = tuple(c for c in items[1:] if isinstance(c, Card))
        target = next((t for t in items[1:] if isinstance(t, CommandTarget)), None)
        return Command(0, "choice", str(items[0]), cards=cards, target=target)


def parse_command(text: str) -> Command:
    try:
        tree = _parser().parse(text)
    except UnexpectedInput as error:
        column = max(0, error.column - 1) if isinstance(error.column, int) and error.column > 0 else len(text)
        got = text[column : column + 1] or "end of command"
        meant = with_suit_symbols(text)
        if meant != text and _parses(meant):  # ★S5, h7: suits written as letters or names
            hint = f"did you mean '{meant}'?"
        else:
            hint = "write e.g. 'p1: アップ ★♡5 $D(♠7) → p2:♣9' or 'p2: pass'"
        raise NotationError(f"command '{text}': unexpected '{got}'; {hint}", column) from None
    try:
        command = _Build().transform(tree)
    except Exception as error:  # a bad card label inside a well-formed command
        cause = error.__context__ or error
        raise NotationError(f"command '{text}': {cause}", 0, len(text)) from None
    assert isinstance(command, Command)
    return command


def _parses(text: str) -> bool:
    try:
        parse_command(text)
    except NotationError:
        return False
    return True


def name_characters(game: Game, command: Command) -> Command:
    """The command with every character it names by a later card (`p2:♣5` for an armed
    soldier ♣9+♣5) named by its first card, as options print characters. A card that is
    the first card of a character, or no character's card, names what it did. The runner
    tries a command as written first."""

    def first(written: Card, players: tuple[int, ...], deck: int | None = None) -> Card:
        units = [u for p in players for u in game.state.players[p].field]
        held = [(u, c) for u in units for c in u.cards if card(c) == written and deck in (None, owner(c))]
        if not held or any(c == u.cards[0] for u, c in held):
            return written
        return card(held[0][0].cards[0])

    def names_character(unit: str) -> bool:
        return isinstance(UNITS.get(unit), OwnCharacter)

    both = (0, 1)
    target = command.target
    if isinstance(target, WrittenCharacter):
        target = WrittenCharacter(target.player, first(target.card, both, target.player))
    payment = tuple(
        (unit, first(paid, (command.player,)) if names_character(unit) and paid is not None else paid)
        for unit, paid in command.payment
    )
    source = None if command.source is None else first(command.source, (command.player,))
    # An answer's cards name characters when every answer of its word offers characters
    # (attacker, block); a card being placed or picked is itself, even from a character.
    offered = [o for o in game.legal_options() if isinstance(o, Choice) and o.word == command.name]
    leading = {u.cards[0] for p in game.state.players for u in p.field}
    if offered and all(c in leading for o in offered for c in (o.a, o.b) if c is not None):
        return replace(
            command,
            target=target,
            payment=payment,
            source=source,
            cards=tuple(first(c, both) for c in command.cards),
        )
    return replace(command, target=target, payment=payment, source=source)
