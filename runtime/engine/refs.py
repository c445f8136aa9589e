"""Typed references to what a target names.

The state keeps a target by identity (`StateTarget`: a unit id, a request id, a player
index); an option names it as its text does, without the game (`OptionTarget`: a character
by its first card, a request by its stage position or resolving depth, a hidden character
by its id); a player's view names its characters and its requests' targets as options do, or
`GONE` once a target left (`CharacterRef`, `ViewTarget`); a written command names a character
by owner and card face (`CommandTarget`), and what a view hides as the view names it.
Options print through `options.target_text`; commands parse in runtime/play/notation.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Final

# Imported at run time, not only for the type checker: a dataclass compiled with mypyc needs
# its field types then (docs/engine.md, "The compiled engine").
from blackpoker.runtime.rules.cards import Card


@dataclass(frozen=True, slots=True)
class UnitRef:
    """A character on the field, by its unit id."""

    uid: int

    # written out: mypyc compiles this one, not the Python one a dataclass generates (docs/engine.md)
    def __init__(self, uid: int) -> None:
        object.__setattr__(self, "uid", uid)


@dataclass(frozen=True, slots=True)
class RequestRef:
    """A request (on the stage or resolving), by its id."""

    uid: int


def player_name(index: int) -> str:
    """How the notation, logs and views name a player: p1, p2."""
    return f"p{index + 1}"


class Result(Enum):
    """How a game (or a match) ended: a seat won, or both players lost at once (a draw).
    Members are truthy, unlike a seat 0."""

    P1_WINS = 0
    P2_WINS = 1
    DRAW = 2

    __hash__ = object.__hash__  # by identity, in C (as cards.Suit)

    @classmethod
    def won_by(cls, seat: int) -> Result:
        return _WON_BY[seat]

    @property
    def winner(self) -> int | None:
        """The winner's seat; None for a draw."""
        return None if self is Result.DRAW else self.value


_WON_BY: Final = (Result.P1_WINS, Result.P2_WINS)
_RESULT_NAMES: Final = {Result.P1_WINS: "p1", Result.P2_WINS: "p2", Result.DRAW: "draw"}
_NAMED_RESULTS: Final = {name: result for result, name in _RESULT_NAMES.items()}


def result_name(result: Result) -> str:
    """How logs, reports, scenarios and the board print a result: p1, p2 or draw."""
    return _RESULT_NAMES[result]


def result_named(text: str) -> Result | None:
    """The result a printed name (p1, p2, draw) stands for; None for any other text."""
    return _NAMED_RESULTS.get(text)


@dataclass(frozen=True, slots=True)
class PlayerRef:
    """A player, by index (0 or 1); the state and options name players alike."""

    index: int

    # written out: mypyc compiles this one, not the Python one a dataclass generates (docs/engine.md)
    def __init__(self, index: int) -> None:
        object.__setattr__(self, "index", index)


@dataclass(frozen=True, slots=True)
class CardRef:
    """A card, by its id: the target a character's trigger gives its request (切札再生's J)."""

    card: int


@dataclass(frozen=True, slots=True)
class CharacterByCard:
    """A character as an option names it: by its first card (`p2:♣9`)."""

    card: int

    # written out: mypyc compiles this one, not the Python one a dataclass generates (docs/engine.md)
    def __init__(self, card: int) -> None:
        object.__setattr__(self, "card", card)


@dataclass(frozen=True, slots=True)
class StagePosition:
    """A stage request by its position from the bottom, from 1 (`stage:1`)."""

    position: int

    # written out: mypyc compiles this one, not the Python one a dataclass generates (docs/engine.md)
    def __init__(self, position: int) -> None:
        object.__setattr__(self, "position", position)


@dataclass(frozen=True, slots=True)
class ResolvingDepth:
    """The request being resolved at this depth, from 1 (`resolving:1`)."""

    depth: int


@dataclass(frozen=True, slots=True)
class HiddenCharacter:
    """In a player's view, a character whose cards it may not see: by unit id (`face-down#7`)."""

    uid: int


@dataclass(frozen=True, slots=True)
class ZoneCard:
    """A card lying in a zone whose cards have faces (a trump), as an option names it:
    `p2:trump:♠4`."""

    zone: str
    card: int


@dataclass(frozen=True, slots=True)
class HiddenZoneCard:
    """In a player's view, a face-down card of the opponent's zone: by its place from 1
    (`p2:trump#1`), never by card."""

    player: int
    zone: str
    position: int


@dataclass(frozen=True, slots=True)
class WrittenZoneCard:
    """A zone card as a command names it: its owner, the zone and a card face (`p2:trump:♠4`)."""

    player: int
    zone: str
    card: Card


@dataclass(frozen=True, slots=True)
class WrittenCharacter:
    """A character as a command names it: its owner and a card face (`p2:♣9`)."""

    player: int
    card: Card


@dataclass(frozen=True, slots=True)
class Gone:
    """In a player's view, a request's target that is no longer where it was named (a
    character that left the field, a request that left the stage)."""


GONE: Final = Gone()

StateTarget = UnitRef | RequestRef | PlayerRef | CardRef
OptionTarget = (
    CharacterByCard | StagePosition | ResolvingDepth | HiddenCharacter | PlayerRef | ZoneCard | HiddenZoneCard
)
# how a player's view names a character: by its first card, or by id when its cards are hidden
CharacterRef = CharacterByCard | HiddenCharacter
# how a player's view names a request's target: as an option would, a card in no zone by itself
# (a summoned character's card, seen as it left the field), or GONE once it left
ViewTarget = OptionTarget | CardRef | Gone
# a view's hidden references too: a person names what they see as the view names it
CommandTarget = (
    WrittenCharacter
    | StagePosition
    | ResolvingDepth
    | PlayerRef
    | WrittenZoneCard
    | HiddenCharacter
    | HiddenZoneCard
)


def target_data(target: StateTarget) -> list[str | int]:
    """A state target as plain data, the form the state hash has always read: `["character", uid]`."""
    if isinstance(target, UnitRef):
        return ["character", target.uid]
    if isinstance(target, RequestRef):
        return ["request", target.uid]
    if isinstance(target, CardRef):
        return ["card", target.card]
    return ["player", target.index]


def option_data(target: OptionTarget) -> tuple[str, int]:
    """An option target as plain data, the form the state hash reads in a waiting prompt."""
    if isinstance(target, CharacterByCard):
        return ("character", target.card)
    if isinstance(target, StagePosition):
        return ("request", target.position)
    if isinstance(target, ResolvingDepth):
        return ("resolving", target.depth)
    if isinstance(target, HiddenCharacter):
        return ("face_down", target.uid)
    if isinstance(target, ZoneCard):
        return ("zone_card", target.card)
    if isinstance(target, HiddenZoneCard):
        return ("hidden_zone_card", target.player * 1000 + target.position)
    return ("player", target.index)
