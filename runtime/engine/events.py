"""What happens in a game, as typed events. The engine records them when a game keeps a log;
command logs (runtime/play/log.py) and the terminal (cli/play.py) turn them into text."""

from __future__ import annotations

from dataclasses import dataclass

from blackpoker.runtime.engine.options import Option
from blackpoker.runtime.engine.refs import Result


@dataclass(frozen=True, slots=True)
class SetUp:
    first: int  # the player who starts


@dataclass(frozen=True, slots=True)
class Decided:
    player: int
    index: int  # the option's place in legal_options(): texts may print alike (two Jokers)
    option: Option


@dataclass(frozen=True, slots=True)
class Requested:
    player: int
    action: str
    indirect: bool = False  # requested by another action's effect

    # written out: mypyc compiles this one, not the Python one a dataclass generates (docs/engine.md)
    def __init__(self, player: int, action: str, indirect: bool = False) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "action", action)
        object.__setattr__(self, "indirect", indirect)


@dataclass(frozen=True, slots=True)
class Triggered:
    player: int
    action: str

    # written out: mypyc compiles this one, not the Python one a dataclass generates (docs/engine.md)
    def __init__(self, player: int, action: str) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "action", action)


@dataclass(frozen=True, slots=True)
class Discarded:
    action: str  # a main-timing trigger while the stage was not empty


@dataclass(frozen=True, slots=True)
class Negated:
    action: str


@dataclass(frozen=True, slots=True)
class Revealed:
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Shuffled:
    player: int  # whose life an effect shuffled


@dataclass(frozen=True, slots=True)
class LostTarget:
    action: str  # a resolving request whose target no longer qualifies: its effect stops


@dataclass(frozen=True, slots=True)
class Damaged:
    player: int  # who takes the damage: a fight's unblocked attacker or loser, an effect's player
    amount: int  # the points dealt (the life gives up as many cards as it holds, at most)

    # written out: mypyc compiles this one, not the Python one a dataclass generates (docs/engine.md)
    def __init__(self, player: int, amount: int) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "amount", amount)


@dataclass(frozen=True, slots=True)
class Died:
    player: int  # the character's controller
    cards: tuple[
        int, ...
    ]  # the cards of a character a fight (ダメージ判定) puts into the graveyard, if face up

    # written out: mypyc compiles this one, not the Python one a dataclass generates (docs/engine.md)
    def __init__(self, player: int, cards: tuple[int, ...]) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "cards", cards)


@dataclass(frozen=True, slots=True)
class Resolved:
    player: int
    action: str

    # written out: mypyc compiles this one, not the Python one a dataclass generates (docs/engine.md)
    def __init__(self, player: int, action: str) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "action", action)


@dataclass(frozen=True, slots=True)
class TurnPassed:
    player: int  # the new turn player
    turn: int

    # written out: mypyc compiles this one, not the Python one a dataclass generates (docs/engine.md)
    def __init__(self, player: int, turn: int) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "turn", turn)


@dataclass(frozen=True, slots=True)
class GameOver:
    result: Result


Event = (
    SetUp
    | Decided
    | Requested
    | Triggered
    | Discarded
    | Negated
    | Revealed
    | Shuffled
    | LostTarget
    | Damaged
    | Died
    | Resolved
    | TurnPassed
    | GameOver
)
