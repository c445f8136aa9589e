"""The command notation: parse a command into a Command, print it canonically.

A command is legal when its canonical text equals the text of one of the legal options
(runtime/engine/options.py prints options in this notation).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources

from blackpoker.compiler.cards import Card
from blackpoker.compiler.diagnostics import BlackPokerError, Diagnostic, Location
from blackpoker.runtime.engine.options import target_text
from blackpoker.runtime.engine.refs import (
    CommandTarget,
    PlayerRef,
    ResolvingDepth,
    StagePosition,
    WrittenCharacter,
)
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

    def body(self) -> str:
        """The canonical text after `pN: `: key cards and payments in card order."""
        if self.kind == "pass":
            return "pass"
        text = self.name
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
    grammar = (
        resources.files("blackpoker.runtime.scenario").joinpath("command.lark").read_text(encoding="utf-8")
    )
    return Lark(grammar, parser="lalr")


class _Build(Transformer[Token, Command]):
    def CARD(self, token: Token) -> Card:
        return Card.parse(str(token))

    def start(self, items: list[object]) -> Command:
        player, body = items
        assert isinstance(body, Command)
        return Command(
            int(str(player)[1]) - 1, body.kind, body.name, body.keys, body.payment, body.target, body.cards
        )

    def pass_(self, items: list[object]) -> Command:
        return Command(0, "pass")

    def request(self, items: list[object]) -> Command:
        name, rest = str(items[0]), items[1:]
        keys: tuple[Card, ...] = ()
        payment: tuple[tuple[str, Card | None], ...] = ()
        target: CommandTarget | None = None
        for item in rest:
            if isinstance(item, tuple) and item and item[0] == "key":
                keys = item[1]
            elif isinstance(item, tuple) and item and item[0] == "cost":
                payment = item[1]
            elif isinstance(item, CommandTarget):
                target = item
        return Command(0, "request", name, keys, payment, target)

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
        raise NotationError(
            f"command '{text}': unexpected '{got}'; write e.g. 'p1: アップ ★♡5 $D(♠7) → p2:♣9' or 'p2: pass'",
            column,
        ) from None
    try:
        command = _Build().transform(tree)
    except Exception as error:  # a bad card label inside a well-formed command
        cause = error.__context__ or error
        raise NotationError(f"command '{text}': {cause}", 0, len(text)) from None
    assert isinstance(command, Command)
    return command
