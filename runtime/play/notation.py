"""The command notation: text → a typed `Command`, or `InvalidCommand` with the column.

`p1: アップ ★♡5 $D(♠7) → p2:♣9`, `p2: pass`, `p2: block ♣9 with ♡3` (grammar: command.lark).
A command names cards by value, as a person writes them; runtime/play/resolve.py finds the
legal option it names. Nothing prints a command: options print (runtime/engine/options.py),
and a command is shown as it was written.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import cache
from importlib import resources

from blackpoker.runtime.engine.refs import (
    CommandTarget,
    HiddenCharacter,
    HiddenZoneCard,
    PlayerRef,
    ResolvingDepth,
    StagePosition,
    WrittenCharacter,
    WrittenZoneCard,
    player_name,
)
from blackpoker.runtime.rules.cards import Card, with_suit_symbols
from blackpoker.runtime.rules.diagnostics import BlackPokerError, Diagnostic, Location
from blackpoker.runtime.rules.enums import Answer, answer_word
from lark import Lark, Token, Transformer, UnexpectedInput

_PREFIX = re.compile(r"\s*p[12]\s*:")  # a command that names its player
WrittenPayment = tuple[str, Card | None]  # a cost unit and the card it names (none for L)


@dataclass(frozen=True, slots=True)
class PassCommand:
    player: int  # 0 or 1


@dataclass(frozen=True, slots=True)
class RequestCommand:
    """A request: the action's name, key cards, payment and target as written (any order of
    key cards and payments), and the character causing a caused action (`by ♠5`)."""

    player: int
    name: str
    keys: tuple[Card, ...] = ()
    payment: tuple[WrittenPayment, ...] = ()
    target: CommandTarget | None = None
    source: Card | None = None


@dataclass(frozen=True, slots=True)
class AnswerCommand:
    """An answer inside an effect: a word, with up to two cards (`block ♣9 with ♡3`) or a target."""

    player: int
    word: Answer | str  # the engine's answer, or a choose_one's label
    cards: tuple[Card, ...] = ()
    target: CommandTarget | None = None


Command = PassCommand | RequestCommand | AnswerCommand


class CommandError(BlackPokerError):
    """The root of the errors a command gets: not in the notation, not legal, or naming more
    than one option (runtime/play/resolve.py raises the last two)."""


class InvalidCommand(CommandError, ValueError):
    """Text that is not in the notation; a scenario relocates it to its file's line."""

    def __init__(
        self, message: str, column: int, width: int = 1, text: str | None = None, meant: str | None = None
    ) -> None:
        super().__init__([Diagnostic(Location("command", 1, column + 1), message, text, width)])
        self.message = message
        self.column = column  # 0-based, in characters
        self.width = width
        self.meant = meant  # the command with its suits respelt (★S5 → ★♠5), when that one parses


def written_body(text: str) -> str:
    """A command's text after its `pN: `, as it was typed."""
    return _PREFIX.sub("", text, count=1).strip()


@cache
def _parser() -> Lark:
    grammar = resources.files("blackpoker.runtime.play").joinpath("command.lark").read_text(encoding="utf-8")
    return Lark(grammar, parser="lalr")


def _player(token: object) -> int:
    return int(str(token)[1]) - 1


class _Build(Transformer[Token, Command]):
    def CARD(self, token: Token) -> Card:
        return Card.parse(str(token))

    def start(self, items: list[object]) -> Command:
        player, body = items
        assert isinstance(body, PassCommand | RequestCommand | AnswerCommand)
        return replace(body, player=_player(player))

    def pass_(self, items: list[object]) -> PassCommand:
        return PassCommand(0)

    def request(self, items: list[object]) -> RequestCommand:
        name = str(items[0])
        keys: tuple[Card, ...] = ()
        payment: tuple[WrittenPayment, ...] = ()
        target: CommandTarget | None = None
        source: Card | None = None
        for item in items[1:]:
            if isinstance(item, Card):
                source = item
            elif isinstance(item, _Keys):
                keys = item.cards
            elif isinstance(item, _Cost):
                payment = item.payment
            elif isinstance(item, CommandTarget):
                target = item
        return RequestCommand(0, name, keys, payment, target, source)

    def source(self, items: list[Card]) -> Card:
        return items[0]

    def key(self, items: list[Card]) -> _Keys:
        return _Keys(tuple(items))

    def cost(self, items: list[WrittenPayment]) -> _Cost:
        return _Cost(tuple(items))

    def payment(self, items: list[object]) -> WrittenPayment:
        card = items[1] if len(items) > 1 else None
        assert card is None or isinstance(card, Card)
        return (str(items[0]), card)

    def character(self, items: list[object]) -> WrittenCharacter:
        card = items[1]
        assert isinstance(card, Card)
        return WrittenCharacter(_player(items[0]), card)

    def zone_card(self, items: list[object]) -> WrittenZoneCard:
        card = items[2]
        assert isinstance(card, Card)
        return WrittenZoneCard(_player(items[0]), str(items[1]), card)

    def hidden_character(self, items: list[object]) -> HiddenCharacter:
        return HiddenCharacter(int(str(items[0])))

    def hidden_zone_card(self, items: list[object]) -> HiddenZoneCard:
        return HiddenZoneCard(_player(items[0]), str(items[1]), int(str(items[2])))

    def player(self, items: list[object]) -> PlayerRef:
        return PlayerRef(_player(items[0]))

    def stage(self, items: list[object]) -> StagePosition:
        return StagePosition(int(str(items[0])))

    def resolving(self, items: list[object]) -> ResolvingDepth:
        return ResolvingDepth(int(str(items[0])))

    def choice(self, items: list[object]) -> AnswerCommand:
        word = answer_word(str(items[0]))
        cards = tuple(c for c in items[1:] if isinstance(c, Card))
        target = next((t for t in items[1:] if isinstance(t, CommandTarget)), None)
        return AnswerCommand(0, word, cards, target)


@dataclass(frozen=True, slots=True)
class _Keys:
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class _Cost:
    payment: tuple[WrittenPayment, ...]


def parse_command(text: str, player: int | None = None) -> Command:
    """A command in the notation; `player` (0 or 1) is the one meant when the text leaves out
    its `pN: ` (a person at the terminal or in the browser types only their own commands)."""
    written = text if player is None or _PREFIX.match(text) else f"{player_name(player)}: {text}"
    shift = len(written) - len(text)  # columns are counted in the text as typed
    try:
        tree = _parser().parse(written)
    except UnexpectedInput as error:
        at = max(0, error.column - 1) if isinstance(error.column, int) and error.column > 0 else len(written)
        got = written[at : at + 1] or "end of command"
        respelt = with_suit_symbols(text)
        meant = respelt if respelt != text and _parses(respelt, player) else None  # ★S5, h7: suits as letters
        example = "write e.g. 'p1: アップ ★♡5 $D(♠7) → p2:♣9' or 'p2: pass'"
        hint = f"did you mean '{meant}'?" if meant else example
        message = f"command '{text}': unexpected '{got}'; {hint}"
        raise InvalidCommand(message, max(0, at - shift), meant=meant) from None
    try:
        command = _Build().transform(tree)
    except Exception as error:  # a bad card label inside a well-formed command
        cause = error.__context__ or error
        raise InvalidCommand(f"command '{text}': {cause}", 0, len(text)) from None
    assert isinstance(command, PassCommand | RequestCommand | AnswerCommand)
    return command


def _parses(text: str, player: int | None) -> bool:
    try:
        parse_command(text, player)
    except InvalidCommand:
        return False
    return True
